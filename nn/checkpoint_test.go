package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// savedCheckpoint trains a tiny network for a few steps, saves it and
// returns the trainer and the file.
func savedCheckpoint(t *testing.T, opt string) (*Trainer, string) {
	t.Helper()
	cfg := tinyConfig()
	net, err := New(cfg, 8)
	if err != nil {
		t.Fatal(err)
	}
	tc := DefaultTrainConfig()
	tc.Optimizer = opt
	tr, err := NewTrainer(net, tc)
	if err != nil {
		t.Fatal(err)
	}
	b := fixedTask(cfg, 4, 8)
	for i := 0; i < 3; i++ {
		if _, err := tr.TrainStep(b); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "net.safetensors")
	if err := tr.Save(path, "flying-bombers"); err != nil {
		t.Fatal(err)
	}
	return tr, path
}

func TestCheckpointRoundTripRestoresEveryTensorAndCounter(t *testing.T) {
	for _, opt := range []string{"sgd", "adam"} {
		tr, path := savedCheckpoint(t, opt)
		got, err := LoadTrainer(path, tr.net.cfg, "flying-bombers")
		if err != nil {
			t.Fatal(err)
		}
		if got.Steps() != tr.Steps() || got.Config() != tr.Config() {
			t.Errorf("%s: loaded step %d config %+v, saved %d %+v", opt, got.Steps(), got.Config(), tr.Steps(), tr.Config())
		}
		for i, p := range tr.net.params {
			q := got.net.params[i]
			for j := range p.Data {
				if p.Data[j] != q.Data[j] {
					t.Fatalf("%s: %s[%d] loaded %v, saved %v", opt, p.Name, j, q.Data[j], p.Data[j])
				}
			}
			for k := range tr.opt.state[i] {
				for j := range tr.opt.state[i][k] {
					if tr.opt.state[i][k][j] != got.opt.state[i][k][j] {
						t.Fatalf("%s: optimizer state %d of %s differs", opt, k, p.Name)
					}
				}
			}
		}
		if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(matches) != 0 {
			t.Errorf("temporary files left behind: %v", matches)
		}
	}
}

// TestCheckpointOfAGlobalPoolNetRoundTrips: a network with global pooling
// saves its pooling weights and loads them back, and a config without it
// is refused naming the field.
func TestCheckpointOfAGlobalPoolNetRoundTrips(t *testing.T) {
	cfg := tinyConfig()
	cfg.GlobalPool = 2
	net, err := New(cfg, 8)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(net, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.TrainStep(fixedTask(cfg, 4, 8)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "net.safetensors")
	if err := tr.Save(path, "flying-bombers"); err != nil {
		t.Fatal(err)
	}
	got, err := LoadNet(path, cfg, "flying-bombers")
	if err != nil {
		t.Fatal(err)
	}
	pooled := 0
	for i, p := range net.params {
		if strings.Contains(p.Name, ".pool.") {
			pooled++
		}
		if q := got.params[i]; q.Name != p.Name || !slices.Equal(q.Data, p.Data) {
			t.Fatalf("%s loaded as %s with other values", p.Name, q.Name)
		}
	}
	if pooled != 2*cfg.Blocks {
		t.Errorf("%d pooling tensors, want %d", pooled, 2*cfg.Blocks)
	}
	plain := cfg
	plain.GlobalPool = 0
	if _, err := LoadNet(path, plain, "flying-bombers"); !errors.Is(err, ErrShapeMismatch) || !strings.Contains(err.Error(), "GlobalPool") {
		t.Errorf("loaded into a config without pooling: %v, want a shape mismatch naming GlobalPool", err)
	}

	// Saved as version 3, which a build from before pooling refuses; a
	// pooled network of version 2 (saved before version 3) still loads.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := ParseCheckpoint(data); err != nil {
		t.Fatal(err)
	} else if c.Version != pooledVersion {
		t.Errorf("a pooled network saved as version %d, want %d", c.Version, pooledVersion)
	}
	if _, err := ParseCheckpoint(withMeta(t, data, "format_version", "2")); err != nil {
		t.Errorf("a pooled network of version 2: %v, want it loaded", err)
	}
	// A header that hides the pooling, as a build that does not know it
	// would read the file: the pooling tensors belong to no part of the
	// network, and the load is refused rather than play another network.
	hidden := rewriteHeader(t, withMeta(t, data, "format_version", "2"), func(h map[string]any) {
		m := h["__metadata__"].(map[string]any)
		m["config"] = strings.Replace(m["config"].(string), `"GlobalPool":2`, `"GlobalPool":0`, 1)
	})
	c, err := ParseCheckpoint(hidden)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Net(plain, "flying-bombers"); !errors.Is(err, ErrShapeMismatch) || !strings.Contains(err.Error(), ".pool.") {
		t.Errorf("pooling tensors under a config without pooling: %v, want them refused by name", err)
	}
	if _, err := ParseCheckpoint(rewriteHeader(t, hidden, func(h map[string]any) {
		h["__metadata__"].(map[string]any)["format_version"] = "3"
	})); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "GlobalPool 0") {
		t.Errorf("version 3 without pooling: %v, want it refused as corrupt", err)
	}
	// A network without pooling stays version 2.
	_, p := savedCheckpoint(t, "sgd")
	if c, err := ReadCheckpoint(p); err != nil {
		t.Fatal(err)
	} else if c.Version != checkpointVersion {
		t.Errorf("a network without pooling saved as version %d, want %d", c.Version, checkpointVersion)
	}
}

