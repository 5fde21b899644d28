package readfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRegularRefusesWhatIsNotAFileWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 101), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good")
	if err := os.WriteFile(good, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, want string
	}{
		{fifo, "named pipe"},
		{zero, "character device"},
		{"/dev/zero", "character device"},
		{dir, "directory"},
		{big, "more than the 100"},
		{filepath.Join(dir, "missing"), "no such file"},
	}
	for _, c := range cases {
		done := make(chan error, 1)
		go func() { _, err := Regular(c.path, 100); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want an error saying %q", c.path, err, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still reading after 5 s", c.path)
		}
	}
	for _, p := range []string{good, link} {
		data, err := Regular(p, 100)
		if err != nil || string(data) != "hello" {
			t.Errorf("%s: %q, %v", p, data, err)
		}
	}
}
