package nn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

func FuzzParseCheckpoint(f *testing.F) {
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
			if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v wraps neither ErrTruncated nor ErrCorrupt", err)
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
