package s3test_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/feature/s3/transfermanager"
	"github.com/aws/smithy-go"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob"
	"gocloud.dev/gcerrors"

	"bomberzero/internal/s3test"
)

// open opens a gocloud blob URL, closing the bucket when the test ends.
func open(t *testing.T, u string) *blob.Bucket {
	t.Helper()
	b, err := blob.OpenBucket(context.Background(), u)
	if err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close %s: %v", u, err)
		}
	})
	return b
}

// randomBytes returns n bytes from a seeded generator.
func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// put writes data to key, failing the test on an error.
func put(t *testing.T, b *blob.Bucket, key string, data []byte) {
	t.Helper()
	if err := b.WriteAll(context.Background(), key, data, nil); err != nil {
		t.Fatalf("write %s: %v", key, err)
	}
}

// get reads key, failing the test on an error.
func get(t *testing.T, b *blob.Bucket, key string) []byte {
	t.Helper()
	data, err := b.ReadAll(context.Background(), key)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return data
}

// keys lists every key under prefix (no delimiter), in listing order.
func keys(t *testing.T, b *blob.Bucket, prefix string) []string {
	t.Helper()
	var out []string
	it := b.List(&blob.ListOptions{Prefix: prefix})
	for {
		obj, err := it.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("list %q: %v", prefix, err)
		}
		out = append(out, obj.Key)
	}
}

// TestGocloud runs gocloud.dev's s3blob against one weed, each subtest in
// buckets of its own (one weed start instead of one a subtest: weed takes
// about 4 s to start).
func TestGocloud(t *testing.T) {
	s := s3test.Start(t)
	for _, c := range []struct {
		name string
		test func(*testing.T, *s3test.Server)
	}{
		{"RoundTrip", testRoundTrip},
		{"ListPrefix", testListPrefix},
		{"URLForm", testURLForm},
		{"WrongCredentialsRefused", testWrongCredentialsRefused},
		{"EnvIsSelfContained", testEnvIsSelfContained},
		{"EnvInChildProcess", testEnvInChildProcess},
		{"IfNotExist", testIfNotExist},
		{"IfMatch", testIfMatch},
		{"ConditionalWritesRace", testConditionalWritesRace},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, s) })
	}
}

// The sizes cover an empty object, a single PutObject and, past the transfer
// manager's 16 MiB threshold, a multipart upload.
func testRoundTrip(t *testing.T, s *s3test.Server) {
	s.Setenv(t)
	b := open(t, s.BlobURL(s.NewBucket(t), ""))
	ctx := context.Background()
	for i, n := range []int{0, 1, 100 << 10, 17 << 20} {
		key := "run/object-" + strconv.Itoa(n)
		want := randomBytes(n, uint64(i))
		put(t, b, key, want)
		if got := get(t, b, key); !bytes.Equal(got, want) {
			t.Fatalf("%s: read %d bytes that differ from the %d written", key, len(got), len(want))
		}
		attrs, err := b.Attributes(ctx, key)
		if err != nil {
			t.Fatalf("attributes %s: %v", key, err)
		}
		if attrs.Size != int64(n) {
			t.Errorf("%s: size %d, want %d", key, attrs.Size, n)
		}
		if attrs.ETag == "" {
			t.Errorf("%s: no ETag", key)
		}
	}
	// A second write replaces the object.
	put(t, b, "run/object-1", []byte("x"))
	if got := get(t, b, "run/object-1"); string(got) != "x" {
		t.Errorf("after overwrite read %q, want %q", got, "x")
	}

	want := []string{"run/object-0", "run/object-1", "run/object-102400", "run/object-17825792"}
	if got := keys(t, b, ""); !slices.Equal(got, want) {
		t.Fatalf("list: %q, want %q", got, want)
	}
	for _, key := range want {
		if err := b.Delete(ctx, key); err != nil {
			t.Fatalf("delete %s: %v", key, err)
		}
	}
	if got := keys(t, b, ""); len(got) != 0 {
		t.Errorf("after deleting everything the list is %q", got)
	}
	ok, err := b.Exists(ctx, "run/object-1")
	if err != nil || ok {
		t.Errorf("Exists after delete = %v, %v; want false, nil", ok, err)
	}
	if _, err := b.ReadAll(ctx, "run/object-1"); gcerrors.Code(err) != gcerrors.NotFound {
		t.Errorf("read after delete: %v (code %v), want NotFound", err, gcerrors.Code(err))
	}
	if err := b.Delete(ctx, "run/object-1"); gcerrors.Code(err) != gcerrors.NotFound {
		t.Errorf("second delete: %v (code %v), want NotFound", err, gcerrors.Code(err))
	}
}

