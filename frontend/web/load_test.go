package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bomberzero/env"
)

// TestLoad sends many concurrent analyse, agent and move requests for a
// bounded time (LOAD_SECONDS, default 10) and checks that every answer is
// correct or a clear 4xx/503, that no request hangs, and that the heap is
// the same size after as before. Skipped by -short.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: skipped by -short")
	}
	secs := 10
	if s := os.Getenv("LOAD_SECONDS"); s != "" {
		fmt.Sscan(s, &secs)
	}
	f := newFixture(t, Config{MaxSearches: 2, MaxSims: 2000, MaxTime: 2 * time.Second})
	client := &http.Client{Timeout: 10 * time.Second}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	// Warm the caches so the comparison sees only growth.
	call(t, "POST", f.url+"/api/analyse", `{"sims":100}`, nil)
	before := heap()

	v, _ := env.LoadVariant("fbgc")
	var ok, busy, refused, bad atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				var path, body string
				switch (w + i) % 4 {
				case 0:
					path, body = "/api/analyse", `{"variant":"fbgc","moves":["e2-e4"],"sims":300}`
				case 1:
					path, body = "/api/agent", fmt.Sprintf(`{"variant":"fbgc","moves":["e2-e4"],"player":"alphabeta:2","seed":%d}`, i)
				case 2:
					path, body = "/api/move", `{"variant":"fbgc","moves":["e2-e4"],"move":"e9-e7"}`
				default:
					path, body = "/api/move", `{"variant":"fbgc","moves":["e2-e4"],"move":"e2-e5"}` // illegal
				}
				resp, err := client.Post(f.url+path, "application/json", strings.NewReader(body))
				if err != nil {
					bad.Add(1)
					t.Errorf("%s: %v", path, err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch {
				case resp.StatusCode == 200:
					var out struct {
						Best     string
						Move     *MoveInfo
						Position string
					}
					if err := json.Unmarshal(b, &out); err != nil {
						bad.Add(1)
						continue
					}
					p, _ := env.PlayMoves(v.NewPosition(), "e2-e4")
					switch {
					case path == "/api/analyse":
						_, err = p.ParseMove(out.Best)
					case path == "/api/agent":
						_, err = p.ParseMove(out.Move.Text)
					default:
						q, _ := env.PlayMoves(p, "e9-e7")
						if out.Position != q.String() {
							err = fmt.Errorf("position %s", out.Position)
						}
					}
					if err != nil {
						bad.Add(1)
						t.Errorf("%s: a wrong answer: %v", path, err)
					}
					ok.Add(1)
				case resp.StatusCode == 503 && strings.Contains(string(b), "busy"):
					busy.Add(1)
				case resp.StatusCode == 422 && strings.Contains(string(b), "e2-e5"):
					refused.Add(1)
				default:
					bad.Add(1)
					t.Errorf("%s: %d %s", path, resp.StatusCode, b)
				}
			}
		}()
	}
	wg.Wait()
	client.CloseIdleConnections()
	time.Sleep(100 * time.Millisecond)
	after := heap()
	t.Logf("%d s, 16 clients: %d answered 200 (checked), %d refused as illegal (422), %d busy (503), %d wrong; heap %d KiB before, %d KiB after",
		secs, ok.Load(), refused.Load(), busy.Load(), bad.Load(), before>>10, after>>10)
	if ok.Load() == 0 || refused.Load() == 0 || bad.Load() != 0 {
		t.Errorf("want correct answers and clear refusals only")
	}
	if after > before+8<<20 {
		t.Errorf("heap grew from %d to %d KiB", before>>10, after>>10)
	}
}
