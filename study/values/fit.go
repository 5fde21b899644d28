package values

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Report is the outcome of PieceValues: one FitResult per method, with the
// settings that reproduce it.
type Report struct {
	Variants  []string     `json:"variants"`  // the variants of the games
	Unit      string       `json:"unit"`      // the piece values are normalised to
	Seed      uint64       `json:"seed"`      // the bootstrap's seed
	Bootstrap int          `json:"bootstrap"` // replicates B
	Ridge     float64      `json:"ridge"`     // penalty λ on piece coefficients
	Sample    SampleConfig `json:"sample"`    // which positions were used
	// PositionsFile, when not "", is the positions file (WritePositions)
	// the games were read from: their positions were sampled when it was
	// written, by rules the file does not record, and Sample's skip, quiet
	// and spacing rules were not applied again.
	PositionsFile string `json:"positions_file,omitempty"`
	Games         int    `json:"games"`     // games in the data set
	Positions     int    `json:"positions"` // positions in the data set
	Sampled       int    `json:"sampled"`   // positions the sampling kept
	// PhaseMix splits the sampled positions by the phase of the game
	// (officers on the board): the values are averages over it.
	PhaseMix []PhaseShare `json:"phase_mix,omitempty"`
	Fits     []FitResult  `json:"fits"`        // one per method, in Config order
	Pieces   []string     `json:"piece_types"` // the data's piece types, least valuable first (see Fits)
	// Differences compares every two normalised fits piece by piece (the
	// tanh and logistic fits side by side): A's value minus B's.
	Differences []FitDifference `json:"differences,omitempty"`
	// Warnings say when the values are implausible for any strong player
	// (Implausible) or the player is too weak for the question or has not
	// passed the chess check (NamePlayers adds UncalibratedPlayer's line).
	Warnings []string `json:"warnings,omitempty"`
	// Players name who played the games, and ChessCheck says for each
	// whether it passed the chess check (CalibrationLine); both are set by
	// the caller through NamePlayers, empty when it did not.
	Players    []string `json:"players,omitempty"`
	ChessCheck []string `json:"chess_check,omitempty"`
}

// NamePlayers records who played the report's games: each player with its
// chess-check line (CalibrationLine) and, for a player without a passing
// calibration, one warning line (UncalibratedPlayer) before the fits' own.
// unnamed counts games whose player is not recorded; they get a line too,
// as no calibration can vouch for them.
func (r *Report) NamePlayers(players []string, unnamed int) {
	var warn []string
	phase := r.Sample.FitPhase()
	for _, p := range players {
		r.Players = append(r.Players, p)
		r.ChessCheck = append(r.ChessCheck, CalibrationLine(p, phase))
		if w := UncalibratedPlayer(p, phase); w != "" {
			warn = append(warn, w)
		}
	}
	if unnamed > 0 {
		r.ChessCheck = append(r.ChessCheck, fmt.Sprintf("Calibration: %d games do not name their player, so no chess calibration vouches for their values", unnamed))
		warn = append(warn, fmt.Sprintf("%d games do not name their player: whether it passes the chess check is unknown", unnamed))
	}
	r.Warnings = append(warn, r.Warnings...)
}

// FitDifference is two fits' disagreement on one piece's value: A's value
// minus B's (in units of the unit piece), with the 95% interval of that
// difference over the bootstrap replicates both fits share (the same games
// drawn for both, so the interval accounts for their correlation). Agree is
// true when the interval holds 0.
type FitDifference struct {
	A     Method   `json:"a"`
	B     Method   `json:"b"`
	Piece string   `json:"piece"`
	Diff  Estimate `json:"diff"`
	Agree bool     `json:"agree"`
}