func testListPrefix(t *testing.T, s *s3test.Server) {
	s.Setenv(t)
	bucket := s.NewBucket(t)
	root := open(t, s.BlobURL(bucket, ""))
	for _, key := range []string{"runs/a/1", "runs/a/2", "runs/ab", "runs/b/1", "other"} {
		put(t, root, key, []byte(key))
	}
	if got, want := keys(t, root, "runs/a/"), []string{"runs/a/1", "runs/a/2"}; !slices.Equal(got, want) {
		t.Errorf("list runs/a/: %q, want %q", got, want)
	}
	if got, want := keys(t, root, "runs/a"), []string{"runs/a/1", "runs/a/2", "runs/ab"}; !slices.Equal(got, want) {
		t.Errorf("list runs/a: %q, want %q", got, want)
	}
	if got := keys(t, root, "nothing/"); len(got) != 0 {
		t.Errorf("list nothing/: %q, want none", got)
	}

	// One level, as a directory listing: keys and "directories".
	var level []string
	it := root.List(&blob.ListOptions{Prefix: "runs/", Delimiter: "/"})
	for {
		obj, err := it.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("list runs/ by /: %v", err)
		}
		if obj.IsDir {
			level = append(level, obj.Key+" (dir)")
		} else {
			level = append(level, obj.Key)
		}
	}
	if want := []string{"runs/a/ (dir)", "runs/ab", "runs/b/ (dir)"}; !slices.Equal(level, want) {
		t.Errorf("list runs/ by /: %q, want %q", level, want)
	}

	// BlobURL's prefix: keys are relative to it, and what it writes lands
	// under it in the bucket.
	run := open(t, s.BlobURL(bucket, "runs/a/"))
	if got, want := keys(t, run, ""), []string{"1", "2"}; !slices.Equal(got, want) {
		t.Errorf("list through BlobURL(%q, runs/a/): %q, want %q", bucket, got, want)
	}
	put(t, run, "3", []byte("three"))
	if got := get(t, root, "runs/a/3"); string(got) != "three" {
		t.Errorf("runs/a/3 read %q, want %q", got, "three")
	}
}

// URL's form is the project's: bucket as host, prefix as path. gocloud
// itself ignores the path, which this test pins so that an upgrade that
// changes it is noticed.
func testURLForm(t *testing.T, s *s3test.Server) {
	s.Setenv(t)
	bucket := s.NewBucket(t)
	raw := s.URL(bucket, "runs/r1")
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("parse URL %q: %v", raw, err)
	}
	q := u.Query()
	if u.Scheme != "s3" || u.Host != bucket || u.Path != "/runs/r1" ||
		q.Get("endpoint") != s.Endpoint || q.Get("region") != s.Region || q.Get("use_path_style") != "true" || len(q) != 3 {
		t.Fatalf("URL(%q, runs/r1) = %q: want s3://%s/runs/r1 with endpoint, region and use_path_style", bucket, raw, bucket)
	}
	if got, want := s.URL(bucket, ""), "s3://"+bucket+"?"+u.RawQuery; got != want {
		t.Errorf("URL(%q, \"\") = %q, want %q", bucket, got, want)
	}

	b := open(t, raw)
	put(t, b, "k", []byte("v"))
	root := open(t, s.BlobURL(bucket, ""))
	if got, want := keys(t, root, ""), []string{"k"}; !slices.Equal(got, want) {
		t.Errorf("gocloud wrote through %q to keys %q, want %q (it ignores the path)", raw, got, want)
	}
}

// refused checks that err is weed's refusal of a request: HTTP 403 with the
// S3 error code want, and the gcerrors code s3blob makes of it. gocloud
// reports SignatureDoesNotMatch and InvalidAccessKeyId as gcerrors.Unknown
// (s3blob maps only AccessDenied and Forbidden to PermissionDenied), so a
// caller that must tell wrong credentials apart looks at the S3 code.
func refused(t *testing.T, what string, err error, want string) {
	t.Helper()
	var apiErr smithy.APIError
	var httpErr *awshttp.ResponseError
	switch {
	case err == nil:
		t.Errorf("%s succeeded", what)
	case !errors.As(err, &apiErr) || apiErr.ErrorCode() != want:
		t.Errorf("%s: %v; want S3 error %s", what, err, want)
	case !errors.As(err, &httpErr) || httpErr.HTTPStatusCode() != 403:
		t.Errorf("%s: %v; want HTTP status 403", what, err)
	case gcerrors.Code(err) != wantCode(want):
		t.Errorf("%s: gocloud code %v, want %v", what, gcerrors.Code(err), wantCode(want))
	}
}