func TestCheckpointLoadErrorsSayWhatIsWrong(t *testing.T) {
	tr, path := savedCheckpoint(t, "adam")
	cfg := tr.net.cfg
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)-5] ^= 0x40
	wider := cfg
	wider.Filters++
	version := func(v string) []byte { // the same file claiming format version v
		b := []byte(strings.Replace(string(data), `"format_version":"2"`, `"format_version":"`+v+`"`, 1))
		if string(b) == string(data) {
			t.Fatal("no format_version 2 in the header")
		}
		return b
	}
	cases := []struct {
		name    string
		path    string
		cfg     Config
		variant string
		is      error
		says    string
	}{
		{"wrong variant", path, cfg, "chess", ErrVariantMismatch, `"flying-bombers", want "chess"`},
		{"wrong shape", path, wider, "flying-bombers", ErrShapeMismatch, "Filters is 6 in the checkpoint, want 7"},
		{"truncated data", write("short", data[:len(data)-100]), cfg, "flying-bombers", ErrTruncated, "ends at byte"},
		{"truncated header", write("shorter", data[:50]), cfg, "flying-bombers", ErrTruncated, "header length"},
		{"empty", write("empty", nil), cfg, "flying-bombers", ErrTruncated, "at least 8"},
		{"flipped data bit", write("flipped", flipped), cfg, "flying-bombers", ErrCorrupt, "SHA-256"},
		{"format version 1", write("v1", version("1")), cfg, "flying-bombers", ErrOldFormat, "format_version 1 networks read no length-cap input plane"},
		{"unknown format version", write("v9", version("9")), cfg, "flying-bombers", ErrCorrupt, `format_version "9", want 2`},
		{"trailing bytes", write("long", append(append([]byte(nil), data...), 0, 0, 0, 0)), cfg, "flying-bombers", ErrCorrupt, "cover"},
	}
	for _, c := range cases {
		_, err := LoadTrainer(c.path, c.cfg, c.variant)
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %v, want %v saying %q", c.name, err, c.is, c.says)
		}
	}
	if _, err := LoadNet(path, cfg, "flying-bombers"); err != nil {
		t.Errorf("LoadNet of a good checkpoint: %v", err)
	}
}