// FitResult is one method's piece values.
type FitResult struct {
	Method    Method `json:"method"`
	Games     int    `json:"games"`     // games with at least one position in this fit
	Positions int    `json:"positions"` // positions in this fit
	// ToMove is the intercept (the worth of having the move) and White the
	// colour term (+1 when White is to move), both in the fit's raw units.
	ToMove Estimate     `json:"to_move"`
	White  Estimate     `json:"white"`
	Pieces []PieceValue `json:"pieces"`
	// Normalised is true when Pieces carry values in units of the unit
	// piece; false when the unit never varies or its fitted value is not
	// positive (Notes say which), and only raw coefficients are shown.
	Normalised bool `json:"normalised"`
	// Replicates is the number of bootstrap replicates refitted; Failed
	// those that could not be (no decisive game drawn, say) and are left
	// out of the intervals.
	Replicates int `json:"replicates"`
	Failed     int `json:"failed"`
	// FailedEmpty counts the failed replicates whose resample held no
	// position of this fit (for the logistic fit: no decisive game).
	FailedEmpty int `json:"failed_empty,omitempty"`
	// Decisive counts the fit's games that were won or lost.
	Decisive int      `json:"decisive_games"`
	Notes    []string `json:"notes,omitempty"`
	// Advice says what the fit's values lack and about how many games
	// would fix it (Report.Advice); empty when every value is bounded.
	Advice string `json:"advice,omitempty"`
	// Calibration compares, by material-balance bin, the score the fit
	// predicts with the score observed (normalised fits only).
	Calibration []CalibrationBin `json:"calibration,omitempty"`
	// Tomasev is the chess check on this fit's points (TomasevCheck): one
	// line saying whether it passes and what misses; set for orthodox
	// chess games only, "" otherwise.
	Tomasev string `json:"tomasev_check,omitempty"`
	// Sums are the signed sums of values the caller asked for (Sum), as
	// "R+R-Q", beside an imbalance match's reading.
	Sums []Sum `json:"sums,omitempty"`
	// Phases are the phased model's bins and scales (Config.PhaseBins),
	// the opening's first with scale 1; nil for the one-scale model.
	Phases []PhaseScale `json:"phases,omitempty"`
	// UnitReplicates holds the unit piece's raw coefficient in every
	// bootstrap replicate that could be fitted (nil when the unit never
	// varies), for intervals of figures derived from it (ReadImbalance's
	// pawns).
	UnitReplicates []float64 `json:"-"`
	// ValueReplicates holds each normalised piece's value in every
	// bootstrap replicate that could be fitted (±Inf where the unit's
	// coefficient was not positive), for intervals of differences between
	// fits on different games (compare's v_B − v_A).
	ValueReplicates map[string][]float64 `json:"-"`
}

// PieceValue is one piece type's fitted worth.
type PieceValue struct {
	Piece string `json:"piece"`
	// Coef is the raw coefficient (logit units for Logistic, tanh units
	// otherwise); nil when the type's count difference never varies in
	// the fit's positions, so the data say nothing about it.
	Coef *Estimate `json:"coef"`
	// Value is Coef divided by the unit piece's coefficient, replicate by
	// replicate; nil when not Normalised or Coef is nil.
	Value *Estimate `json:"value"`
	// Imbalanced counts the fit's games with a sampled position where the
	// sides' counts of the piece differ (0: it never changed hands there);
	// Contrary those of them where, in such a position, the side with more
	// of it did not win (for the logistic and tanh fits; a draw counts in
	// the tanh fit). Imbalanced > 0 with Contrary 0 is separation: its
	// difference predicts every result, so only the ridge holds its
	// coefficient finite.
	Imbalanced int `json:"imbalanced_games"`
	Contrary   int `json:"contrary_games"`
}

// ErrNoDecisive is returned (wrapped) for a Logistic fit on data without a
// decisive game among the sampled positions.
var ErrNoDecisive = errors.New("no decisive game among the sampled positions: the logistic fit needs wins and losses")

// fixed columns of every design before the piece columns.
const (
	colToMove = iota
	colWhite
	nFixed
)

// interceptRidge is the tiny penalty on the intercept and colour term: it
// only keeps them finite when a replicate happens to hold one outcome only.
const interceptRidge = 1e-6