// wantCode is the gcerrors code s3blob gives an S3 error code.
func wantCode(s3code string) gcerrors.ErrorCode {
	if s3code == "AccessDenied" || s3code == "Forbidden" {
		return gcerrors.PermissionDenied
	}
	return gcerrors.Unknown
}

// Requests signed with other keys, or none, are refused.
func testWrongCredentialsRefused(t *testing.T, s *s3test.Server) {
	s.Setenv(t)
	bucket := s.NewBucket(t)
	good := open(t, s.BlobURL(bucket, ""))
	put(t, good, "secret", []byte("data"))

	ctx := context.Background()
	t.Setenv("AWS_SECRET_ACCESS_KEY", s.SecretKey+"x")
	bad := open(t, s.BlobURL(bucket, ""))
	_, err := bad.ReadAll(ctx, "secret")
	refused(t, "read with a wrong secret key", err, "SignatureDoesNotMatch")
	err = bad.WriteAll(ctx, "intruder", []byte("x"), nil)
	refused(t, "write with a wrong secret key", err, "SignatureDoesNotMatch")
	_, err = bad.List(nil).Next(ctx)
	refused(t, "list with a wrong secret key", err, "SignatureDoesNotMatch")
	// gocloud's Delete asks HeadObject first, and a HEAD answer has no body
	// to carry an S3 error code: the SDK names it by its status.
	err = bad.Delete(ctx, "secret")
	refused(t, "delete with a wrong secret key", err, "Forbidden")

	t.Setenv("AWS_SECRET_ACCESS_KEY", s.SecretKey)
	t.Setenv("AWS_ACCESS_KEY_ID", "someone-else")
	other := open(t, s.BlobURL(bucket, ""))
	_, err = other.ReadAll(ctx, "secret")
	refused(t, "read with an unknown access key", err, "InvalidAccessKeyId")
	err = other.WriteAll(ctx, "intruder", []byte("x"), nil)
	refused(t, "write with an unknown access key", err, "InvalidAccessKeyId")

	anon := open(t, s.BlobURL(bucket, "")+"&anonymous=true")
	_, err = anon.ReadAll(ctx, "secret")
	refused(t, "anonymous read", err, "AccessDenied")
	err = anon.WriteAll(ctx, "intruder", []byte("x"), nil)
	refused(t, "anonymous write", err, "AccessDenied")

	if got := keys(t, good, ""); !slices.Equal(got, []string{"secret"}) {
		t.Errorf("after the refused writes and delete the bucket holds %q, want only secret", got)
	}
}

