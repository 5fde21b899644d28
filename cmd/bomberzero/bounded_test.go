package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConfigsAndCheckpointsThatAreDevicesOrFifosAreRefusedAtOnce is
// finding 1 of issue 34: --config /dev/zero and /dev/zero as a checkpoint
// (match, analyse, selfplay --model) grew memory until Go died of it, and a
// FIFO in either place blocked forever. Each is now refused at once with
// an error naming the file.
func TestConfigsAndCheckpointsThatAreDevicesOrFifosAreRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		for _, tc := range []struct {
			name string
			args []string
		}{
			{"selfplay --config", selfplayArgs(t.TempDir(), 1, "--config", path)},
			{"train --config", []string{"train", "--variant", "fbgc", "--run", filepath.Join(t.TempDir(), "run"), "--config", path}},
			{"selfplay --model", []string{"selfplay", "--variant", "fbgc", "--model", path, "--games", "1", "--out", t.TempDir()}},
			{"analyse --model", []string{"analyse", "--variant", "fbgc", "--model", path}},
			{"match --a", []string{"match", "--variant", "fbgc", "--a", path, "--b", "random", "--games", "2"}},
		} {
			done := make(chan string, 1)
			go func() {
				code, _, errs := runCmd(t, tc.args...)
				done <- fmt.Sprintf("exit %d: %s", code, errs)
			}()
			select {
			case got := <-done:
				if strings.HasPrefix(got, "exit 0") || !strings.Contains(got, path) || !strings.Contains(got, "not a regular file") {
					t.Errorf("%s %s: %s; want a refusal naming the file", tc.name, path, got)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s still running after 10 s", tc.name, path)
			}
		}
	}
}

// TestNetInitAndTheEnginesModelOptionRefuseDevicesAndFifos is the rest
// of finding 1 of issue 34: net.init and the UCI and XBoard Model option
// read a checkpoint too, and /dev/zero there grew memory until Go died of
// it, a FIFO blocked forever. Each now names the file and says it is not
// a regular file: train stops, the engines say so and play on.
func TestNetInitAndTheEnginesModelOptionRefuseDevicesAndFifos(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		for _, tc := range []struct {
			name string
			run  func() (failed bool, out string)
		}{
			{"train --set net.init", func() (bool, string) {
				code, _, errs := runCmd(t, "train", "--variant", "fbgc", "--run", filepath.Join(t.TempDir(), "run"), "--quiet", "--set", "net.init="+path)
				return code != 0, errs
			}},
			{"uci setoption Model", func() (bool, string) {
				var out, errs strings.Builder
				in := strings.NewReader("uci\nsetoption name Model value " + path + "\nposition startpos\ngo nodes 1\n")
				err := uciWith(in, nil, &out, &errs)
				return err == nil && strings.Contains(out.String(), "bestmove"), out.String() + errs.String()
			}},
			{"xboard option Model", func() (bool, string) {
				var out, errs strings.Builder
				in := strings.NewReader("xboard\nprotover 2\noption Model=" + path + "\nnew\ngo\n")
				err := xboardWith(in, nil, &out, &errs)
				return err == nil, out.String() + errs.String()
			}},
		} {
			done := make(chan string, 1)
			go func() {
				ok, out := tc.run()
				if !ok {
					out = "did not end as expected: " + out
				}
				done <- out
			}()
			select {
			case got := <-done:
				if strings.HasPrefix(got, "did not end") || !strings.Contains(got, path) || !strings.Contains(got, "not a regular file") {
					t.Errorf("%s %s: %s; want a refusal naming the file", tc.name, path, got)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s still running after 10 s", tc.name, path)
			}
		}
	}
}