// problem is one method's regression ready to fit.
type problem struct {
	method Method
	d      design
	pieces []int // piece column of the data set for each design column after nFixed
	unit   int   // design column of the unit piece, -1 if absent
	games  int
	notes  []string
	// scales are the plain fit's phase scales (Config.PhaseBins), nil
	// for the one-scale model; labels name the bins' officer counts.
	scales []float64
	labels []string
	phases []PhaseScale
	// imbalanced and contrary count, per piece column of the data set,
	// the games PieceValue.Imbalanced and Contrary describe; decisive the
	// fit's won or lost games.
	imbalanced, contrary []int
	decisive             int
	// emptyFails counts the bootstrap replicates that drew no row of this
	// fit (errNoData).
	emptyFails atomic.Int64
}

// PieceValues fits the piece values of ds with every method of cfg and
// bootstraps whole games for their intervals. A method whose data cannot
// support it (no decisive game for Logistic, say) is an error naming it.
func PieceValues(ds *Dataset, cfg Config) (*Report, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	unitCol := slices.Index(ds.Pieces, cfg.Unit)
	if unitCol < 0 {
		return nil, fmt.Errorf("values: unit piece %q is not among the data's piece types %v; pick one with the unit setting", cfg.Unit, ds.Pieces)
	}
	rep := &Report{Variants: ds.Variants(), Unit: cfg.Unit, Seed: cfg.Seed, Bootstrap: cfg.Bootstrap, Ridge: cfg.Ridge,
		Sample: cfg.Sample, Games: len(ds.Games), Pieces: ds.Pieces}
	for i := range ds.Games {
		rep.Positions += len(ds.Games[i].Positions)
	}
	if err := checkPairs(ds, cfg.Pairs); err != nil {
		return nil, err
	}
	rows := cfg.Sample.sample(ds, cfg.Pairs > 0)
	rep.Sampled = len(rows)
	rep.PhaseMix = phaseMix(ds, rows)
	if len(rows) == 0 {
		return nil, fmt.Errorf("values: no position left after sampling %d games (skip %d plies, %d quiet plies after captures, positions with a capture left out: %v)",
			len(ds.Games), cfg.Sample.SkipPlies, cfg.Sample.QuietPlies, cfg.Sample.NoCaptures)
	}
	var probs []*problem
	for _, m := range cfg.Methods {
		p, err := buildProblem(ds, rows, m, cfg, unitCol)
		if err != nil {
			return nil, fmt.Errorf("values: %s fit: %w", m, err)
		}
		probs = append(probs, p)
	}
	// The plain fits.
	points := make([][]float64, len(probs))
	ones := make([]float64, len(ds.Games))
	for i := range ones {
		ones[i] = 1
	}
	for i, p := range probs {
		points[i] = make([]float64, p.d.k)
		work := newGLMWork(p.d.k)
		if err := p.d.fit(points[i], ones, work); err != nil {
			return nil, fmt.Errorf("values: %s fit: %w", p.method, err)
		}
		if p.d.bins > 1 {
			p.scales = slices.Clone(work.scales)
			p.d.startScales = p.scales[1:]
			parts := make([]string, len(p.scales))
			for b, s := range p.scales {
				parts[b] = fmt.Sprintf("%s officers %.2f", p.labels[b], s)
			}
			p.notes = append(p.notes, "phased model: the material term's scale by phase (the opening's 1): "+strings.Join(parts, ", "))
			p.phases = p.phaseScales(points[i])
		}
	}
	reps := bootstrap(ds, probs, points, cfg)
	for i, p := range probs {
		fr := summarize(p, points[i], reps[i], ds.Pieces)
		fr.Calibration = calibration(p, points[i])
		fr.Phases = p.phases
		rep.Fits = append(rep.Fits, fr)
	}
	for i := range probs {
		for j := i + 1; j < len(probs); j++ {
			rep.Differences = append(rep.Differences, differences(probs[i], probs[j], points[i], points[j], reps[i], reps[j], ds.Pieces)...)
		}
	}
	rep.orderPieces()
	for i := range rep.Fits {
		rep.Fits[i].Advice = rep.Advice(&rep.Fits[i])
		if slices.Equal(rep.Variants, []string{"chess"}) {
			rep.Fits[i].Tomasev = TomasevCheck(&rep.Fits[i])
		}
	}
	rep.Warnings = Implausible(rep)
	return rep, nil
}

