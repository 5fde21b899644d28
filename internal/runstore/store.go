// Package runstore keeps a run's files in an object store behind a URL:
// s3://BUCKET/PREFIX (AWS S3 and any S3-compatible store), gs://BUCKET/PREFIX,
// azblob://CONTAINER/PREFIX, file:///DIR (a local folder through the same
// code path) and mem:// (in memory, for tests), all opened through one
// library, gocloud.dev/blob.
//
// An object store has no rename, so nothing here relies on one: objects get
// unique names, a name that must be written once is created with a
// conditional write (Create), and a reader is bounded and verifies what it
// reads (Read's limit, the checksums of the formats stored). Calls that fail
// for a passing reason (a refused connection, a 5xx answer, a throttled
// request) are retried with exponential backoff, each retry logged; calls
// that fail for good (no such object, access denied, a bad URL) return at
// once with an error naming the URL and the key.
package runstore

import (
	"bytes"
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/aws/smithy-go"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/fileblob"  // file://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	_ "gocloud.dev/blob/memblob"   // mem://
	_ "gocloud.dev/blob/s3blob"    // s3://
	"gocloud.dev/gcerrors"

	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// Schemes are the URL schemes Open takes.
var schemes = []string{"s3", "gs", "azblob", "file", "mem"}

// IsURL reports whether location names an object store (a URL with one of
// the schemes Open takes) rather than a local directory.
func IsURL(location string) bool {
	scheme, _, ok := strings.Cut(location, "://")
	if !ok {
		return false
	}
	for _, s := range schemes {
		if scheme == s {
			return true
		}
	}
	return false
}

// Errors a Store returns, to test with errors.Is.
var (
	// ErrNotFound: no object has that key.
	ErrNotFound = errors.New("no such object")
	// ErrExists: Create found an object with that key already.
	ErrExists = errors.New("object exists already")
	// ErrTooLarge: the object is larger than the reader's limit.
	ErrTooLarge = errors.New("object larger than the limit")
)

// Retry is how a Store retries a call that failed for a passing reason.
type Retry struct {
	// Attempts is the most tries of one call (at least 1).
	Attempts int
	// First is the wait after the first failure; each later wait doubles,
	// up to Max, with up to a quarter added at random.
	First, Max time.Duration
	// Notice is how often, while a call keeps failing, a line says the
	// store is still being waited for (zero: DefaultNotice). The first
	// line comes when the waiting starts.
	Notice time.Duration
}

// DefaultNotice is how often a Store waiting out an outage says so.
const DefaultNotice = 30 * time.Second

// DefaultRetry retries a call for about two minutes in all before it gives
// up: long enough to ride out a restarting server, short enough that a
// wrong endpoint is reported while someone still watches.
var DefaultRetry = Retry{Attempts: 8, First: 500 * time.Millisecond, Max: 30 * time.Second}

// Store is the objects under one prefix of one bucket. It is safe for
// concurrent use.
type Store struct {
	url    string // the location as given, for messages
	bucket *blob.Bucket
	// dir is a file:// store's folder: Create links there itself, since
	// fileblob's IfNotExist checks and renames in two steps (two writers
	// can both win).
	dir   string
	retry Retry
	logf  func(format string, args ...any)
}

// Options configure Open.
type Options struct {
	// Retry is the retry policy (zero: DefaultRetry).
	Retry Retry
	// Logf receives one line per retry (nil: the lines are dropped).
	Logf func(format string, args ...any)
}

// Open opens the store at location: SCHEME://BUCKET/PREFIX?PARAMS. PARAMS
// are the driver's (for s3://: endpoint, region, use_path_style,
// disable_https, ...); credentials come from each cloud's usual environment
// (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; GOOGLE_APPLICATION_CREDENTIALS;
// AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY). For file:///DIR the folder
// is created if missing.
func Open(ctx context.Context, location string, opt Options) (*Store, error) {
	bucketURL, prefix, err := splitLocation(location)
	if err != nil {
		return nil, err
	}
	b, err := blob.OpenBucket(ctx, bucketURL)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", redact(location), err)
	}
	if prefix != "" {
		b = blob.PrefixedBucket(b, prefix)
	}
	s := &Store{url: redact(location), bucket: b, retry: opt.Retry, logf: opt.Logf}
	if u, err := url.Parse(bucketURL); err == nil && u.Scheme == "file" {
		s.dir = filepath.FromSlash(u.Path)
	}
	if s.retry.Attempts < 1 {
		s.retry = DefaultRetry
	}
	return s, nil
}