func TestStandardLibraryPythonReadsCheckpoint(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	tr, path := savedCheckpoint(t, "sgd")
	out, err := exec.Command(python, "testdata/read_checkpoint.py", path).CombinedOutput()
	if err != nil {
		t.Fatalf("python reader: %v\n%s", err, out)
	}
	var want []string
	add := func(name string, shape []int, data []float32) {
		var sum float64
		for _, v := range data {
			sum += float64(v)
		}
		dims := make([]string, len(shape))
		for i, d := range shape {
			dims[i] = fmt.Sprint(d)
		}
		want = append(want, fmt.Sprintf("%s F32 %s %.6g", name, strings.Join(dims, "x"), sum))
	}
	for i, p := range tr.net.params {
		add(p.Name, p.Shape, p.Data)
		if p.Learnable() {
			add("optimizer.velocity."+p.Name, p.Shape, tr.opt.state[i][0])
		}
	}
	sort.Strings(want)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if lines[0] != "variant flying-bombers step 3" {
		t.Errorf("python read metadata %q", lines[0])
	}
	lines = lines[1:]
	if len(lines) != len(want) {
		t.Fatalf("python read %d tensors, want %d", len(lines), len(want))
	}
	for i, l := range lines {
		f := strings.Fields(l)
		var sum float64
		fmt.Sscan(f[3], &sum)
		if got := fmt.Sprintf("%s %s %s %.6g", f[0], f[1], f[2], sum); got != want[i] {
			t.Errorf("python read %q, want %q", got, want[i])
		}
	}
}

// seedCheckpoint is the file form of a tiny network saved by its trainer,
// the fuzz targets' first seed.
func seedCheckpoint(f *testing.F) []byte {
	f.Helper()
	cfg := Config{Channels: 1, Height: 2, Width: 2, PolicyPlanes: 1, Blocks: 1, Filters: 2, PolicyFilters: 1, ValueFilters: 1, ValueHidden: 2}
	net, err := New(cfg, 1)
	if err != nil {
		f.Fatal(err)
	}
	tr, err := NewTrainer(net, DefaultTrainConfig())
	if err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(f.TempDir(), "seed.safetensors")
	if err := tr.Save(path, "v"); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return good
}

func FuzzParseCheckpoint(f *testing.F) {
	good := seedCheckpoint(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Add([]byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"__metadata__\":1}"))
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 4; i++ {
		b := append([]byte(nil), good...)
		b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCheckpoint(data)
		if err != nil {
			// A one-byte change of format_version "2" to "1" is an old
			// file, refused as such.
			if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrOldFormat) {
				t.Fatalf("error %v wraps none of ErrTruncated, ErrCorrupt, ErrOldFormat", err)
			}
			return
		}
		// A parsed checkpoint either builds its own network or says why not.
		if _, err := c.Trainer(c.Config, c.Variant); err != nil && !errors.Is(err, ErrShapeMismatch) && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Trainer: %v", err)
		}
	})
}

// TestCheckpointWithNonFiniteWeightsIsRefusedNamingTheTensor is finding 2
// of issue 34: a checkpoint with a NaN in the tower was loaded and played.
func TestCheckpointWithNonFiniteWeightsIsRefusedNamingTheTensor(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value float32
		says  string
	}{
		{"NaN", float32(math.NaN()), "NaN"},
		{"+Inf", float32(math.Inf(1)), "+Inf"},
		{"-Inf", float32(math.Inf(-1)), "-Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, _ := savedCheckpoint(t, "adam")
			p := tr.net.params[len(tr.net.params)/2] // inside the tower
			p.Data[len(p.Data)-1] = tc.value
			path := filepath.Join(t.TempDir(), "diverged.safetensors")
			if err := tr.Save(path, "flying-bombers"); err != nil {
				t.Fatal(err)
			}
			for _, load := range []func() error{
				func() error { _, err := LoadNet(path, tr.net.cfg, "flying-bombers"); return err },
				func() error { _, err := LoadTrainer(path, tr.net.cfg, "flying-bombers"); return err },
			} {
				err := load()
				if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), fmt.Sprintf("%q", p.Name)) ||
					!strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), path) {
					t.Errorf("load of a checkpoint with %s in %s: %v; want ErrNonFinite naming the tensor and the file", tc.name, p.Name, err)
				}
			}
		})
	}
}

