// Package s3test starts a real S3-compatible server, SeaweedFS's weed, on
// loopback for one test, so that the object-storage code is tested against
// an S3 implementation rather than an in-process fake.
//
// weed is installed by scripts/install-weed.sh; without it Start skips the
// test. Each Start runs its own weed: "weed mini", the all-in-one master,
// volume server, filer and S3 gateway (about 4 s to start, against about 13 s
// before "weed server -s3" takes its first write), with a fresh data
// directory, every port chosen free on 127.0.0.1, and one S3 identity whose
// keys are the only ones it accepts; t.Cleanup stops it.
package s3test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"go/build"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// StartTimeout bounds how long Start waits for weed's S3 endpoint to answer.
const StartTimeout = 60 * time.Second

// stopTimeout bounds how long Cleanup waits for weed to exit after SIGKILL.
const stopTimeout = 10 * time.Second

// Server is a SeaweedFS S3 gateway running on loopback for one test.
type Server struct {
	Endpoint  string // http://127.0.0.1:PORT
	Region    string // e.g. "us-east-1"
	AccessKey string
	SecretKey string

	client  *s3.Client   // signed with AccessKey/SecretKey, for NewBucket
	buckets atomic.Int64 // buckets made by NewBucket, for unique names
	logPath string       // weed's combined stdout and stderr
}

