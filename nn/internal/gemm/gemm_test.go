package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// ref computes C = alpha*op(A)*op(B) + beta*C in float64 (C = alpha*AB
// when beta is 0) and returns it with, per element, the sum of the
// magnitudes of the products, which bounds float32 rounding.
func ref(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) (want, mag []float64) {
	want = make([]float64, m*n)
	mag = make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s, g float64
			for l := range k {
				var av, bv float32
				if transA {
					av = a[l*lda+i]
				} else {
					av = a[i*lda+l]
				}
				if transB {
					bv = b[j*ldb+l]
				} else {
					bv = b[l*ldb+j]
				}
				p := float64(av) * float64(bv)
				s += p
				g += math.Abs(p)
			}
			s *= float64(alpha)
			g *= math.Abs(float64(alpha))
			if beta != 0 {
				cv := float64(beta) * float64(c[i*ldc+j])
				s += cv
				g += math.Abs(cv)
			}
			want[i*n+j] = s
			mag[i*n+j] = g
		}
	}
	return want, mag
}

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

type shape struct{ m, n, k int }

var shapes = []shape{
	{1, 1, 1}, {1, 1, 7}, {2, 3, 1}, {5, 7, 3}, {6, 16, 1}, {6, 16, 4}, {6, 16, 5},
	{7, 17, 9}, {12, 32, 64}, {13, 31, 33}, {5, 15, 300}, {1, 100, 50}, {100, 1, 50},
	{64, 100, 576}, {121, 47, 257}, {37, 2050, 19}, {250, 40, 600}, {18, 48, 1000},
}

// kernelSets runs f with each set of micro-kernels this CPU has (the AVX2
// ones alone, then with the AVX-512 ones).
func kernelSets(f func(name string)) {
	saved := useAVX512
	defer func() { useAVX512 = saved }()
	useAVX512 = false
	if useAsm {
		f("avx2")
	} else {
		f("gonum")
	}
	if saved {
		useAVX512 = true
		f("avx512")
	}
}

func TestSgemm(t *testing.T) {
	kernelSets(func(name string) { t.Run(name, testSgemm) })
}

func testSgemm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type scal struct{ alpha, beta float32 }
	scals := []scal{{1, 0}, {1, 1}, {0, 1}, {0, 0.5}, {-0.75, 0}, {1.5, -2}, {1, 0.5}}
	for _, sh := range shapes {
		for ti := range 4 {
			transA, transB := ti&1 != 0, ti&2 != 0
			for si, sc := range scals {
				// Padded leading dimensions on odd cases.
				pad := (sh.m + sh.n + sh.k + si) % 3 * 5
				ar, ac := sh.m, sh.k
				if transA {
					ar, ac = sh.k, sh.m
				}
				br, bc := sh.k, sh.n
				if transB {
					br, bc = sh.n, sh.k
				}
				lda, ldb, ldc := ac+pad, bc+pad, sh.n+pad
				// Subslices: the matrices start at an offset into bigger ones.
				off := si % 4
				a := randSlice(r, off+(ar-1)*lda+ac+pad)[off:]
				b := randSlice(r, off+(br-1)*ldb+bc+pad)[off:]
				cbuf := randSlice(r, off+(sh.m-1)*ldc+sh.n+pad)
				c := cbuf[off:]
				if sc.beta == 0 {
					for i := range c {
						if i%7 == 0 {
							c[i] = float32(math.NaN()) // must not propagate
						}
					}
				}
				want, mag := ref(transA, transB, sh.m, sh.n, sh.k, sc.alpha, a, lda, b, ldb, sc.beta, c, ldc)
				before := append([]float32(nil), cbuf...)
				Sgemm(transA, transB, sh.m, sh.n, sh.k, sc.alpha, a, lda, b, ldb, sc.beta, c, ldc)
				name := fmt.Sprintf("%dx%dx%d tA=%v tB=%v alpha=%v beta=%v", sh.m, sh.n, sh.k, transA, transB, sc.alpha, sc.beta)
				for i := range sh.m {
					for j := range sh.n {
						got := float64(c[i*ldc+j])
						w := want[i*sh.n+j]
						tol := 1e-5*float64(max(sh.k, 1))*mag[i*sh.n+j] + 1e-30
						if math.IsNaN(got) || math.Abs(got-w) > tol {
							t.Fatalf("%s: C[%d,%d] = %v, want %v (tol %g)", name, i, j, got, w, tol)
						}
					}
				}
				// Nothing outside the m x n block of C moves.
				for idx := range cbuf {
					rel := idx - off
					if rel >= 0 && rel/ldc < sh.m && rel%ldc < sh.n {
						continue
					}
					if !(cbuf[idx] == before[idx] || math.IsNaN(float64(cbuf[idx])) && math.IsNaN(float64(before[idx]))) {
						t.Fatalf("%s: element %d outside C changed", name, idx)
					}
				}
			}
		}
	}
}

func TestSgemmPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"short A", func() {
			Sgemm(false, false, 2, 2, 2, 1, make([]float32, 3), 2, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		}},
		{"short C", func() {
			Sgemm(false, false, 2, 2, 2, 1, make([]float32, 4), 2, make([]float32, 4), 2, 0, make([]float32, 3), 2)
		}},
		{"bad lda", func() {
			Sgemm(false, false, 2, 2, 2, 1, make([]float32, 4), 1, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			tc.f()
		}()
	}
}

// TestSgemmConcurrent runs products of different shapes on many goroutines
// at once (run it with -race): each must equal the same product run alone.
func TestSgemmConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	type job struct {
		sh      shape
		a, b, c []float32
	}
	var jobs []job
	for i := range 8 {
		sh := shapes[len(shapes)-1-i%6]
		a, b := randSlice(r, sh.m*sh.k), randSlice(r, sh.k*sh.n)
		c := make([]float32, sh.m*sh.n)
		Sgemm(false, false, sh.m, sh.n, sh.k, 1, a, sh.k, b, sh.n, 0, c, sh.n)
		jobs = append(jobs, job{sh, a, b, c})
	}
	var wg sync.WaitGroup
	for _, jb := range jobs {
		wg.Go(func() {
			c := make([]float32, len(jb.c))
			for range 5 {
				Sgemm(false, false, jb.sh.m, jb.sh.n, jb.sh.k, 1, jb.a, jb.sh.k, jb.b, jb.sh.n, 0, c, jb.sh.n)
				for i := range c {
					if c[i] != jb.c[i] {
						t.Errorf("%v: concurrent result differs at %d", jb.sh, i)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

func TestSgemmNoAllocs(t *testing.T) {
	if !useAsm {
		t.Skip("gonum's Sgemm is the product in this build")
	}
	a, b, c := make([]float32, 64*576), make([]float32, 576*300), make([]float32, 64*300)
	Sgemm(false, false, 64, 300, 576, 1, a, 576, b, 300, 0, c, 300)
	if n := testing.AllocsPerRun(10, func() {
		Sgemm(false, false, 64, 300, 576, 1, a, 576, b, 300, 0, c, 300)
	}); n > 0.5 {
		t.Errorf("Sgemm allocates %v times per call in steady state", n)
	}
}

// TestSgemmExact holds Exact's promise: every element of a product has the
// bits of the same element computed alone, as a 1x1 product of its row of
// op(A) and its column of op(B), whatever the shape, the transpositions,
// the kernels and alpha and beta. (It would fail on the gemv that took
// products of fewer than 6 rows by a transposed B, and on the partial
// panels that added alpha*sum to C in two roundings.)
func TestSgemmExact(t *testing.T) {
	if !Exact() {
		t.Skip("gonum's Sgemm is the product in this build: Exact is false")
	}
	kernelSets(func(name string) { t.Run(name, testSgemmExact) })
}

func testSgemmExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type scal struct{ alpha, beta float32 }
	for _, sh := range shapes {
		for ti := range 4 {
			transA, transB := ti&1 != 0, ti&2 != 0
			for _, sc := range []scal{{1, 0}, {1, 1}, {-0.75, 0}, {1.5, -2}} {
				lda, ldb := sh.k, sh.n
				if transA {
					lda = sh.m
				}
				if transB {
					ldb = sh.k
				}
				a, b := randSlice(r, sh.m*sh.k), randSlice(r, sh.k*sh.n)
				c0 := randSlice(r, sh.m*sh.n)
				c := append([]float32(nil), c0...)
				Sgemm(transA, transB, sh.m, sh.n, sh.k, sc.alpha, a, lda, b, ldb, sc.beta, c, sh.n)
				row, col := make([]float32, sh.k), make([]float32, sh.k)
				// Every element of the small products, a spread of the large.
				step := 1 + sh.m*sh.n/600
				for e := 0; e < sh.m*sh.n; e += step {
					i, j := e/sh.n, e%sh.n
					for l := range sh.k {
						if transA {
							row[l] = a[l*lda+i]
						} else {
							row[l] = a[i*lda+l]
						}
					}
					{
						for l := range sh.k {
							if transB {
								col[l] = b[j*ldb+l]
							} else {
								col[l] = b[l*ldb+j]
							}
						}
						one := []float32{c0[i*sh.n+j]}
						Sgemm(false, false, 1, 1, sh.k, sc.alpha, row, sh.k, col, 1, sc.beta, one, 1)
						if got := c[i*sh.n+j]; math.Float32bits(got) != math.Float32bits(one[0]) {
							t.Fatalf("%dx%dx%d tA=%v tB=%v alpha=%v beta=%v: C[%d,%d] = %v in the product, %v alone",
								sh.m, sh.n, sh.k, transA, transB, sc.alpha, sc.beta, i, j, got, one[0])
						}
					}
				}
			}
		}
	}
}
