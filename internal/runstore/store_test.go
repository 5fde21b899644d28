package runstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestSplitLocationGivesGocloudURLAndPrefix(t *testing.T) {
	tests := []struct {
		in, bucket, prefix string
	}{
		{"s3://runs/fbgc/a?endpoint=http%3A%2F%2F127.0.0.1%3A8333&region=us-east-1&use_path_style=true",
			"s3://runs?endpoint=http%3A%2F%2F127.0.0.1%3A8333&region=us-east-1&use_path_style=true", "fbgc/a/"},
		{"s3://runs", "s3://runs", ""},
		{"s3://runs/", "s3://runs", ""},
		{"gs://bucket/p", "gs://bucket", "p/"},
		{"azblob://container/x/y/", "azblob://container", "x/y/"},
		{"file:///tmp/run", "file:///tmp/run?create_dir=true&metadata=skip", ""},
		{"mem://", "mem://", ""},
		{"mem://a/b", "mem://", "a/b/"},
	}
	for _, tc := range tests {
		b, p, err := splitLocation(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if b != tc.bucket || p != tc.prefix {
			t.Errorf("%s: got (%q, %q), want (%q, %q)", tc.in, b, p, tc.bucket, tc.prefix)
		}
	}
}

func TestSplitLocationRefusesBadLocationsNamingTheFault(t *testing.T) {
	tests := []struct{ in, want string }{
		{"s3:///prefix", "no bucket"},
		{"s3://user:secret@bucket/p", "credentials in the URL"},
		{"s3://bucket/a/../../b", "not a clean path"},
		{"file://host/tmp", "local folder"},
		{"file:///", "no folder"},
		{"ftp://x/y", "scheme"},
	}
	for _, tc := range tests {
		_, _, err := splitLocation(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.in, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: error %q shows the secret", tc.in, err)
		}
	}
}

func TestIsURLTellsStoresFromDirectories(t *testing.T) {
	for in, want := range map[string]bool{
		"s3://b/p": true, "gs://b": true, "azblob://c/p": true, "file:///tmp/x": true, "mem://": true,
		"runs/fbgc": false, "/abs/dir": false, "C:/x": false, "http://host/x": false, "": false,
	} {
		if got := IsURL(in); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", in, got, want)
		}
	}
}

// stores returns an in-memory store and a folder store, the two kinds a
// test can open without a server.
func stores(t *testing.T) map[string]*Store {
	t.Helper()
	out := map[string]*Store{}
	for name, loc := range map[string]string{
		"mem":  "mem://run/x",
		"file": "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "bucket")),
	} {
		s, err := Open(context.Background(), loc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		out[name] = s
	}
	return out
}

func TestStoreRoundTripsListsAndDeletes(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			objs := map[string][]byte{
				"config.toml":           []byte("variant = \"fbgc\"\n"),
				"data/chunk-a.parquet":  bytes.Repeat([]byte{0, 1, 2, 255}, 1000),
				"data/chunk-b.parquet":  {},
				"manifest/chunk-a.json": []byte(`{"games":3}`),
			}
			for k, v := range objs {
				if err := s.Write(ctx, k, v); err != nil {
					t.Fatal(err)
				}
			}
			for k, v := range objs {
				got, err := s.Read(ctx, k, 1<<20)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, v) {
					t.Errorf("%s: read %d bytes, wrote %d", k, len(got), len(v))
				}
			}
			list, err := s.List(ctx, "data/")
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 2 || list[0].Key != "data/chunk-a.parquet" || list[1].Key != "data/chunk-b.parquet" || list[0].Size != 4000 {
				t.Errorf("List(data/) = %+v", list)
			}
			if err := s.Delete(ctx, "data/chunk-a.parquet"); err != nil {
				t.Fatal(err)
			}
			if err := s.Delete(ctx, "data/chunk-a.parquet"); err != nil {
				t.Errorf("deleting a missing object: %v", err)
			}
			if _, err := s.Read(ctx, "data/chunk-a.parquet", 10); !errors.Is(err, ErrNotFound) {
				t.Errorf("read after delete: %v, want ErrNotFound", err)
			}
		})
	}
}

func TestReadRefusesAnObjectOverTheLimit(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		if err := s.Write(ctx, "big", make([]byte, 1001)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Read(ctx, "big", 1000); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", name, err)
		}
		if got, err := s.Read(ctx, "big", 1001); err != nil || len(got) != 1001 {
			t.Errorf("%s: at the limit: %d bytes, %v", name, len(got), err)
		}
	}
}

func TestCreateLetsExactlyOneOfManyWritersWin(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			var wins, exists atomic.Int32
			var wg sync.WaitGroup
			for i := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					err := s.Create(ctx, "lease/0001", []byte(fmt.Sprint(i)))
					switch {
					case err == nil:
						wins.Add(1)
					case errors.Is(err, ErrExists):
						exists.Add(1)
					default:
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if wins.Load() != 1 || exists.Load() != 7 {
				t.Errorf("%d writers won and %d were told the object exists; want 1 and 7", wins.Load(), exists.Load())
			}
		})
	}
}

