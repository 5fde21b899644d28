package train

import (
	"bytes"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestStateSavesAndLoadsUnchanged(t *testing.T) {
	dir := t.TempDir()
	pcg := rand.NewPCG(3, 4)
	rng, _ := pcg.MarshalBinary()
	s := &state{Generation: 4, Phase: phaseTrain, Checkpoint: "checkpoints/step-00000040.safetensors", Steps: 40,
		Samples: 5120, RNG: rng, Elapsed: 12.5, ChunksAtGenStart: 9, SelfPlaySeconds: 3.25,
		Gen: genTrain{Steps: 20, Samples: 2560, Seconds: 1.5, PolicyLoss: 40, ValueLoss: 12, Loss: 52.5, Arrived: 777}}
	if err := saveState(dir, s); err != nil {
		t.Fatal(err)
	}
	got, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("got %+v, want %+v", got, s)
	}
	var back rand.PCG
	if err := back.UnmarshalBinary(got.RNG); err != nil || back.Uint64() != pcg.Uint64() {
		t.Errorf("the random state did not survive: %v", err)
	}
}

func TestDamagedStateIsRefusedWithTheReason(t *testing.T) {
	dir := t.TempDir()
	if err := saveState(dir, &state{Phase: phaseSelfPlay, Steps: 5}); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(statePath(dir))
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"flipped digit", bytes.Replace(good, []byte(`"steps":5`), []byte(`"steps":6`), 1), "checksum mismatch"},
		{"truncated", good[:len(good)/2], "state.json"},
		{"future version", bytes.Replace(good, []byte(`"version":1`), []byte(`"version":9`), 1), "version 9"},
		{"empty", nil, "state.json"},
	}
	for _, c := range cases {
		os.WriteFile(statePath(dir), c.data, 0o644)
		_, err := loadState(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

func FuzzStateLoad(f *testing.F) {
	dir := f.TempDir()
	if err := saveState(dir, &state{Phase: phaseEval, Generation: 2, RNG: []byte("pcg:12345678901234567890")}); err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(statePath(dir))
	f.Add(good)
	f.Add([]byte(`{"version":1,"sha256":"","state":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := t.TempDir()
		os.WriteFile(statePath(d), data, 0o644)
		s, err := loadState(d)
		if err != nil {
			return
		}
		// A state that loads saves and loads back the same.
		if err := saveState(d, s); err != nil {
			t.Fatal(err)
		}
		back, err := loadState(d)
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Fatalf("re-saved state: %v\n%+v\n%+v", err, s, back)
		}
	})
}
