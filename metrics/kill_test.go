package metrics

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperAppendForever is not a test: run by TestKilledWriterLosesAtMostTheLastRecord
// in a child process, it appends large records until it is killed.
func TestHelperAppendForever(t *testing.T) {
	path := os.Getenv("METRICS_KILL_PATH")
	if path == "" {
		t.Skip("helper process only")
	}
	w, err := OpenWriter(path)
	if err != nil {
		os.Exit(3)
	}
	rec := sample(1)
	rec.Model = strings.Repeat("m", 20000) // big lines make a torn write likely
	for g := 1; ; g++ {
		rec.Generation = g
		if err := w.Append(rec); err != nil {
			os.Exit(4)
		}
	}
}

func TestKilledWriterLosesAtMostTheLastRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	for round := 0; round < 3; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppendForever$")
		cmd.Env = append(os.Environ(), "METRICS_KILL_PATH="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it once it has written something.
		deadline := time.Now().Add(20 * time.Second)
		for {
			if st, err := os.Stat(path); err == nil && st.Size() > 200000*int64(round+1) {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the helper wrote nothing")
			}
			time.Sleep(5 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		recs, torn, err := Read(path)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if len(recs) == 0 {
			t.Fatalf("round %d: no records survived", round)
		}
		// Generations restart at 1 in each round; within a round they count up without a gap.
		for i := 1; i < len(recs); i++ {
			if g := recs[i].Generation; g != 1 && g != recs[i-1].Generation+1 {
				t.Fatalf("round %d: record %d is generation %d after %d", round, i, g, recs[i-1].Generation)
			}
		}
		t.Logf("round %d: %d records, torn last line %v", round, len(recs), torn)
	}
}