// Path finds the weed binary: on PATH, else in $GOBIN, else in the bin
// directory of each GOPATH entry (where scripts/install-weed.sh puts it). It
// returns an error naming the install script when there is none.
func Path() (string, error) {
	if p, err := exec.LookPath("weed"); err == nil {
		return p, nil
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH // $HOME/go
	}
	for _, dir := range filepath.SplitList(gopath) {
		dirs = append(dirs, filepath.Join(dir, "bin"))
	}
	for _, dir := range dirs {
		p := filepath.Join(dir, "weed")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("weed (SeaweedFS) not found on PATH nor in %s: run scripts/install-weed.sh", strings.Join(dirs, ", "))
}

// Start starts weed with a fresh data directory (t.TempDir) on free loopback
// ports, with an S3 identity (AccessKey/SecretKey) so that requests with
// other credentials are refused, waits until its S3 endpoint answers a
// signed request (at most StartTimeout, then t.Fatal with the tail of weed's
// log), and stops it (its whole process group) in t.Cleanup. It calls t.Skip,
// naming scripts/install-weed.sh, when weed is not installed.
func Start(t testing.TB) *Server {
	t.Helper()
	weed, err := Path()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	// Unix socket paths are limited to 107 bytes and t.TempDir's path holds
	// the test's name, so weed's local sockets get a short directory.
	sockDir, err := os.MkdirTemp("", "s3test")
	if err != nil {
		t.Fatalf("s3test: socket directory: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })

	s := &Server{
		Region:    "us-east-1",
		AccessKey: "s3test-" + randomHex(8),
		SecretKey: randomHex(20),
		logPath:   filepath.Join(dir, "weed.log"),
	}
	identities := filepath.Join(dir, "s3.json")
	if err := os.WriteFile(identities, identityConfig(s.AccessKey, s.SecretKey), 0o600); err != nil {
		t.Fatalf("s3test: write S3 identities: %v", err)
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatalf("s3test: data directory: %v", err)
	}
	ports, err := freePorts(10)
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	s.Endpoint = "http://127.0.0.1:" + strconv.Itoa(ports[0])
	args := []string{
		"-logtostderr", // glog would otherwise write files into os.TempDir
		"mini",
		"-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-dir=" + data,
		"-s3.port=" + strconv.Itoa(ports[0]),
		"-s3.port.grpc=" + strconv.Itoa(ports[1]),
		"-s3.port.iceberg=0", "-s3.port.lance=0",
		"-s3.config=" + identities,
		"-s3.autoCreateBucket=false", // a write to a missing bucket fails, as on S3
		"-s3.localSocket=" + filepath.Join(sockDir, "s3.sock"),
		"-master.port=" + strconv.Itoa(ports[2]),
		"-master.port.grpc=" + strconv.Itoa(ports[3]),
		"-master.peers=none",           // one master: no raft bootstrap wait
		"-master.volumeSizeLimitMB=64", // mini's smallest; files grow as written
		"-master.telemetry=false",
		"-volume.port=" + strconv.Itoa(ports[4]),
		"-volume.port.grpc=" + strconv.Itoa(ports[5]),
		"-volume.preStopSeconds=0",
		"-filer.port=" + strconv.Itoa(ports[6]),
		"-filer.port.grpc=" + strconv.Itoa(ports[7]),
		"-filer.localSocket=" + filepath.Join(sockDir, "filer.sock"),
		"-webdav=false", "-admin.ui=false", // mini's admin server still runs
		"-admin.port=" + strconv.Itoa(ports[8]),
		"-admin.port.grpc=" + strconv.Itoa(ports[9]),
		"-admin.port.legacy=0",
	}
	// weed puts a Unix socket for each gRPC service at a fixed place in /tmp,
	// named after its port; stop removes them.
	var grpcSockets []string
	for _, svc := range []struct {
		name string
		port int
	}{{"s3", ports[1]}, {"master", ports[3]}, {"volume", ports[5]}, {"filer", ports[7]}, {"admin", ports[9]}} {
		grpcSockets = append(grpcSockets, fmt.Sprintf("/tmp/seaweedfs-%s-grpc-%d.sock", svc.name, svc.port))
	}
	logFile, err := os.Create(s.logPath)
	if err != nil {
		t.Fatalf("s3test: weed log: %v", err)
	}
	cmd := exec.Command(weed, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = append(os.Environ(),
		// One volume per bucket (each bucket is a collection) instead of seven.
		"WEED_MASTER_VOLUME_GROWTH_COPY_1=1",
		// No ~/.seaweedfs/*.toml of the user's (weed also reads "." and
		// /etc/seaweedfs; "." is dir).
		"HOME="+dir,
		// Keep weed's heap small on shared machines (a soft limit).
		"GOMEMLIMIT=256MiB",
	)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("s3test: start %s: %v", weed, err)
	}
	w := &waiter{done: make(chan struct{})}
	go func() {
		w.err = cmd.Wait()
		close(w.done)
	}()
	t.Cleanup(func() {
		defer logFile.Close()
		if err := stop(cmd.Process.Pid, w, grpcSockets); err != nil {
			t.Errorf("s3test: stop weed: %v\n%s", err, s.LogTail())
		}
	})

	s.client = s3.New(s3.Options{
		BaseEndpoint: aws.String(s.Endpoint),
		Region:       s.Region,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
		UsePathStyle: true,
	})
	if err := s.waitReady(w, begin.Add(StartTimeout)); err != nil {
		t.Fatalf("s3test: weed at %s: %v\nweed log (tail):\n%s", s.Endpoint, err, s.LogTail())
	}
	t.Logf("s3test: weed S3 at %s ready in %v (log %s)", s.Endpoint, time.Since(begin).Round(time.Millisecond), s.logPath)
	return s
}

// waiter is the end of the weed process: done is closed when it has exited,
// and err is then cmd.Wait's result.
type waiter struct {
	done chan struct{}
	err  error
}

// waitReady polls weed with a signed ListBuckets until it succeeds, weed
// exits, or deadline passes.
func (s *Server) waitReady(w *waiter, deadline time.Time) error {
	var last error
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := s.client.ListBuckets(ctx, &s3.ListBucketsInput{}, func(o *s3.Options) {
			o.RetryMaxAttempts = 1 // this loop is the retry
		})
		cancel()
		if err == nil {
			return nil
		}
		last = err
		select {
		case <-w.done:
			return fmt.Errorf("weed exited before its S3 endpoint answered: %v", w.err)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within %v; last error: %w", StartTimeout, last)
		}
	}
}

// stop kills weed's process group and waits for weed to exit, then removes
// the gRPC sockets weed made in /tmp. It kills rather than asks: a test's data is thrown away anyway, weed
// mini takes a second or two over a SIGTERM, and "weed server" (4.53) never
// finishes one (its filer waits forever to flush to the volume server that
// stopped before it).
func stop(pid int, w *waiter, grpcSockets []string) error {
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("kill process group %d: %w", pid, err)
	}
	select {
	case <-w.done:
	case <-time.After(stopTimeout):
		return fmt.Errorf("process %d still runs %v after SIGKILL", pid, stopTimeout)
	}
	var errs []error
	for _, sock := range grpcSockets {
		if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove weed's socket: %w", err))
		}
	}
	return errors.Join(errs...)
}

// NewBucket creates a new, empty bucket with a unique name and returns the
// name.
func (s *Server) NewBucket(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("s3test-%d-%s", s.buckets.Add(1), randomHex(4))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("s3test: create bucket %s at %s: %v", name, s.Endpoint, err)
	}
	return name
}

