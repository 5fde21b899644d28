package nnue

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// FileVersion is the version of the net file format WriteFile writes.
// Version 5 added the file mirror (header key mirror, true), so that a
// build without it refuses a mirrored net by its version instead of by a
// layout it cannot name; a net without the mirror is written as version
// 4 (with buckets) or 3, byte for byte as before. Version 4 added king
// buckets (header key king_buckets, e.g. "3x3"), so that a build without
// them refuses a bucketed net instead of reading its features wrong; a net
// without buckets is written as version 3, which builds before buckets
// read. Version 3 added the base evaluation of a residual net (header keys
// base and base_table), so that a build that cannot add the base refuses
// such a net instead of playing its correction alone. ReadFile reads versions 2
// (no base) and 1, the format before the linear (PSQT) path, whose nets
// it reads with that path zero: they evaluate as before.
const FileVersion = 5

// MaxFileBytes bounds the size of a net file ReadFile accepts.
const MaxFileBytes = 256 << 20

// magic opens every net file.
const magic = "BZNNUE\r\n"

// MaxHeaderBytes bounds the JSON header ReadHeader reads.
const MaxHeaderBytes = 64 << 10

// Header is what a net file says of itself before its weights: enough to
// list and label a net (its variant, sizes, king buckets, base and meta)
// without reading, or trusting, the weights.
type Header struct {
	Version     int
	Variant     string
	Layout      string
	KingBuckets string // "" without buckets, e.g. "3x2"
	Mirror      bool   // the file mirror (Options.Mirror)
	Features    int
	Hidden, L2  int
	Base        string // "" or BaseClassical
	Meta        map[string]string
}

// ReadHeader reads a net file's header from r: the magic, the header's
// length and at most MaxHeaderBytes of JSON, never the weights (so it does
// not check the checksum: ReadFile does). Errors say what was expected; no
// input makes it panic.
func ReadHeader(r io.Reader) (Header, error) {
	var head [len(magic) + 4]byte
	n, err := io.ReadFull(r, head[:])
	if n < len(magic) || string(head[:len(magic)]) != magic {
		return Header{}, fmt.Errorf("not a bomberzero net file (want it to start with %q)", magic)
	}
	if err != nil {
		return Header{}, fmt.Errorf("truncated: %d bytes, no header length", n)
	}
	size := binary.LittleEndian.Uint32(head[len(magic):])
	if size < 2 || size > MaxHeaderBytes {
		return Header{}, fmt.Errorf("header of %d bytes: want 2 to %d (a damaged file?)", size, MaxHeaderBytes)
	}
	js := make([]byte, size)
	if n, err := io.ReadFull(r, js); err != nil {
		return Header{}, fmt.Errorf("truncated: %d of the header's %d bytes", n, size)
	}
	var h header
	if err := json.Unmarshal(js, &h); err != nil {
		return Header{}, fmt.Errorf("header: %v (a damaged file?)", err)
	}
	if _, err := h.check(); err != nil {
		return Header{}, err
	}
	if h.Variant == "" {
		return Header{}, fmt.Errorf("header names no variant")
	}
	return Header{Version: h.Version, Variant: h.Variant, Layout: h.Layout, KingBuckets: h.Kings, Mirror: h.Mirror, Features: h.Features,
		Hidden: h.Hidden, L2: h.L2, Base: h.Base, Meta: h.Meta}, nil
}

// header is the JSON header of a net file.
type header struct {
	Version   int               `json:"version"`
	Variant   string            `json:"variant"`
	Layout    string            `json:"layout"`
	Kings     string            `json:"king_buckets,omitempty"`
	Mirror    bool              `json:"mirror,omitempty"`
	Features  int               `json:"features"`
	Hidden    int               `json:"hidden"`
	L2        int               `json:"l2"`
	Scale     float32           `json:"scale"`
	B3        float32           `json:"b3"`
	Tensors   []tensorHeader    `json:"tensors"`
	Base      string            `json:"base,omitempty"`
	BaseTable []int32           `json:"base_table,omitempty"`
	Meta      map[string]string `json:"meta,omitempty"`
}

// check reports a header this build cannot read (another version, a key
// its version does not have, king buckets that are no scheme) and returns
// its king buckets: the checks ReadHeader and Decode share. Whether the
// buckets fit the board, with or without the mirror, is FeatureSetOf's
// check, when the net is loaded for a variant.
func (h *header) check() (KingBuckets, error) {
	if h.Version < 1 || h.Version > FileVersion {
		return KingBuckets{}, fmt.Errorf("version %d; this build reads versions 1 to %d", h.Version, FileVersion)
	}
	if h.Version < 3 && (h.Base != "" || len(h.BaseTable) > 0) {
		return KingBuckets{}, fmt.Errorf("a base evaluation in a version %d file; want version 3 for a residual net", h.Version)
	}
	if h.Version < 4 && h.Kings != "" {
		return KingBuckets{}, fmt.Errorf("king buckets %q in a version %d file; want version 4 for a bucketed net", h.Kings, h.Version)
	}
	if h.Version < 5 && h.Mirror {
		return KingBuckets{}, fmt.Errorf("the file mirror in a version %d file; want version 5 for a mirrored net", h.Version)
	}
	kings, err := ParseKingBuckets(h.Kings)
	if err != nil {
		return KingBuckets{}, fmt.Errorf("header: %w", err)
	}
	return kings, nil
}

type tensorHeader struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
}