// Env is enough on its own: a broken ~/.aws, a profile that does not exist
// and stray AWS variables in the parent environment do not matter.
func testEnvIsSelfContained(t *testing.T, s *s3test.Server) {
	bucket := s.NewBucket(t)
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".aws"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"config", "credentials"} {
		if err := os.WriteFile(filepath.Join(home, ".aws", f), []byte("[default\nnot ini at all\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("AWS_PROFILE", "does-not-exist")
	t.Setenv("AWS_SESSION_TOKEN", "stale-token")
	t.Setenv("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:1")
	ctx := context.Background()

	// The keys and region alone do not get through all that.
	t.Setenv("AWS_ACCESS_KEY_ID", s.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", s.SecretKey)
	t.Setenv("AWS_REGION", s.Region)
	if b, err := blob.OpenBucket(ctx, s.BlobURL(bucket, "")); err == nil {
		err = b.WriteAll(ctx, "k", []byte("v"), nil)
		b.Close()
		if err == nil {
			t.Fatal("the stray AWS settings made no difference: this test tests nothing")
		}
	}

	s.Setenv(t)
	b := open(t, s.BlobURL(bucket, ""))
	put(t, b, "k", []byte("v"))
	if got := get(t, b, "k"); string(got) != "v" {
		t.Errorf("read %q, want %q", got, "v")
	}
}

// A child process reaches the server with os.Environ() plus Env(), and
// without Env() it does not.
func testEnvInChildProcess(t *testing.T, s *s3test.Server) {
	bucket := s.NewBucket(t)
	u := s.BlobURL(bucket, "")

	child := func(env []string) ([]byte, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildWrites$", "-test.count=1")
		cmd.Env = append(append(os.Environ(), env...), "S3TEST_CHILD_URL="+u)
		return cmd.CombinedOutput()
	}
	noCreds := []string{"AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY=", "AWS_CONFIG_FILE=" + os.DevNull,
		"AWS_SHARED_CREDENTIALS_FILE=" + os.DevNull, "AWS_EC2_METADATA_DISABLED=true", "AWS_REGION=" + s.Region}
	if out, err := child(noCreds); err == nil || !bytes.Contains(out, []byte("credentials")) {
		t.Errorf("child without credentials: %v, want an error about credentials:\n%s", err, out)
	}
	if out, err := child(s.Env()); err != nil {
		t.Fatalf("child with Env(): %v\n%s", err, out)
	}
	s.Setenv(t)
	b := open(t, u)
	if got := get(t, b, "from-child"); string(got) != "hello" {
		t.Errorf("child wrote %q, want %q", got, "hello")
	}
}

// TestChildWrites is testEnvInChildProcess's child: it writes one object to
// $S3TEST_CHILD_URL with nothing but its environment to reach it.
func TestChildWrites(t *testing.T) {
	u := os.Getenv("S3TEST_CHILD_URL")
	if u == "" {
		t.Skip("only run as testEnvInChildProcess's child")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := blob.OpenBucket(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.WriteAll(ctx, "from-child", []byte("hello"), nil); err != nil {
		t.Fatal(err)
	}
}

// An endpoint with nothing behind it fails, and one that never answers
// fails by the context's deadline, not later.
func TestUnreachableEndpoint(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "k")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "s")
	t.Setenv("AWS_CONFIG_FILE", os.DevNull)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")

	// Refused: a port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	// Silent: a listener that never accepts, so connections sit in its
	// backlog and requests get no answer.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()

	for _, c := range []struct {
		name, endpoint string
	}{{"refused", closed}, {"silent", "http://" + silent.Addr().String()}} {
		t.Run(c.name, func(t *testing.T) {
			q := url.Values{"endpoint": {c.endpoint}, "region": {"us-east-1"}, "use_path_style": {"true"}}
			b := open(t, "s3://bucket?"+q.Encode())
			const limit = 3 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			start := time.Now()
			err := b.WriteAll(ctx, "k", []byte("v"), nil)
			took := time.Since(start)
			if err == nil {
				t.Fatalf("write to %s succeeded", c.endpoint)
			}
			if took > limit+time.Second {
				t.Errorf("write to %s failed after %v, past the %v deadline: %v", c.endpoint, took, limit, err)
			}
			if _, err := b.ReadAll(ctx, "k"); err == nil {
				t.Errorf("read from %s succeeded", c.endpoint)
			}
			t.Logf("%s: %v after %v", c.endpoint, err, took.Round(time.Millisecond))
		})
	}
}

// IfNotExist creates a key only when it is new, for a single PutObject and a
// multipart upload alike; on an existing key gocloud reports
// FailedPrecondition and the object is unchanged.
func testIfNotExist(t *testing.T, s *s3test.Server) {
	s.Setenv(t)
	b := open(t, s.BlobURL(s.NewBucket(t), ""))
	ctx := context.Background()
	create := &blob.WriterOptions{IfNotExist: true}
	for _, n := range []int{5, 17 << 20} {
		key := "lock-" + strconv.Itoa(n)
		first, second := randomBytes(n, 1), randomBytes(n, 2)
		if err := b.WriteAll(ctx, key, first, create); err != nil {
			t.Fatalf("IfNotExist write of new %s: %v", key, err)
		}
		err := b.WriteAll(ctx, key, second, create)
		if err == nil {
			t.Fatalf("IfNotExist write of existing %s (%d bytes) succeeded", key, n)
		}
		if gcerrors.Code(err) != gcerrors.FailedPrecondition {
			t.Errorf("IfNotExist write of existing %s: %v (code %v), want FailedPrecondition", key, err, gcerrors.Code(err))
		}
		if got := get(t, b, key); !bytes.Equal(got, first) {
			t.Errorf("%s changed by the refused write", key)
		}
	}
}

// ifMatch returns writer options that make the write conditional on the
// object's current ETag being etag (S3's If-Match on PutObject and
// CompleteMultipartUpload).
func ifMatch(etag string) *blob.WriterOptions {
	return &blob.WriterOptions{BeforeWrite: func(as func(any) bool) error {
		var in *transfermanager.UploadObjectInput
		if !as(&in) {
			return errors.New("BeforeWrite: not an s3blob writer")
		}
		in.IfMatch = aws.String(etag)
		return nil
	}}
}

// An If-Match write (set through BeforeWrite) replaces the object when its
// ETag matches and fails with FailedPrecondition when it does not.
func testIfMatch(t *testing.T, s *s3test.Server) {
	s.Setenv(t)
	b := open(t, s.BlobURL(s.NewBucket(t), ""))
	ctx := context.Background()
	etag := func(key string) string {
		t.Helper()
		a, err := b.Attributes(ctx, key)
		if err != nil {
			t.Fatalf("attributes %s: %v", key, err)
		}
		return a.ETag
	}
	for _, n := range []int{5, 17 << 20} {
		key := "state-" + strconv.Itoa(n)
		v1, v2, v3 := randomBytes(n, 1), randomBytes(n, 2), randomBytes(n, 3)
		put(t, b, key, v1)
		tag1 := etag(key)
		if err := b.WriteAll(ctx, key, v2, ifMatch(tag1)); err != nil {
			t.Fatalf("If-Match write of %s with its current ETag: %v", key, err)
		}
		if got := get(t, b, key); !bytes.Equal(got, v2) {
			t.Fatalf("%s: the If-Match write with the current ETag did not replace it", key)
		}
		err := b.WriteAll(ctx, key, v3, ifMatch(tag1))
		if err == nil {
			t.Fatalf("If-Match write of %s (%d bytes) with a stale ETag succeeded", key, n)
		}
		if gcerrors.Code(err) != gcerrors.FailedPrecondition {
			t.Errorf("If-Match write of %s with a stale ETag: %v (code %v), want FailedPrecondition", key, err, gcerrors.Code(err))
		}
		if got := get(t, b, key); !bytes.Equal(got, v2) {
			t.Errorf("%s changed by the refused If-Match write", key)
		}
		if err := b.WriteAll(ctx, "absent-"+key, v1, ifMatch(tag1)); gcerrors.Code(err) != gcerrors.NotFound {
			t.Errorf("If-Match write of a key that does not exist: %v (code %v), want NotFound", err, gcerrors.Code(err))
		}
	}
}

// race has writers write data(i) to key at once with opts(i) and checks that
// exactly one of them succeeds, the others failing with FailedPrecondition,
// and that the key then holds the winner's data.
func race(t *testing.T, b *blob.Bucket, key string, writers int, data func(int) []byte, opts func(int) *blob.WriterOptions) {
	t.Helper()
	ctx := context.Background()
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() { errs[i] = b.WriteAll(ctx, key, data(i), opts(i)) })
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("%s: writers %d and %d both succeeded", key, winner, i)
		case err == nil:
			winner = i
		case gcerrors.Code(err) != gcerrors.FailedPrecondition:
			t.Errorf("%s: writer %d: %v (code %v), want FailedPrecondition", key, i, err, gcerrors.Code(err))
		}
	}
	if winner < 0 {
		t.Fatalf("%s: none of %d writers succeeded", key, writers)
	}
	if got := get(t, b, key); !bytes.Equal(got, data(winner)) {
		t.Errorf("%s does not hold the data of writer %d, the one that succeeded", key, winner)
	}
}