// orderPieces lists the pieces from least to most valuable by the first
// normalised fit (pieces without a value last, in data order), the same
// order in Pieces and in every fit, so tables and charts read upwards.
func (r *Report) orderPieces() {
	var ref *FitResult
	for i := range r.Fits {
		if r.Fits[i].Normalised {
			ref = &r.Fits[i]
			break
		}
	}
	if ref == nil {
		return
	}
	idx := make([]int, len(r.Pieces))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) float64 {
		if v := ref.Pieces[i].Value; v != nil {
			return v.Point
		}
		return math.Inf(1)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(key(a), key(b)) })
	pieces := make([]string, len(idx))
	for j, i := range idx {
		pieces[j] = r.Pieces[i]
	}
	r.Pieces = pieces
	for fi := range r.Fits {
		old := r.Fits[fi].Pieces
		sorted := make([]PieceValue, len(idx))
		for j, i := range idx {
			sorted[j] = old[i]
		}
		r.Fits[fi].Pieces = sorted
	}
}

// buildProblem lays out method m's regression over the sampled rows.
func buildProblem(ds *Dataset, rows []sampled, m Method, cfg Config, unitCol int) (*problem, error) {
	p := &problem{method: m, unit: -1}
	var use []sampled
	var ys []float64
	for _, r := range rows {
		g := &ds.Games[r.game]
		var y float64
		switch m {
		case Logistic:
			res := g.ResultSTM(r.pos)
			if res == 0 {
				continue
			}
			y = float64(res+1) / 2
		case Tanh:
			y = float64(g.ResultSTM(r.pos)+1) / 2
		case Search:
			if !(r.pos.Value >= -1 && r.pos.Value <= 1) {
				return nil, fmt.Errorf("game %s ply %d: recorded value %v, want a number in [-1,1]", g.ID, r.pos.Ply, r.pos.Value)
			}
			y = (r.pos.Value + 1) / 2
		case Value:
			v, err := cfg.Value(r.pos.Text)
			if err != nil {
				return nil, fmt.Errorf("game %s ply %d: value of %q: %w", g.ID, r.pos.Ply, r.pos.Text, err)
			}
			if !(v >= -1 && v <= 1) {
				return nil, fmt.Errorf("game %s ply %d: value function gave %v for %q, want a number in [-1,1]", g.ID, r.pos.Ply, v, r.pos.Text)
			}
			y = (v + 1) / 2
		}
		use = append(use, r)
		ys = append(ys, y)
	}
	if len(use) == 0 {
		if m == Logistic {
			return nil, ErrNoDecisive
		}
		return nil, fmt.Errorf("no position to fit")
	}
	p.evidence(ds, use, ys)
	// Keep the piece types whose difference varies over the fit's rows.
	for col, name := range ds.Pieces {
		first := diff(use[0].pos, col)
		varies := false
		for _, r := range use[1:] {
			if diff(r.pos, col) != first {
				varies = true
				break
			}
		}
		if !varies {
			p.notes = append(p.notes, fmt.Sprintf("piece %s: count difference is always %d in these positions, so the data say nothing about its value", name, first))
			continue
		}
		if col == unitCol {
			p.unit = nFixed + len(p.pieces)
		}
		p.pieces = append(p.pieces, col)
	}
	k := nFixed + len(p.pieces)
	p.d = design{k: k, penal: make([]float64, k)}
	p.d.scale = 2
	if m == Logistic {
		p.d.scale = 1
	}
	for j := range p.d.penal {
		p.d.penal[j] = cfg.Ridge
	}
	p.d.penal[colToMove], p.d.penal[colWhite] = interceptRidge, interceptRidge
	seen := map[int]bool{}
	perGame := map[int]float64{} // positions of each game in the fit
	for _, r := range use {
		perGame[r.game]++
	}
	var useBin []int // each used position's phase bin (Config.PhaseBins)
	if cfg.PhaseBins > 1 {
		useBin, p.d.bins, p.labels = phaseBins(use, officerColumns(ds.Pieces), cfg.PhaseBins)
		if p.d.bins < 2 {
			useBin, p.d.bins = nil, 0
			p.notes = append(p.notes, "phased model: the positions' officers fall into one bin, so the fit has one scale")
		}
	}
	rowOf := map[string]int{} // (game, target, features, phase bin) -> row
	x := make([]float64, k)
	for i, r := range use {
		x[colToMove], x[colWhite] = 1, -1
		if r.pos.WhiteToMove {
			x[colWhite] = 1
		}
		for j, col := range p.pieces {
			x[nFixed+j] = float64(diff(r.pos, col))
		}
		bin := 0
		if useBin != nil {
			bin = useBin[i]
		}
		key := fmt.Sprint(r.game, ys[i], x, bin)
		if row, ok := rowOf[key]; ok {
			p.d.count[row]++
			continue
		}
		rowOf[key] = len(p.d.y)
		p.d.x = append(p.d.x, x...)
		p.d.y = append(p.d.y, ys[i])
		p.d.game = append(p.d.game, r.game)
		p.d.count = append(p.d.count, 1)
		w := 1.0
		if cfg.Sample.EqualGames {
			// mean/n: every game weighs the mean positions a game, so the
			// total weight (and the ridge's pull against it) stays the
			// positions' number.
			w = float64(len(use)) / float64(len(perGame)) / perGame[r.game]
		}
		p.d.weight = append(p.d.weight, w)
		if useBin != nil {
			p.d.bin = append(p.d.bin, bin)
		}
		seen[r.game] = true
	}
	p.games = len(seen)
	return p, nil
}