// splitLocation turns SCHEME://BUCKET/PREFIX?PARAMS into the URL gocloud
// opens (SCHEME://BUCKET?PARAMS) and the key prefix ("PREFIX/", or "").
// For file:// the whole path is the bucket (a folder), and mem:// has no
// bucket name.
func splitLocation(location string) (bucketURL, prefix string, err error) {
	u, err := url.Parse(location)
	if err != nil {
		return "", "", fmt.Errorf("run location %q: %w", redact(location), err)
	}
	if !IsURL(location) {
		return "", "", fmt.Errorf("run location %q: scheme %q, want one of %s", redact(location), u.Scheme, strings.Join(schemes, ", "))
	}
	if u.User != nil {
		return "", "", fmt.Errorf("run location %q: credentials in the URL are refused; give them in the environment", redact(location))
	}
	q := u.Query()
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return "", "", fmt.Errorf("run location %q: a file:// URL names a local folder (file:///path), not host %q", location, u.Host)
		}
		if u.Path == "" || u.Path == "/" {
			return "", "", fmt.Errorf("run location %q: no folder given", location)
		}
		q.Set("create_dir", "true")
		q.Set("metadata", "skip")
		return (&url.URL{Scheme: "file", Path: u.Path, RawQuery: q.Encode()}).String(), "", nil
	case "mem":
		prefix = strings.Trim(u.Host+u.Path, "/")
		return "mem://", withSlash(prefix), nil
	}
	if u.Host == "" {
		return "", "", fmt.Errorf("run location %q: no bucket named (want %s://BUCKET/PREFIX)", redact(location), u.Scheme)
	}
	prefix = strings.Trim(u.Path, "/")
	if prefix != "" && (prefix != path.Clean(prefix) || strings.HasPrefix(prefix, "..")) {
		return "", "", fmt.Errorf("run location %q: prefix %q is not a clean path", redact(location), prefix)
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, RawQuery: q.Encode()}).String(), withSlash(prefix), nil
}

func withSlash(p string) string {
	if p == "" {
		return ""
	}
	return p + "/"
}