// Conditional writes are atomic: of writers racing to create a key, or to
// replace the same version of it, exactly one wins.
func testConditionalWritesRace(t *testing.T, s *s3test.Server) {
	s.Setenv(t)
	b := open(t, s.BlobURL(s.NewBucket(t), ""))
	// weed serialises conditional writes to a key with a lock that waiters
	// poll about once a second, so each writer more costs about a second.
	const writers = 4
	for _, n := range []int{64 << 10} {
		key := "claim-" + strconv.Itoa(n)
		data := func(i int) []byte { return randomBytes(n, uint64(i)) }
		race(t, b, key, writers, data, func(int) *blob.WriterOptions { return &blob.WriterOptions{IfNotExist: true} })

		a, err := b.Attributes(context.Background(), key)
		if err != nil {
			t.Fatalf("attributes %s: %v", key, err)
		}
		next := func(i int) []byte { return randomBytes(n, uint64(writers+i)) }
		race(t, b, key, writers, next, func(int) *blob.WriterOptions { return ifMatch(a.ETag) })
	}
}

// weedProcesses lists the PIDs of the processes started with S3 port port;
// ok is false where there is no /proc to look in.
func weedProcesses(port string) (pids []string, ok bool) {
	files, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil || len(files) == 0 {
		return nil, false
	}
	for _, f := range files {
		cmdline, err := os.ReadFile(f)
		if err != nil {
			continue // the process ended meanwhile
		}
		if bytes.Contains(cmdline, []byte("\x00-s3.port="+port+"\x00")) {
			pids = append(pids, filepath.Base(filepath.Dir(f)))
		}
	}
	return pids, true
}