// evidence counts, over the fit's positions use with targets ys, the
// decisive games and, per piece, the games where its counts differ and
// those where the side with more of it did not win (problem.imbalanced,
// contrary; contrary only for the result fits, whose targets are 0, ½, 1).
func (p *problem) evidence(ds *Dataset, use []sampled, ys []float64) {
	n := len(ds.Pieces)
	p.imbalanced, p.contrary = make([]int, n), make([]int, n)
	results := p.method == Logistic || p.method == Tanh
	type key struct{ game, col int }
	imb, con := map[key]bool{}, map[key]bool{}
	decisive := map[int]bool{}
	for i, r := range use {
		if ds.Games[r.game].Result != 0 {
			decisive[r.game] = true
		}
		for col := range n {
			d := diff(r.pos, col)
			if d == 0 {
				continue
			}
			k := key{r.game, col}
			if !imb[k] {
				imb[k] = true
				p.imbalanced[col]++
			}
			won := (d > 0 && ys[i] == 1) || (d < 0 && ys[i] == 0)
			if results && !won && !con[k] {
				con[k] = true
				p.contrary[col]++
			}
		}
	}
	p.decisive = len(decisive)
}

// diff returns the side to move's count of piece col minus the opponent's.
func diff(p *Position, col int) int32 {
	if p.WhiteToMove {
		return p.White[col] - p.Black[col]
	}
	return p.Black[col] - p.White[col]
}

// bootstrap refits every problem on cfg.Bootstrap resamples of whole games
// and returns, per problem, the coefficient vectors of the replicates that
// could be fitted (nil for one that could not).
func bootstrap(ds *Dataset, probs []*problem, points [][]float64, cfg Config) [][][]float64 {
	B := cfg.Bootstrap
	out := make([][][]float64, len(probs))
	for i := range out {
		out[i] = make([][]float64, B)
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, B)
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gw := make([]float64, len(ds.Games))
			var pw []float64 // the pairs' multiplicities (Config.Pairs)
			if cfg.Pairs > 0 {
				pw = make([]float64, cfg.Pairs)
			}
			src := rand.NewPCG(0, 0)
			rng := rand.New(src)
			works := make([]*glmWork, len(probs))
			for i, p := range probs {
				works[i] = newGLMWork(p.d.k)
			}
			for r := range next {
				if pw == nil {
					resample(gw, src, rng, cfg.Seed, r)
				} else {
					resample(pw, src, rng, cfg.Seed, r)
					for g := range gw {
						gw[g] = pw[ds.Games[g].Index]
					}
				}
				for i, p := range probs {
					beta := make([]float64, p.d.k) // kept as the replicate's result
					copy(beta, points[i])          // warm start at the plain fit
					switch err := p.d.fit(beta, gw, works[i]); {
					case err == nil:
						out[i][r] = beta
					case errors.Is(err, errNoData):
						p.emptyFails.Add(1)
					}
				}
				if cfg.Progress != nil {
					mu.Lock()
					done++
					cfg.Progress(done, B)
					mu.Unlock()
				}
			}
		}()
	}
	for r := 0; r < B; r++ {
		next <- r
	}
	close(next)
	wg.Wait()
	return out
}

