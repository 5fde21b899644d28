package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"bomberzero/internal/runstore"
)

// storeFlags are the flags of a command that can keep a run in an object
// store (--run URL).
type storeFlags struct {
	cache *string
}

const runHelp = "run: a local directory, or an object-store URL (s3://BUCKET/PREFIX[?endpoint=URL&region=R&use_path_style=true], gs://BUCKET/PREFIX, azblob://CONTAINER/PREFIX, file:///DIR; docs/scaling.md)"

// addStoreFlags defines --cache on fs.
func addStoreFlags(fs *flag.FlagSet) *storeFlags {
	return &storeFlags{
		cache: fs.String("cache", "", "with --run URL: this machine's working folder for the run (default: a folder per URL under the user's cache directory)"),
	}
}

// cacheFor returns the working folder for the run at url: --cache, or
// the user's cache directory (os.UserCacheDir, else the temporary
// directory) under bomberzero/ROLE-HASH, one folder per URL and role.
func (s *storeFlags) cacheFor(url, role string) string {
	if *s.cache != "" {
		return *s.cache
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(base, "bomberzero", role+"-"+hex.EncodeToString(sum[:8]))
}

// checkLocation refuses a --run that looks like a URL but names no store
// Open takes (it would otherwise be taken for a local directory named
// "ftp:").
func checkLocation(location string) error {
	if strings.Contains(location, "://") && !runstore.IsURL(location) {
		return fmt.Errorf("%w: --run %q: not a store this program opens (s3://, gs://, azblob://, file://) nor a directory", errUsage, location)
	}
	return nil
}

// openStore opens the store at url, its retries told on progress.
func openStore(ctx context.Context, url string, progress io.Writer) (*runstore.Store, error) {
	logf := func(format string, args ...any) { fmt.Fprintf(progress, format+"\n", args...) }
	s, err := runstore.Open(ctx, url, runstore.Options{Logf: logf})
	if err != nil {
		return nil, fmt.Errorf("%w: --run: %v", errUsage, err)
	}
	return s, nil
}

// storeHasRun reports whether the store holds a run (its state.json).
func storeHasRun(ctx context.Context, s *runstore.Store) (bool, error) {
	_, err := s.Stat(ctx, "state.json")
	if errors.Is(err, runstore.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