// unixSockets returns the paths of the Unix sockets process pid has open,
// matched through their inodes in /proc/net/unix.
func unixSockets(t *testing.T, pid string) []string {
	t.Helper()
	fds, err := filepath.Glob("/proc/" + pid + "/fd/*")
	if err != nil {
		t.Fatal(err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && strings.HasPrefix(target, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(target, "socket:["), "]")] = true
		}
	}
	table, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, line := range strings.Split(string(table), "\n")[1:] {
		// Num RefCount Protocol Flags Type St Inode [Path]
		f := strings.Fields(line)
		if len(f) == 8 && inodes[f[6]] && !slices.Contains(paths, f[7]) {
			paths = append(paths, f[7])
		}
	}
	return paths
}

// Start leaves nothing behind: after the test's cleanup weed's process is
// gone, its S3 port refuses connections and the sockets it made in /tmp
// are removed.
func TestStopLeavesNothing(t *testing.T) {
	var s *s3test.Server
	var port string
	var sockets []string
	t.Run("server", func(t *testing.T) {
		s = s3test.Start(t)
		s.NewBucket(t)
		_, port, _ = net.SplitHostPort(strings.TrimPrefix(s.Endpoint, "http://"))
		pids, ok := weedProcesses(port)
		if !ok {
			t.Skip("no /proc to look at processes in")
		}
		if len(pids) != 1 {
			t.Fatalf("while it runs, %d processes have S3 port %s, want 1 (weed): %q", len(pids), port, pids)
		}
		for _, p := range unixSockets(t, pids[0]) {
			if strings.HasPrefix(p, "/tmp/seaweedfs-") {
				sockets = append(sockets, p)
			}
		}
		if len(sockets) == 0 {
			t.Errorf("weed has no sockets /tmp/seaweedfs-*: the check below checks nothing")
		}
	})
	if s == nil || t.Failed() || t.Skipped() {
		return
	}
	host := strings.TrimPrefix(s.Endpoint, "http://")
	if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after cleanup", host)
	}
	if pids, _ := weedProcesses(port); len(pids) != 0 {
		t.Errorf("after cleanup these still run with S3 port %s: %q", port, pids)
	}
	for _, sock := range sockets {
		if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("weed's socket %s is left behind (%v)", sock, err)
		}
	}
}

// fakeTB is a testing.TB whose Fatal and Skip end only the goroutine that
// calls them, recording why, so that Start's failures can be tested.
type fakeTB struct {
	testing.TB
	fatal, skip string
}

func (f *fakeTB) Fatal(args ...any) { f.fatal = fmt.Sprint(args...); runtime.Goexit() }
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fakeTB) Skip(args ...any) { f.skip = fmt.Sprint(args...); runtime.Goexit() }
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skip = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// start runs s3test.Start(f) in a goroutine of its own and waits for it.
func (f *fakeTB) start() *s3test.Server {
	var s *s3test.Server
	done := make(chan struct{})
	go func() {
		defer close(done)
		s = s3test.Start(f)
	}()
	<-done
	return s
}

// Without weed, Start skips the test and names the install script.
func TestStartSkipsWithoutWeed(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", empty)
	f := &fakeTB{TB: t}
	if s := f.start(); s != nil || !strings.Contains(f.skip, "scripts/install-weed.sh") {
		t.Errorf("Start without weed: server %v, skip %q, fatal %q; want a skip naming scripts/install-weed.sh", s, f.skip, f.fatal)
	}
}

// When weed exits before it serves, Start fails at once with its log.
func TestStartReportsWeedExiting(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho 'weed: cannot start: some reason' >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(dir, "weed"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	f := &fakeTB{TB: t}
	begin := time.Now()
	s := f.start()
	if s != nil || f.skip != "" {
		t.Fatalf("Start with a weed that exits: server %v, skip %q", s, f.skip)
	}
	for _, want := range []string{"weed exited", "exit status 3", "cannot start: some reason"} {
		if !strings.Contains(f.fatal, want) {
			t.Errorf("Start's failure %q does not say %q", f.fatal, want)
		}
	}
	if took := time.Since(begin); took > 10*time.Second {
		t.Errorf("Start took %v to notice weed had exited", took)
	}
}