// checkPairs checks that ds can be one side of a paired design of pairs
// games a side (Config.Pairs): every game's Index below pairs, none twice.
func checkPairs(ds *Dataset, pairs int) error {
	if pairs == 0 {
		return nil
	}
	_, err := PairPlaces(len(ds.Games), pairs, func(k int) int { return ds.Games[k].Index },
		func(k int) string { return "game " + ds.Games[k].ID })
	return err
}

// resample fills gw with the multiplicities of a draw of len(gw) games
// with replacement: replicate r of seed, independent of the worker. rng
// draws from src, which resample reseeds, so it allocates nothing.
func resample(gw []float64, src *rand.PCG, rng *rand.Rand, seed uint64, r int) {
	src.Seed(seed, 0x9e3779b97f4a7c15^uint64(r))
	clear(gw)
	for range gw {
		gw[rng.IntN(len(gw))]++
	}
}

// summarize turns a problem's plain fit and replicates into a FitResult.
func summarize(p *problem, point []float64, reps [][]float64, names []string) FitResult {
	fr := FitResult{Method: p.method, Games: p.games, Positions: p.d.positions(), Notes: slices.Clone(p.notes)}
	var good [][]float64
	for _, b := range reps {
		if b != nil {
			good = append(good, b)
		}
	}
	fr.Replicates, fr.Failed = len(good), len(reps)-len(good)
	fr.FailedEmpty, fr.Decisive = int(p.emptyFails.Load()), p.decisive
	if fr.Failed > 0 {
		fr.Notes = append(fr.Notes, fmt.Sprintf("%d of %d bootstrap replicates could not be fitted and are left out of the intervals", fr.Failed, len(reps)))
	}
	column := func(j int, f func(b []float64) float64) Estimate {
		xs := make([]float64, len(good))
		for i, b := range good {
			xs[i] = f(b)
		}
		e := Estimate{Point: f(point), Lo: math.Inf(-1), Hi: math.Inf(1)}
		if len(xs) > 0 {
			e.Lo, e.Hi = percentileInterval(xs)
		}
		return e
	}
	coef := func(j int) Estimate { return column(j, func(b []float64) float64 { return b[j] }) }
	fr.ToMove, fr.White = coef(colToMove), coef(colWhite)

	if p.unit >= 0 {
		for _, b := range good {
			fr.UnitReplicates = append(fr.UnitReplicates, b[p.unit])
		}
	}
	unitOK := p.unit >= 0 && point[p.unit] > 0
	switch {
	case p.unit < 0:
		// The unit never varies: a note already says so.
	case !unitOK:
		fr.Notes = append(fr.Notes, fmt.Sprintf("the unit piece's fitted coefficient is %.4g, not positive: values relative to it would be meaningless, so only raw coefficients are shown", point[p.unit]))
	}
	fr.Normalised = unitOK
	ratio := func(j int) func(b []float64) float64 {
		return func(b []float64) float64 {
			if j == p.unit {
				return 1 // the unit is worth one unit in every replicate
			}
			u := b[p.unit]
			if u > 0 {
				return b[j] / u
			}
			// The unit's worth reached zero or below in this replicate:
			// the ratio is unbounded in b[j]'s direction.
			if b[j] >= 0 {
				return math.Inf(1)
			}
			return math.Inf(-1)
		}
	}
	for col, name := range names {
		pv := PieceValue{Piece: name, Imbalanced: p.imbalanced[col], Contrary: p.contrary[col]}
		if j := slices.Index(p.pieces, col); j >= 0 {
			c := coef(nFixed + j)
			pv.Coef = &c
			if unitOK {
				v := column(nFixed+j, ratio(nFixed+j))
				pv.Value = &v
				if fr.ValueReplicates == nil {
					fr.ValueReplicates = map[string][]float64{}
				}
				f := ratio(nFixed + j)
				for _, b := range good {
					fr.ValueReplicates[name] = append(fr.ValueReplicates[name], f(b))
				}
			}
		}
		fr.Pieces = append(fr.Pieces, pv)
	}
	if unitOK {
		nonPos := 0
		for _, b := range good {
			if b[p.unit] <= 0 {
				nonPos++
			}
		}
		if nonPos > 0 {
			fr.Notes = append(fr.Notes, fmt.Sprintf("the unit piece's coefficient was not positive in %d of %d replicates: relative values are unstable (intervals may be unbounded)", nonPos, len(good)))
		}
	}
	return fr
}