// Encode returns the file form of n: the magic "BZNNUE\r\n", the header's
// length (uint32, little-endian), the JSON header (version, variant,
// layout, sizes, scale, B3, the tensors' names and shapes, meta), the
// tensors W1, B1, W2, B2, W3 as little-endian float32 in that order, and
// the SHA-256 of everything before it.
func Encode(n *Net) ([]byte, error) {
	if err := n.Check(); err != nil {
		return nil, err
	}
	h := header{Version: 3, Variant: n.Variant, Layout: n.Layout, Features: n.Features,
		Hidden: n.H, L2: n.L2, Scale: n.Scale, B3: n.B3, Base: n.Base, BaseTable: n.BaseTable, Meta: n.Meta}
	if n.Kings.Count() > 1 {
		h.Version, h.Kings = 4, n.Kings.String()
	}
	if n.Mirror {
		h.Version, h.Mirror = FileVersion, true
	}
	size := 0
	for _, t := range n.tensors() {
		h.Tensors = append(h.Tensors, tensorHeader{t.name, t.shape})
		size += 4 * len(t.data)
	}
	js, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(magic) + 4 + len(js) + size + sha256.Size)
	b.WriteString(magic)
	binary.Write(&b, binary.LittleEndian, uint32(len(js)))
	b.Write(js)
	var w [4]byte
	for _, t := range n.tensors() {
		for _, x := range t.data {
			binary.LittleEndian.PutUint32(w[:], math.Float32bits(x))
			b.Write(w[:])
		}
	}
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return b.Bytes(), nil
}

// WriteFile writes n to path atomically: a reader sees the old file or the
// whole new one.
func WriteFile(path string, n *Net) error {
	data, err := Encode(n)
	if err != nil {
		return fmt.Errorf("net file %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("net file %s: %w", path, err)
	}
	return nil
}

// ReadFile reads a net file of at most MaxFileBytes. Errors name the file
// and what was expected: a damaged file (checksum), another version, a
// truncated file, sizes that do not agree, weights that are not finite.
func ReadFile(path string) (*Net, error) {
	data, err := readfile.Regular(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("net file: %w", err)
	}
	n, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("net file %s: %w", path, err)
	}
	return n, nil
}

// Decode reads the file form Encode writes.
func Decode(data []byte) (*Net, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("not a bomberzero net file (want it to start with %q)", magic)
	}
	if len(data) < len(magic)+4+sha256.Size {
		return nil, fmt.Errorf("truncated: %d bytes", len(data))
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	hlen := int(binary.LittleEndian.Uint32(data[len(magic):]))
	rest := body[len(magic)+4:]
	if hlen > len(rest) {
		return nil, fmt.Errorf("truncated: header of %d bytes, %d bytes left", hlen, len(rest))
	}
	var h header
	if err := json.Unmarshal(rest[:hlen], &h); err != nil {
		if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
			return nil, fmt.Errorf("damaged: checksum mismatch (header unreadable: %v)", err)
		}
		return nil, fmt.Errorf("header: %w", err)
	}
	kings, err := h.check()
	if err != nil {
		return nil, err
	}
	n := &Net{Variant: h.Variant, Layout: h.Layout, Kings: kings, Mirror: h.Mirror, Features: h.Features, H: h.Hidden, L2: h.L2,
		Scale: h.Scale, B3: h.B3, Base: h.Base, BaseTable: h.BaseTable, Meta: h.Meta}
	if n.Features < 1 || n.H < 1 || n.L2 < 1 || n.H > 4096 || n.L2 > 1024 || n.Features > 1<<16 {
		return nil, fmt.Errorf("sizes features %d, hidden %d, l2 %d; want 1-65536, 1-4096, 1-1024", n.Features, n.H, n.L2)
	}
	n.PSQT = make([]float32, max(n.Features, 0))
	want := n.tensors()
	if h.Version == 1 {
		want = want[:5] // no PSQT: it stays zero
	}
	if len(h.Tensors) != len(want) {
		names := "W1, B1, W2, B2, W3, PSQT"
		if h.Version == 1 {
			names = "W1, B1, W2, B2, W3"
		}
		return nil, fmt.Errorf("%d tensors; want %d (%s) in version %d", len(h.Tensors), len(want), names, h.Version)
	}
	size := 0
	for i, t := range want {
		got := h.Tensors[i]
		if got.Name != t.name || fmt.Sprint(got.Shape) != fmt.Sprint(t.shape) {
			return nil, fmt.Errorf("tensor %d is %s %v; want %s %v from the header's sizes", i, got.Name, got.Shape, t.name, t.shape)
		}
		size += 4 * t.want
	}
	data32 := rest[hlen:]
	if len(data32) != size {
		if len(data32) < size {
			return nil, fmt.Errorf("truncated: %d bytes of weights; want %d", len(data32), size)
		}
		return nil, fmt.Errorf("%d bytes of weights; want %d for the header's sizes", len(data32), size)
	}
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, fmt.Errorf("damaged: checksum mismatch")
	}
	floats := make([]float32, size/4)
	for i := range floats {
		floats[i] = math.Float32frombits(binary.LittleEndian.Uint32(data32[4*i:]))
	}
	take := func(k int) []float32 {
		s := floats[:k:k]
		floats = floats[k:]
		return s
	}
	n.W1, n.B1, n.W2, n.B2, n.W3 = take(want[0].want), take(want[1].want), take(want[2].want), take(want[3].want), take(want[4].want)
	if len(want) > 5 {
		n.PSQT = take(want[5].want)
	}
	if err := n.Check(); err != nil {
		return nil, err
	}
	return n, nil
}