// redact drops what could be a secret from a location for messages: the
// user information and every query parameter but a few harmless ones.
func redact(location string) string {
	u, err := url.Parse(location)
	if err != nil {
		return location
	}
	u.User = nil
	q := u.Query()
	for k := range q {
		switch k {
		case "endpoint", "region", "use_path_style", "disable_https", "create_dir", "metadata":
		default:
			q.Set(k, "REDACTED")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// String returns the store's location (without secrets).
func (s *Store) String() string { return s.url }

// Close releases the store's connections.
func (s *Store) Close() error { return s.bucket.Close() }

// Object is one object of a listing.
type Object struct {
	Key     string // relative to the store's prefix
	Size    int64
	ModTime time.Time // the store's clock
}

// Read returns the object at key, which must be at most limit bytes.
func (s *Store) Read(ctx context.Context, key string, limit int64) ([]byte, error) {
	var data []byte
	err := s.do(ctx, "read", key, func() error {
		r, err := s.bucket.NewReader(ctx, key, nil)
		if err != nil {
			return err
		}
		defer r.Close()
		if r.Size() > limit {
			return fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, r.Size(), limit)
		}
		data, err = io.ReadAll(io.LimitReader(r, limit+1))
		if err != nil {
			return err
		}
		if int64(len(data)) > limit {
			return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
		}
		return nil
	})
	return data, err
}

// Write stores data at key, replacing what was there. The store checks
// the bytes it received against their MD5.
func (s *Store) Write(ctx context.Context, key string, data []byte) error {
	return s.write(ctx, "write", key, data, false)
}

// Create stores data at key only if no object has that key; otherwise it
// returns an error that errors.Is ErrExists, and the object stays as it
// was. Of several writers creating one key at once, one succeeds.
func (s *Store) Create(ctx context.Context, key string, data []byte) error {
	if s.dir != "" {
		return s.createLocal(key, data)
	}
	return s.write(ctx, "create", key, data, true)
}

// createTempPrefix begins the name of createLocal's temporary file, which
// List leaves out: fileblob lists every file under the folder, and a
// reader must never see a half-made object under a name of its own. The
// name ends in createTempSuffix, fileblob's extension for its own
// metadata files, which its listing skips before it even stats them (a
// temporary file removed between the folder read and the stat would
// otherwise fail the listing).
const (
	createTempPrefix = ".create-"
	createTempSuffix = ".attrs"
)

// createLocal is Create for a file:// store: the data go to a temporary
// file beside the target, which is then hard-linked to the target's name,
// an atomic step that fails if the name exists.
func (s *Store) createLocal(key string, data []byte) error {
	if !cleanKey(key) {
		return fmt.Errorf("%s: create %s: not a clean key", s.url, key)
	}
	path := filepath.Join(s.dir, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("%s: create %s: %w", s.url, key, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), createTempPrefix+"*"+createTempSuffix)
	if err != nil {
		return fmt.Errorf("%s: create %s: %w", s.url, key, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Link(tmp.Name(), path)
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s: create %s: %w", s.url, key, ErrExists)
	case err != nil:
		return fmt.Errorf("%s: create %s: %w", s.url, key, err)
	}
	return nil
}

func (s *Store) write(ctx context.Context, op, key string, data []byte, ifNotExist bool) error {
	sum := md5.Sum(data)
	return s.do(ctx, op, key, func() error {
		w, err := s.bucket.NewWriter(ctx, key, &blob.WriterOptions{
			ContentMD5: sum[:], IfNotExist: ifNotExist, ContentType: "application/octet-stream",
		})
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, bytes.NewReader(data)); err != nil {
			w.Close()
			return err
		}
		return w.Close()
	})
}

// Delete removes the object at key; a missing object is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	err := s.do(ctx, "delete", key, func() error { return s.bucket.Delete(ctx, key) })
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// Stat returns the size and modification time of the object at key.
func (s *Store) Stat(ctx context.Context, key string) (Object, error) {
	var o Object
	err := s.do(ctx, "stat", key, func() error {
		a, err := s.bucket.Attributes(ctx, key)
		if err != nil {
			return err
		}
		o = Object{Key: key, Size: a.Size, ModTime: a.ModTime}
		return nil
	})
	return o, err
}

// List returns every object whose key starts with prefix, in key order.
func (s *Store) List(ctx context.Context, prefix string) ([]Object, error) {
	var out []Object
	err := s.do(ctx, "list", prefix+"*", func() error {
		out = out[:0]
		it := s.bucket.List(&blob.ListOptions{Prefix: prefix})
		for {
			o, err := it.Next(ctx)
			if err == io.EOF {
				return nil
			}
			if err != nil && s.dir != "" && gcerrors.Code(err) == gcerrors.NotFound {
				// A file removed while fileblob walked the folder (an object
				// deleted meanwhile): the listing is retried, not failed.
				return fmt.Errorf("a file vanished while the folder was listed: %v", err)
			}
			if err != nil {
				return err
			}
			if o.IsDir || s.dir != "" && strings.HasPrefix(path.Base(o.Key), createTempPrefix) {
				continue
			}
			out = append(out, Object{Key: o.Key, Size: o.Size, ModTime: o.ModTime})
		}
	})
	return out, err
}

// Download copies the object at key (at most limit bytes) to the local file
// dst, atomically (package atomicfile).
func (s *Store) Download(ctx context.Context, key, dst string, limit int64) error {
	data, err := s.Read(ctx, key, limit)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(dst, data); err != nil {
		return fmt.Errorf("%s: %s to %s: %w", s.url, key, dst, err)
	}
	return nil
}

// Upload stores the local file src (at most limit bytes) at key.
func (s *Store) Upload(ctx context.Context, src, key string, limit int64) error {
	data, err := readfile.Regular(src, limit)
	if err != nil {
		return err
	}
	return s.Write(ctx, key, data)
}

// Now returns the store's clock: the modification time of an object it
// writes now (under .clock/, then removed). Leases compare the store's
// times with it, so that machines with skewed clocks agree.
func (s *Store) Now(ctx context.Context) (time.Time, error) {
	key := fmt.Sprintf(".clock/%016x", rand.Uint64())
	if err := s.Write(ctx, key, nil); err != nil {
		return time.Time{}, err
	}
	o, err := s.Stat(ctx, key)
	s.Delete(ctx, key)
	if err != nil {
		return time.Time{}, err
	}
	return o.ModTime, nil
}

// do runs call, retrying it while it fails for a passing reason, and
// returns its error in the package's terms, naming the store and key.
func (s *Store) do(ctx context.Context, op, key string, call func() error) error {
	wait := s.retry.First
	notice := s.retry.Notice
	if notice <= 0 {
		notice = DefaultNotice
	}
	var stop func() // ends the outage's notices
	defer func() {
		if stop != nil {
			stop()
		}
	}()
	for attempt := 1; ; attempt++ {
		err := call()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %s %s: %w", s.url, op, key, ctx.Err())
		}
		err = classify(err)
		if !transient(err) || attempt >= s.retry.Attempts {
			if transient(err) {
				return fmt.Errorf("%s: %s %s: giving up after %d attempts: %w", s.url, op, key, attempt, err)
			}
			return fmt.Errorf("%s: %s %s: %w", s.url, op, key, err)
		}
		d := wait + time.Duration(rand.Int64N(int64(wait/4)+1))
		if stop == nil {
			// The outage starts: say so at once, then every notice
			// until the call succeeds or gives up (a hanging try too).
			s.log("runstore: %s: %s %s: %v; waiting for the store: retry %d of %d in %s", s.url, op, key, err, attempt, s.retry.Attempts-1, d.Round(time.Millisecond))
			stop = s.noticeEvery(notice, op, key)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %s %s: %w", s.url, op, key, ctx.Err())
		case <-time.After(d):
		}
		wait = min(2*wait, s.retry.Max)
	}
}

// log writes a line on the store's Logf, if it has one.
func (s *Store) log(format string, args ...any) {
	if s.logf != nil {
		s.logf(format, args...)
	}
}

// noticeEvery writes a line every notice saying how long op on key has
// waited for the store, until the returned stop is called (it returns once
// no more lines can come).
func (s *Store) noticeEvery(notice time.Duration, op, key string) (stop func()) {
	since := time.Now()
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(notice)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				s.log("runstore: %s: %s %s: still waiting for the store after %s", s.url, op, key, now.Sub(since).Round(time.Second))
			}
		}
	}()
	return func() { close(done); <-exited }
}

