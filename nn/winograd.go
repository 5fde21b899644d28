package nn

// Inference runs every 3x3 convolution as Winograd's minimal filtering
// algorithm F(2x2, 3x3) (Lavin and Gray, "Fast Algorithms for Convolutional
// Neural Networks", 2015): the board is cut into 2x2 output tiles, each
// computed from the 4x4 input tile d around it as
//
//	Y = Aᵀ [ (G g Gᵀ) ⊙ (Bᵀ d B) ] A
//
// so that, summed over input channels, the element-wise products become 16
// matrix products, one per element ξ of the 4x4 transformed tile: the
// transformed input V_ξ (tiles x cin) times the transformed weights U_ξ
// (cin x cout). That is 16 multiplications per 4 outputs instead of 36,
// 2.25 times fewer than a direct (im2col) convolution, and the input is
// expanded 4 times instead of 9. The input and output transforms only add
// and subtract (winokern.go); the weights' halves are taken once per
// snapshot, in float64.
//
//	Bᵀ = | 1  0 -1  0 |   G = | 1    0    0  |   Aᵀ = | 1  1  1  0 |
//	     | 0  1  1  0 |       | 1/2  1/2  1/2|        | 0  1 -1 -1 |
//	     | 0 -1  1  0 |       | 1/2 -1/2  1/2|
//	     | 0  1  0 -1 |       | 0    0    1  |
//
// A board of odd height or width gets one more tile row or column, whose
// outputs off the board are computed and then cleared.

// winoSlabTiles bounds the tiles an inference convolution transforms and
// multiplies at a time: with 64 channels its transformed input and its 16
// products are 0.8 MB each, so both stay in this machine's 2 MB L2 between
// the input transform, the products and the output transform.
const winoSlabTiles = 200

// winoTiles returns the tile rows and columns of an h x w board.
func winoTiles(h, w int) (th, tw int) { return (h + 1) / 2, (w + 1) / 2 }

// winoSlabPositions returns how many positions of an h x w board one slab
// holds.
func winoSlabPositions(h, w int) int {
	th, tw := winoTiles(h, w)
	return max(1, winoSlabTiles/(th*tw))
}

// winogradWeights returns the transformed weights U = G g Gᵀ of a 3x3
// convolution with weights (cout, cin, 3, 3), as 16 row-major cinP x coutP
// matrices, U[(ξ*cinP+ci)*coutP+co] for ξ = 4*row+column of the 4x4
// transformed tile; the rows and columns past cin and cout (channel
// padding) are zero.
func winogradWeights(weight []float32, cout, cin, coutP, cinP int) []float32 {
	u := make([]float32, 16*cinP*coutP)
	for co := 0; co < cout; co++ {
		for ci := 0; ci < cin; ci++ {
			g := weight[(co*cin+ci)*9:][:9]
			// gg = G g: 4 x 3.
			var gg [4][3]float64
			for c := 0; c < 3; c++ {
				g0, g1, g2 := float64(g[c]), float64(g[3+c]), float64(g[6+c])
				gg[0][c] = g0
				gg[1][c] = (g0 + g1 + g2) / 2
				gg[2][c] = (g0 - g1 + g2) / 2
				gg[3][c] = g2
			}
			// (G g) Gᵀ: 4 x 4.
			for r := 0; r < 4; r++ {
				g0, g1, g2 := gg[r][0], gg[r][1], gg[r][2]
				row := [4]float64{g0, (g0 + g1 + g2) / 2, (g0 - g1 + g2) / 2, g2}
				for c, v := range row {
					u[((4*r+c)*cinP+ci)*coutP+co] = float32(v)
				}
			}
		}
	}
	return u
}
