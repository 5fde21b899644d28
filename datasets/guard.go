package datasets

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// The Parquet decoder trusts the lengths written in a file: a list, string
// or page length in a damaged or forged footer or page header makes it
// allocate whatever the file says, gigabytes included, and an allocation
// the machine cannot satisfy kills the process past any recover. The guard
// below walks every Thrift structure the decoder will read (the footer and
// each page header) before it does, and refuses lengths that do not fit in
// the bytes that hold them or exceed sane bounds.

// Bounds on what one page may claim. The writer cuts pages at 256 KiB
// (parquet-go's default page buffer), so real pages are far below them.
const (
	maxPageBytes   = 1 << 26 // uncompressed bytes of one page
	maxPageValues  = 1 << 24 // values in one page
	maxChunkValues = 1 << 30 // values in one column chunk
	maxThriftNest  = 32      // nesting of Thrift structures, lists and maps
)

// errThrift marks a Thrift structure that does not fit its bytes.
var errThrift = errors.New("malformed Thrift structure")

// Thrift compact-protocol type codes.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
	tUUID   = 13
)

// thriftWalker checks one compact-protocol structure in b without building
// it. Integer fields at depth 1 and 2 are reported to onInt with the field
// ids on the way to them (parent 0 at depth 1).
type thriftWalker struct {
	b     []byte
	pos   int
	onInt func(parent, field int16, v int64)
}

func (w *thriftWalker) fail(what string) error {
	return fmt.Errorf("%w: %s at byte %d of %d", errThrift, what, w.pos, len(w.b))
}

func (w *thriftWalker) byte1() (byte, error) {
	if w.pos >= len(w.b) {
		return 0, w.fail("unexpected end")
	}
	c := w.b[w.pos]
	w.pos++
	return c, nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.pos:])
	if n <= 0 {
		return 0, w.fail("bad varint")
	}
	w.pos += n
	return v, nil
}

func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(len(w.b)-w.pos) {
		return w.fail(fmt.Sprintf("length %d past the end", n))
	}
	w.pos += int(n)
	return nil
}

// structure walks a struct's fields up to its stop byte.
func (w *thriftWalker) structure(depth int, parent int16) error {
	if depth > maxThriftNest {
		return w.fail("nested too deep")
	}
	var id int16
	for {
		h, err := w.byte1()
		if err != nil {
			return err
		}
		typ := h & 0x0f
		if typ == tStop {
			return nil
		}
		if d := h >> 4; d != 0 {
			id += int16(d)
		} else {
			z, err := w.uvarint()
			if err != nil {
				return err
			}
			id = int16(int64(z>>1) ^ -int64(z&1))
		}
		if err := w.value(typ, depth, parent, id); err != nil {
			return err
		}
	}
}

// value walks one value of type typ, the field id of a struct field
// (0 for list and map elements).
func (w *thriftWalker) value(typ byte, depth int, parent, id int16) error {
	switch typ {
	case tTrue, tFalse:
		return nil
	case tByte:
		return w.skip(1)
	case tI16, tI32, tI64:
		z, err := w.uvarint()
		if err != nil {
			return err
		}
		if w.onInt != nil && depth <= 2 && id != 0 {
			w.onInt(parent, id, int64(z>>1)^-int64(z&1))
		}
		return nil
	case tDouble:
		return w.skip(8)
	case tUUID:
		return w.skip(16)
	case tBinary:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case tList, tSet:
		h, err := w.byte1()
		if err != nil {
			return err
		}
		n, elem := uint64(h>>4), h&0x0f
		if n == 15 {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		if n > uint64(len(w.b)-w.pos) { // every element takes at least one byte
			return w.fail(fmt.Sprintf("list of %d elements in %d bytes", n, len(w.b)-w.pos))
		}
		for ; n > 0; n-- {
			if elem == tTrue || elem == tFalse {
				if err := w.skip(1); err != nil {
					return err
				}
				continue
			}
			if err := w.value(elem, depth+1, 0, 0); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.byte1()
		if err != nil {
			return err
		}
		if n > uint64(len(w.b)-w.pos)/2 {
			return w.fail(fmt.Sprintf("map of %d entries in %d bytes", n, len(w.b)-w.pos))
		}
		for ; n > 0; n-- {
			for _, t := range []byte{kv >> 4, kv & 0x0f} {
				if t == tTrue || t == tFalse {
					if err := w.skip(1); err != nil {
						return err
					}
				} else if err := w.value(t, depth+1, 0, 0); err != nil {
					return err
				}
			}
		}
		return nil
	case tStruct:
		if depth+1 > maxThriftNest {
			return w.fail("nested too deep")
		}
		return w.structure(depth+1, id)
	}
	return w.fail(fmt.Sprintf("unknown type %d", typ))
}

// checkFooter walks the Thrift footer of a Parquet file held in data.
func checkFooter(data []byte) error {
	size := len(data)
	n := int(binary.LittleEndian.Uint32(data[size-8 : size-4]))
	w := thriftWalker{b: data[size-8-n : size-8]}
	if err := w.structure(1, 0); err != nil {
		return fmt.Errorf("footer: %w", err)
	}
	return nil
}

// CheckPages walks the page headers of every column chunk of pf, a file
// held in data (OpenParquet), checking that each page fits in its column
// chunk, that its sizes and value count are within bounds and that it is
// ZSTD-compressed, as every chunk the project writes is.
func CheckPages(pf *parquet.File, data []byte) error {
	for g, rg := range pf.Metadata().RowGroups {
		for c, col := range rg.Columns {
			md := &col.MetaData
			start := md.DataPageOffset
			if md.DictionaryPageOffset != 0 {
				start = md.DictionaryPageOffset
			}
			end := start + md.TotalCompressedSize
			if start < 4 || md.TotalCompressedSize < 0 || end > int64(len(data)) || end < start {
				return fmt.Errorf("row group %d column %d: pages at [%d,%d) outside the file's %d bytes", g, c, start, end, len(data))
			}
			if md.Codec != format.Zstd { // what the writer uses; some other decoders grow their output without bound on garbage
				return fmt.Errorf("row group %d column %d: compression %v, chunks use ZSTD", g, c, md.Codec)
			}
			if md.NumValues < 0 || md.NumValues > maxChunkValues {
				return fmt.Errorf("row group %d column %d: %d values", g, c, md.NumValues)
			}
			for pos := start; pos < end; {
				var uncompressed, compressed int64 = -1, -1
				values := int64(0)
				w := thriftWalker{b: data[pos:end], onInt: func(parent, field int16, v int64) {
					switch {
					case parent == 0 && field == 2:
						uncompressed = v
					case parent == 0 && field == 3:
						compressed = v
					case (parent == 5 || parent == 7 || parent == 8) && field == 1:
						values = v
					}
				}}
				if err := w.structure(1, 0); err != nil {
					return fmt.Errorf("row group %d column %d: page header at byte %d: %w", g, c, pos, err)
				}
				body := pos + int64(w.pos)
				switch {
				case compressed < 0 || compressed > end-body:
					return fmt.Errorf("row group %d column %d: page at byte %d claims %d bytes, %d left in its column chunk", g, c, pos, compressed, end-body)
				case uncompressed < 0 || uncompressed > maxPageBytes:
					return fmt.Errorf("row group %d column %d: page at byte %d claims %d uncompressed bytes", g, c, pos, uncompressed)
				case values < 0 || values > maxPageValues:
					return fmt.Errorf("row group %d column %d: page at byte %d claims %d values", g, c, pos, values)
				}
				pos = body + compressed
			}
		}
	}
	return nil
}