// TestCheckpointReaderRefusesDevicesAndFifosAtOnce is finding 1 of issue
// 34: /dev/zero as a checkpoint grew memory until the process died, and a
// FIFO blocked the reader forever.
func TestCheckpointReaderRefusesDevicesAndFifosAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.safetensors")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		done := make(chan error, 1)
		go func() { _, err := ReadCheckpoint(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("ReadCheckpoint(%s) = %v; want a refusal naming the file", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("ReadCheckpoint(%s) still running after 10 s", path)
		}
	}
}

// TestSaveHoldsNoCopyOfTheWeights is finding 8 of issue 34: saving built
// the data section in a growing buffer, then a second buffer with the
// header, several times the network's memory again (13.6 GB for a fat
// value head). It now streams: what it allocates is small beside the file.
func TestSaveHoldsNoCopyOfTheWeights(t *testing.T) {
	cfg := Config{Channels: 3, Height: 8, Width: 8, PolicyPlanes: 2, Blocks: 1, Filters: 8, PolicyFilters: 2, ValueFilters: 16, ValueHidden: 256}
	net, err := New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	tc := DefaultTrainConfig()
	tc.Optimizer = "adam"
	tr, err := NewTrainer(net, tc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fat.safetensors")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := tr.Save(path, "fbgc"); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("Save of a %d-byte checkpoint allocated %d bytes", info.Size(), alloc)
	if alloc > uint64(info.Size())/4 {
		t.Errorf("Save of a %d-byte checkpoint allocated %d bytes; want under a quarter of the file", info.Size(), alloc)
	}
	if _, err := LoadTrainer(path, cfg, "fbgc"); err != nil {
		t.Errorf("the streamed checkpoint does not load: %v", err)
	}
}

// rewriteHeader returns checkpoint ck with its JSON header replaced by
// edit's change of it (the data section kept).
func rewriteHeader(t testing.TB, ck []byte, edit func(h map[string]any)) []byte {
	t.Helper()
	hlen := binary.LittleEndian.Uint64(ck[:8])
	var h map[string]any
	if err := json.Unmarshal(ck[8:8+hlen], &h); err != nil {
		t.Fatal(err)
	}
	edit(h)
	js, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
	out = append(out, js...)
	return append(out, ck[8+hlen:]...)
}

// withMeta returns ck with metadata key set to value ("" deletes it).
func withMeta(t testing.TB, ck []byte, key, value string) []byte {
	return rewriteHeader(t, ck, func(h map[string]any) {
		m := h["__metadata__"].(map[string]any)
		if value == "" {
			delete(m, key)
		} else {
			m[key] = value
		}
	})
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// checkHeaderAgrees fails t unless ReadCheckpointHeader's answer h, err for
// a whole file data is ParseCheckpoint's: the same error where the header
// is at fault, the same variant, shape and step where ParseCheckpoint
// loads the file. (A header over MaxCheckpointHeaderBytes, which only the
// whole-file reader allows, is not compared.)
func checkHeaderAgrees(t *testing.T, name string, data []byte, h CheckpointHeader, err error) {
	t.Helper()
	if len(data) >= 8 && binary.LittleEndian.Uint64(data[:8]) > MaxCheckpointHeaderBytes {
		return
	}
	c, perr := ParseCheckpoint(data)
	switch {
	case err != nil && (perr == nil || perr.Error() != err.Error()):
		t.Errorf("%s: the header reader says %v, ParseCheckpoint %v; want the same error", name, err, perr)
	case perr == nil && (err != nil || h != (CheckpointHeader{c.Version, c.Variant, c.Config, c.Train, c.Step})):
		t.Errorf("%s: the header reader read %+v, %v; ParseCheckpoint %+v", name, h, err, c)
	}
}

func TestReadCheckpointHeaderReadsTheMetadataAndRefusesDamagedFiles(t *testing.T) {
	tr, path := savedCheckpoint(t, "adam")
	ck, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hlen := int(binary.LittleEndian.Uint64(ck[:8]))
	huge := binary.LittleEndian.AppendUint64(nil, MaxCheckpointHeaderBytes+1)
	// The opening of an nnue net file (engine/nnue): its magic read as a
	// header length.
	nnueNet := append([]byte("BZNNUE\r\n\x10\x00\x00\x00"), `{"version":3}`...)
	for _, c := range []struct {
		name string
		data []byte
		size int64 // the size the reader is told; 0: len(data)
		is   error // nil: reads
		says string
	}{
		{"whole", ck, 0, nil, ""},
		{"empty", nil, 0, ErrTruncated, "0 bytes, want at least 8"},
		{"five bytes", ck[:5], 0, ErrTruncated, "5 bytes, want at least 8"},
		{"a file shorter than its size", ck[:5], int64(len(ck)), ErrTruncated, "5 bytes, want at least 8"},
		{"a header length over the bound", append(huge, ck[8:]...), 0, ErrCorrupt, "header length 1048577 exceeds 1048576 bytes"},
		{"an nnue net", nnueNet, 0, ErrCorrupt, "exceeds 1048576 bytes"},
		{"a header cut short", ck[:8+hlen/2], 0, ErrTruncated, fmt.Sprintf("header length %d, but only %d bytes follow", hlen, hlen/2)},
		{"a header shorter than its size", ck[:8+hlen/2], int64(len(ck)), ErrTruncated, fmt.Sprintf("%d of the header's %d bytes", hlen/2, hlen)},
		{"not JSON", append(binary.LittleEndian.AppendUint64(nil, 4), "abcd"...), 0, ErrCorrupt, "header is not a JSON object"},
		{"no metadata", rewriteHeader(t, ck, func(h map[string]any) { delete(h, "__metadata__") }), 0, ErrCorrupt, "no __metadata__"},
		{"metadata not strings", rewriteHeader(t, ck, func(h map[string]any) { h["__metadata__"] = []int{1} }), 0, ErrCorrupt, "not a map of strings"},
		{"another format", withMeta(t, ck, "format", "other"), 0, ErrCorrupt, `metadata format "other", want "bomberzero-nn"`},
		{"format version 1", withMeta(t, ck, "format_version", "1"), 0, ErrOldFormat, "format_version 1 networks read no length-cap input plane"},
		{"format version 3 without pooling", withMeta(t, ck, "format_version", "3"), 0, ErrCorrupt, "format_version 3 is a pooled network's"},
		{"format version 4", withMeta(t, ck, "format_version", "4"), 0, ErrCorrupt, `metadata format_version "4", want 2`},
		{"no variant", withMeta(t, ck, "variant", ""), 0, ErrCorrupt, "metadata names no variant"},
		{"step not a count", withMeta(t, ck, "step", "-3"), 0, ErrCorrupt, `metadata step "-3" is not a step count`},
		{"config not JSON", withMeta(t, ck, "config", "{"), 0, ErrCorrupt, "metadata config"},
		{"config without filters", withMeta(t, ck, "config", `{"Channels":3,"Height":4,"Width":5,"PolicyPlanes":2,"Blocks":2}`), 0, ErrCorrupt, "metadata config: nn: config Filters = 0"},
		{"config too wide", withMeta(t, ck, "config", `{"Channels":3,"Height":4,"Width":70000,"PolicyPlanes":2,"Blocks":2,"Filters":6,"PolicyFilters":4,"ValueFilters":2,"ValueHidden":8}`), 0, ErrCorrupt, "has a dimension over 65536"},
		{"train config not JSON", withMeta(t, ck, "train_config", "["), 0, ErrCorrupt, "metadata train_config"},
		{"a tensor not F32", rewriteHeader(t, ck, func(h map[string]any) {
			h["x"] = map[string]any{"dtype": "F16", "shape": []int{1}, "data_offsets": []int{0, 2}}
		}), 0, ErrCorrupt, `tensor "x" has dtype "F16", want F32`},
		{"bad offsets", rewriteHeader(t, ck, func(h map[string]any) {
			h["x"] = map[string]any{"dtype": "F32", "shape": []int{1}, "data_offsets": []int{8, 4}}
		}), 0, ErrCorrupt, `tensor "x" offsets [8, 4] do not fit shape [1]`},
		{"the data cut short", ck[:len(ck)-100], 0, ErrTruncated, "ends at byte"},
		{"trailing bytes", append(bytes.Clone(ck), 0, 0, 0, 0), 0, ErrCorrupt, "tensors cover"},
	} {
		size := c.size
		if size == 0 {
			size = int64(len(c.data))
		}
		r := &countingReader{r: bytes.NewReader(c.data)}
		h, err := ReadCheckpointHeader(r, size)
		if c.is == nil {
			want := CheckpointHeader{checkpointVersion, "flying-bombers", tr.net.cfg, tr.cfg, tr.Steps()}
			if err != nil || !reflect.DeepEqual(h, want) {
				t.Errorf("%s: %+v, %v; want %+v", c.name, h, err, want)
			}
			if r.n != 8+hlen {
				t.Errorf("%s: read %d bytes, want the header's %d alone, never the weights", c.name, r.n, 8+hlen)
			}
		} else if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want %v saying %q", c.name, err, c.is, c.says)
		}
		if r.n > 8+MaxCheckpointHeaderBytes {
			t.Errorf("%s: read %d bytes, past the bound", c.name, r.n)
		}
		if size == int64(len(c.data)) {
			checkHeaderAgrees(t, c.name, c.data, h, err)
		}
	}
}

// TestReadCheckpointHeaderOfTheGoldenCheckpoints: the header reader reads
// the golden checkpoint of the current version and refuses version 1's as
// the loader does.
func TestReadCheckpointHeaderOfTheGoldenCheckpoints(t *testing.T) {
	for v := 1; v <= checkpointVersion; v++ {
		path := filepath.Join("testdata", fmt.Sprintf("v%d", v), "tiny.safetensors")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h, err := ReadCheckpointHeader(bytes.NewReader(data), int64(len(data)))
		if v < goldenRefusedBelow {
			if !errors.Is(err, ErrOldFormat) {
				t.Errorf("version %d: %+v, %v; want the old-format refusal", v, h, err)
			}
		} else if err != nil || h.Version != v || h.Variant != goldenVariant || h.Config != tinyConfig() || h.Step != goldenStep ||
			!reflect.DeepEqual(h.Train, DefaultTrainConfig()) {
			t.Errorf("version %d: %+v, %v; want %s, %+v, step %d", v, h, err, goldenVariant, tinyConfig(), goldenStep)
		}
		checkHeaderAgrees(t, path, data, h, err)
	}
}

func TestSaveRefusesACheckpointOfNoVariant(t *testing.T) {
	tr, _ := savedCheckpoint(t, "sgd")
	path := filepath.Join(t.TempDir(), "none.safetensors")
	if err := tr.Save(path, ""); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "no variant") {
		t.Errorf("Save with no variant: %v; want a refusal naming the file", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("Save with no variant left %s (%v)", path, err)
	}
}

// FuzzReadCheckpointHeader: no input makes the header reader panic or read
// past its bound, its errors wrap the package's, and it agrees with
// ParseCheckpoint on every whole file.
func FuzzReadCheckpointHeader(f *testing.F) {
	good := seedCheckpoint(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Add(binary.LittleEndian.AppendUint64(nil, 2))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 2), "{}"...))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 40), `{"__metadata__":{"format":"bomberzero-nn"}}`...))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &countingReader{r: bytes.NewReader(data)}
		h, err := ReadCheckpointHeader(r, int64(len(data)))
		if r.n > 8+MaxCheckpointHeaderBytes {
			t.Fatalf("read %d bytes", r.n)
		}
		if err != nil && !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrOldFormat) {
			t.Fatalf("error %v wraps none of ErrTruncated, ErrCorrupt, ErrOldFormat", err)
		}
		checkHeaderAgrees(t, "input", data, h, err)
	})
}
