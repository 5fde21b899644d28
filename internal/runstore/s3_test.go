package runstore

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bomberzero/internal/s3test"
)

// TestAgainstARealS3Server runs the store, the mirror and the lease against
// SeaweedFS's S3 gateway (skipped when weed is not installed;
// scripts/install-weed.sh installs it).
func TestAgainstARealS3Server(t *testing.T) {
	srv := s3test.Start(t)
	srv.Setenv(t)
	ctx := context.Background()
	open := func(t *testing.T, prefix string) *Store {
		s, err := Open(ctx, srv.URL(srv.NewBucket(t), prefix), Options{Retry: Retry{Attempts: 2, First: 10 * time.Millisecond, Max: 10 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}

	t.Run("round trip under a prefix", func(t *testing.T) {
		s := open(t, "runs/a")
		data := bytes.Repeat([]byte("chunk"), 100_000)
		if err := s.Write(ctx, "data/c.parquet", data); err != nil {
			t.Fatal(err)
		}
		got, err := s.Read(ctx, "data/c.parquet", int64(len(data)))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read %d bytes (%v), wrote %d", len(got), err, len(data))
		}
		if _, err := s.Read(ctx, "data/c.parquet", int64(len(data)-1)); !errors.Is(err, ErrTooLarge) {
			t.Errorf("read under the limit: %v, want ErrTooLarge", err)
		}
		objs, err := s.List(ctx, "")
		if err != nil || len(objs) != 1 || objs[0].Key != "data/c.parquet" {
			t.Errorf("list %+v (%v): want the one key, relative to the prefix", objs, err)
		}
		if _, err := s.Read(ctx, "missing", 10); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing key: %v, want ErrNotFound", err)
		}
	})

	t.Run("create is exclusive", func(t *testing.T) {
		s := open(t, "")
		if err := s.Create(ctx, "manifest/x.json", []byte("1")); err != nil {
			t.Fatal(err)
		}
		if err := s.Create(ctx, "manifest/x.json", []byte("2")); !errors.Is(err, ErrExists) {
			t.Errorf("second create: %v, want ErrExists", err)
		}
		if got, _ := s.Read(ctx, "manifest/x.json", 10); string(got) != "1" {
			t.Errorf("object %q after a refused create, want the first", got)
		}
	})

	t.Run("mirror and lease", func(t *testing.T) {
		s := open(t, "run")
		a := &Mirror{Store: s, Dir: t.TempDir(), Last: []string{"state.json"}}
		os.MkdirAll(filepath.Join(a.Dir, "checkpoints"), 0o755)
		os.WriteFile(filepath.Join(a.Dir, "checkpoints", "gen-0001.safetensors"), []byte("w"), 0o644)
		os.WriteFile(filepath.Join(a.Dir, "state.json"), []byte("{}"), 0o644)
		if n, err := a.Push(ctx); err != nil || n != 2 {
			t.Fatalf("push: %d, %v", n, err)
		}
		b := &Mirror{Store: s, Dir: t.TempDir()}
		if n, err := b.Pull(ctx); err != nil || n != 2 {
			t.Fatalf("pull: %d, %v", n, err)
		}
		l, err := AcquireLease(ctx, s, "trainer", "machine-a", 2*time.Second, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := AcquireLease(ctx, s, "trainer", "machine-b", 2*time.Second, 0, nil); !errors.Is(err, ErrLeaseHeld) {
			t.Errorf("second holder: %v, want ErrLeaseHeld", err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		l2, err := AcquireLease(ctx, s, "trainer", "machine-b", 2*time.Second, 0, nil)
		if err != nil {
			t.Fatalf("after the release: %v", err)
		}
		l2.Release(ctx)
	})

	t.Run("wrong secret is refused at once naming the credentials", func(t *testing.T) {
		url := srv.URL(srv.NewBucket(t), "run")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")
		s, err := Open(ctx, url, Options{Retry: DefaultRetry})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		t0 := time.Now()
		_, err = s.Read(ctx, "state.json", 1<<20)
		if err == nil || !strings.Contains(err.Error(), "refused the credentials") || strings.Contains(err.Error(), "not-the-secret") {
			t.Fatalf("error %v, want the credentials refused (and the secret not shown)", err)
		}
		if d := time.Since(t0); d > 10*time.Second {
			t.Errorf("took %s: a refused credential must not be retried for minutes", d)
		}
	})
}