func TestUnreachableEndpointGivesUpAfterTheRetriesNamingTheStore(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_MAX_ATTEMPTS", "1")
	var lines []string
	var mu sync.Mutex
	s, err := Open(context.Background(), "s3://bucket/run?endpoint=http://"+addr+"&region=us-east-1&use_path_style=true",
		Options{Retry: Retry{Attempts: 2, First: 10 * time.Millisecond, Max: 20 * time.Millisecond},
			Logf: func(f string, a ...any) { mu.Lock(); lines = append(lines, fmt.Sprintf(f, a...)); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = s.Read(ctx, "state.json", 1<<20)
	if err == nil || !strings.Contains(err.Error(), "giving up after 2 attempts") || !strings.Contains(err.Error(), "s3://bucket/run") ||
		!strings.Contains(err.Error(), "state.json") {
		t.Fatalf("error %v, want one giving up after 2 attempts and naming the store and key", err)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "retry 1 of 1") {
		t.Errorf("retry lines %q, want one: retry 1 of 1", lines)
	}
}

// TestOutageSaysWhenItStartsWaitingAndEveryNoticeAfter is finding 7 of
// issue 34: during an outage a line says the store is being waited for at
// once, then one every Notice (30 s by default), also while one call
// hangs, rather than one a retry or none.
func TestOutageSaysWhenItStartsWaitingAndEveryNoticeAfter(t *testing.T) {
	var lines []string
	var mu sync.Mutex
	s := &Store{url: "mem://run", retry: Retry{Attempts: 4, First: 10 * time.Millisecond, Max: 600 * time.Millisecond, Notice: 250 * time.Millisecond},
		logf: func(f string, a ...any) { mu.Lock(); lines = append(lines, fmt.Sprintf(f, a...)); mu.Unlock() }}
	// Waits of 10, 20 and 40 ms, then (the third retry's wait doubled up
	// to Max) a last one: about 0.1 s in all; the last attempt hangs 0.7 s.
	calls := 0
	err := s.do(context.Background(), "read", "state.json", func() error {
		calls++
		if calls == 4 {
			time.Sleep(700 * time.Millisecond) // a hanging call: no retry to speak for it
		}
		return errors.New("connection refused")
	})
	if err == nil || !strings.Contains(err.Error(), "giving up after 4 attempts") {
		t.Fatalf("do = %v; want giving up after 4 attempts", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(lines) == 0 || !strings.Contains(lines[0], "waiting for the store") || !strings.Contains(lines[0], "state.json") {
		t.Fatalf("lines %q; want the first saying it waits for the store, naming the key", lines)
	}
	// Three retries in the first 0.1 s: one line for them, not three.
	if n := strings.Count(strings.Join(lines, "\n"), "retry "); n != 1 {
		t.Errorf("%d lines name a retry: %q; want only the first (one a notice after)", n, lines)
	}
	still := 0
	for _, l := range lines {
		if strings.Contains(l, "still waiting for the store after") {
			still++
		}
	}
	if still < 2 {
		t.Errorf("%d still-waiting lines over a 0.8 s outage with a 0.25 s notice: %q; want 2 or more", still, lines)
	}
}

func TestCancelledContextStopsRetrying(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	s, err := Open(context.Background(), "s3://bucket?endpoint=http://"+addr+"&region=us-east-1&use_path_style=true",
		Options{Retry: Retry{Attempts: 100, First: time.Second, Max: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	err = s.Write(ctx, "x", []byte("y"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's deadline", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("stopped after %s, want about the context's 300ms", d)
	}
}

// TestListNeverShowsACreateInProgress: on a file:// store Create writes a
// temporary file beside its target before linking it, and a reader listing
// the folder meanwhile (an evaluator counting its ratings, a collector
// reading manifests) must not see it as an object. A CI run caught a test
// counting one.
func TestListNeverShowsACreateInProgress(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["file"]
	if err := s.Create(ctx, "eval/gen-0001.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	// Creates caught between their temporary file and its link: as
	// Create names the file, and without the suffix fileblob skips.
	for _, name := range []string{createTempPrefix + "123" + createTempSuffix, createTempPrefix + "456"} {
		if err := os.WriteFile(filepath.Join(s.dir, "eval", name), []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, prefix := range []string{"eval/", ""} {
		list, err := s.List(ctx, prefix)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || list[0].Key != "eval/gen-0001.json" {
			t.Errorf("List(%q) = %+v, want only eval/gen-0001.json", prefix, list)
		}
	}
}

// TestListWhileObjectsAreDeletedNeverFails: fileblob reads a folder and
// then stats each file, so an object deleted in between made the whole
// listing fail; List retries it instead.
func TestListWhileObjectsAreDeletedNeverFails(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["file"]
	const n = 300
	for i := range n {
		if err := s.Write(ctx, fmt.Sprintf("manifest/chunk-%04d.json", i), []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			if err := s.Delete(ctx, fmt.Sprintf("manifest/chunk-%04d.json", i)); err != nil {
				t.Error(err)
			}
		}
	}()
	for {
		if _, err := s.List(ctx, "manifest/"); err != nil {
			t.Fatalf("List while deleting: %v", err)
		}
		select {
		case <-done:
			return
		default:
		}
	}
}