// differences returns, for every piece both problems a and b value
// relative to a positive unit, a's value minus b's with its interval over
// the replicates both could fit and in which both units stayed positive.
func differences(a, b *problem, pa, pb []float64, ra, rb [][]float64, names []string) []FitDifference {
	if a.unit < 0 || b.unit < 0 || pa[a.unit] <= 0 || pb[b.unit] <= 0 {
		return nil
	}
	var out []FitDifference
	for col, name := range names {
		ja, jb := slices.Index(a.pieces, col), slices.Index(b.pieces, col)
		if ja < 0 || jb < 0 {
			continue
		}
		ja, jb = nFixed+ja, nFixed+jb
		if ja == a.unit {
			continue // the unit is 1 in both
		}
		d := func(x, y []float64) float64 { return x[ja]/x[a.unit] - y[jb]/y[b.unit] }
		var xs []float64
		for r := range ra {
			if ra[r] != nil && rb[r] != nil && ra[r][a.unit] > 0 && rb[r][b.unit] > 0 {
				xs = append(xs, d(ra[r], rb[r]))
			}
		}
		e := Estimate{Point: d(pa, pb), Lo: math.Inf(-1), Hi: math.Inf(1)}
		if len(xs) > 0 {
			e.Lo, e.Hi = percentileInterval(xs)
		}
		out = append(out, FitDifference{A: a.method, B: b.method, Piece: name, Diff: e, Agree: e.Contains(0)})
	}
	return out
}

// ValueDifference is one piece's value in fit b minus its value in fit a,
// where the two fits are of different games (two variants' data): the
// interval is that of the differences of their bootstrap replicates taken
// replicate by replicate, so it carries both fits' uncertainty. Where the
// two fits resampled the same pairs of a paired design (Config.Pairs, the
// same Seed) it is the paired bootstrap's interval; otherwise their
// replicates are independent draws. It is nil when either fit does not
// value the piece.
func ValueDifference(a, b *FitResult, piece string) *Estimate {
	va, vb := pieceValueOf(a, piece), pieceValueOf(b, piece)
	ra, rb := a.ValueReplicates[piece], b.ValueReplicates[piece]
	if va == nil || vb == nil || len(ra) == 0 || len(rb) == 0 {
		return nil
	}
	return ReplicateDifference(va.Point, vb.Point, ra, rb)
}

// ReplicateDifference is the estimate b − a of two quantities measured on
// independent data, from their points and bootstrap replicates: replicate
// r of one is paired with replicate r of the other, and the interval is
// the percentile interval of the paired differences. It is nil when either
// has no replicates.
func ReplicateDifference(a, b float64, ra, rb []float64) *Estimate {
	n := min(len(ra), len(rb))
	if n == 0 {
		return nil
	}
	xs := make([]float64, n)
	for r := range n {
		xs[r] = rb[r] - ra[r]
		if math.IsNaN(xs[r]) { // +Inf - +Inf: unbounded either way
			xs[r] = math.Inf(1)
		}
	}
	e := Estimate{Point: b - a}
	e.Lo, e.Hi = percentileInterval(xs)
	return &e
}

// pieceValueOf returns piece's normalised value in f, or nil.
func pieceValueOf(f *FitResult, piece string) *Estimate {
	for _, pv := range f.Pieces {
		if pv.Piece == piece {
			return pv.Value
		}
	}
	return nil
}
