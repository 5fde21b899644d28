package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"bomberzero/nn/internal/avx2"
)

func TestMaskedCopyAndAddKeepExactlyTheMaskedEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	const sentinel = 0x7fc0dead
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 100, 257} {
		src := randSlice(r, n+3, 10)
		mask := make([]uint32, n+3)
		for i := range mask {
			if r.IntN(2) == 0 {
				mask[i] = ^uint32(0)
			}
		}
		base := randSlice(r, n+3, 10)
		type impl struct {
			name      string
			copy, add func(dst, src []float32, mask []uint32)
		}
		impls := []impl{{"Go", maskedCopyGo, maskedAddGo}}
		if avx2Kernels {
			impls = append(impls, impl{"AVX2", avx2.MaskedCopy, avx2.MaskedAdd})
		}
		for _, im := range impls {
			// The destination has n entries and then sentinels that
			// must survive.
			dst := make([]float32, n+3)
			for i := range dst {
				dst[i] = math.Float32frombits(sentinel)
			}
			im.copy(dst[:n], src, mask)
			sum := append([]float32(nil), base...)
			for i := n; i < len(sum); i++ {
				sum[i] = math.Float32frombits(sentinel)
			}
			im.add(sum[:n], src, mask)
			for i := range dst {
				wantCopy, wantSum := float32(0), base[i]
				if mask[i] != 0 {
					wantCopy, wantSum = src[i], base[i]+src[i]
				}
				if i >= n {
					if math.Float32bits(dst[i]) != sentinel || math.Float32bits(sum[i]) != sentinel {
						t.Fatalf("%s n=%d: entry %d past the end was written", im.name, n, i)
					}
					continue
				}
				if math.Float32bits(dst[i]) != math.Float32bits(wantCopy) {
					t.Fatalf("%s n=%d: copy[%d] = %v, want %v (mask %x)", im.name, n, i, dst[i], wantCopy, mask[i])
				}
				if math.Float32bits(sum[i]) != math.Float32bits(wantSum) {
					t.Fatalf("%s n=%d: add[%d] = %v, want %v (mask %x)", im.name, n, i, sum[i], wantSum, mask[i])
				}
			}
		}
	}
}

func TestMaskedKernelsPanicInGoOnShortSlices(t *testing.T) {
	if !avx2Kernels {
		t.Skip("no assembly kernels in this build: the Go kernels index their slices themselves")
	}
	dst, src, mask := make([]float32, 9), make([]float32, 9), make([]uint32, 9)
	for name, call := range map[string]func(){
		"copy short src":  func() { avx2.MaskedCopy(dst, src[:8], mask) },
		"copy short mask": func() { avx2.MaskedCopy(dst, src, mask[:8]) },
		"add short src":   func() { avx2.MaskedAdd(dst, src[:8], mask) },
		"add short mask":  func() { avx2.MaskedAdd(dst, src, mask[:8]) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			call()
		}()
	}
}

func TestTapMasksKeepSourcesOnTheBoard(t *testing.T) {
	const n, h, w, k = 2, 3, 4, 3
	m := tapMasks(n, h, w, k)
	for tap := 0; tap < k*k; tap++ {
		dy, dx := tap/k-1, tap%k-1
		for p := 0; p < n; p++ {
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					on := y+dy >= 0 && y+dy < h && x+dx >= 0 && x+dx < w
					if got := m[tap*n*h*w+p*h*w+y*w+x] != 0; got != on {
						t.Errorf("tap (%d,%d) square (%d,%d) of position %d: mask %v, want %v", dy, dx, y, x, p, got, on)
					}
				}
			}
		}
	}
}