// classify maps a driver error to the package's errors, keeping its text.
func classify(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "SignatureDoesNotMatch", "InvalidAccessKeyId", "AccessDenied", "ExpiredToken", "InvalidToken",
			"TokenRefreshRequired", "InvalidClientTokenId", "UnrecognizedClientException":
			// S3 refusals of the credentials themselves, which gocloud
			// reports as Unknown: retrying cannot mend them.
			return fmt.Errorf("%w: the store refused the credentials (%s): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment, and that they have not expired",
				errPermanent{err}, api.ErrorCode())
		case "NoSuchBucket":
			return fmt.Errorf("%w: no such bucket", errPermanent{err})
		}
	}
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		return fmt.Errorf("%w (%v)", ErrNotFound, err)
	case gcerrors.FailedPrecondition, gcerrors.AlreadyExists:
		return fmt.Errorf("%w (%v)", ErrExists, err)
	case gcerrors.PermissionDenied:
		return fmt.Errorf("%w: access denied: check the credentials in the environment (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for s3://)", errPermanent{err})
	case gcerrors.InvalidArgument, gcerrors.Unimplemented:
		return errPermanent{err}
	}
	return err
}

// errPermanent marks an error that retrying cannot mend.
type errPermanent struct{ error }

func (e errPermanent) Unwrap() error { return e.error }

// transient reports whether a classified error may pass on a retry.
func transient(err error) bool {
	var p errPermanent
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrExists) || errors.Is(err, ErrTooLarge) || errors.As(err, &p) {
		return false
	}
	switch gcerrors.Code(err) {
	case gcerrors.Canceled:
		return false
	}
	return true
}