// URL is the blob URL of prefix in bucket on this server, in the form the
// project's run storage parses (issue 14): the prefix in the path,
//
//	s3://BUCKET/PREFIX?endpoint=http%3A%2F%2F127.0.0.1%3APORT&region=us-east-1&use_path_style=true
//
// (with no "/PREFIX" when prefix is empty; prefix is path-escaped, its
// slashes kept). The query is what gocloud.dev's s3blob needs to reach this
// server. Beware: gocloud.dev's blob.OpenBucket ignores a URL's path, so
// opening this URL as it is opens the bucket's root; BlobURL is the form
// gocloud itself honours. Credentials are not in the URL: see Env.
func (s *Server) URL(bucket, prefix string) string {
	u := url.URL{Scheme: "s3", Host: bucket, RawQuery: s.query().Encode()}
	if prefix != "" {
		u.Path = "/" + strings.TrimPrefix(prefix, "/")
	}
	return u.String()
}

// BlobURL is the URL that gocloud.dev's blob.OpenBucket opens as prefix in
// bucket on this server, the prefix in gocloud's "prefix" parameter:
//
//	s3://BUCKET?endpoint=http%3A%2F%2F127.0.0.1%3APORT&prefix=PREFIX&region=us-east-1&use_path_style=true
//
// (no prefix parameter when prefix is empty). gocloud prepends the prefix to
// every key as it is, so a directory-like prefix should end in "/".
func (s *Server) BlobURL(bucket, prefix string) string {
	q := s.query()
	if prefix != "" {
		q.Set("prefix", prefix)
	}
	u := url.URL{Scheme: "s3", Host: bucket, RawQuery: q.Encode()}
	return u.String()
}

// query is the s3blob URL query that reaches this server.
func (s *Server) query() url.Values {
	return url.Values{
		"endpoint":       {s.Endpoint},
		"region":         {s.Region},
		"use_path_style": {"true"},
	}
}

// Env returns the environment variables that a child process needs to reach
// this server with the AWS SDK for Go v2 (as gocloud.dev's s3blob uses it):
// the static keys and region, shared config and credentials files set to
// the empty /dev/null so that ~/.aws is not read, the EC2 metadata service
// off, and the variables that could point the SDK elsewhere (a session
// token, a profile, AWS_ENDPOINT_URL*) set empty, which the SDK treats as
// unset. Append it to os.Environ(): later entries win.
func (s *Server) Env() []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + s.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
		"AWS_SESSION_TOKEN=",
		"AWS_REGION=" + s.Region,
		"AWS_DEFAULT_REGION=" + s.Region,
		"AWS_PROFILE=",
		"AWS_DEFAULT_PROFILE=",
		"AWS_CONFIG_FILE=" + os.DevNull,
		"AWS_SHARED_CREDENTIALS_FILE=" + os.DevNull,
		"AWS_EC2_METADATA_DISABLED=true",
		"AWS_ENDPOINT_URL=",
		"AWS_ENDPOINT_URL_S3=",
	}
}

// Setenv sets Env's variables in the test's own process with t.Setenv (so
// they are restored after the test, and the test may not be parallel).
func (s *Server) Setenv(t testing.TB) {
	t.Helper()
	for _, kv := range s.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// LogTail returns the last lines (about 4 KiB) of weed's log, for failure
// messages.
func (s *Server) LogTail() string {
	const max = 4096
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return fmt.Sprintf("(no weed log: %v)", err)
	}
	if len(b) > max {
		b = b[len(b)-max:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}

// identityConfig is weed's S3 identity file with one identity that may do
// everything, known by accessKey/secretKey. With it weed refuses anonymous
// requests and requests signed with any other keys.
func identityConfig(accessKey, secretKey string) []byte {
	return fmt.Appendf(nil, `{
  "identities": [
    {
      "name": "s3test",
      "credentials": [{"accessKey": %q, "secretKey": %q}],
      "actions": ["Admin", "Read", "List", "Tagging", "Write"]
    }
  ]
}
`, accessKey, secretKey)
}

// freePorts returns n distinct free TCP ports on 127.0.0.1, found by holding
// n listeners open at once. Another process may take one before weed binds
// it; Start then fails with weed's "address already in use" in its log.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// randomHex returns n random bytes as lowercase hex.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails: crypto/rand crashes the program instead
	return fmt.Sprintf("%x", b)
}
