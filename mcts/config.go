package mcts

import "fmt"

// Config holds the search parameters. DefaultConfig gives the documented
// defaults; docs/search.md explains each one. The TOML tags are each
// knob's one name: the key of the training config's [selfplay] table, the
// name Validate reports and the command-line flag (with "-" for "_"). Seed
// has none: the caller derives it.
type Config struct {
	// Sims is the number of playouts (leaf evaluations or terminal
	// visits) of a full search.
	Sims int `toml:"sims"`
	// CheapSims is the number of playouts of a cheap search.
	CheapSims int `toml:"cheap_sims"`
	// CheapShare is the probability that a search is cheap (playout-cap
	// randomization); 0 makes every search full.
	CheapShare float64 `toml:"cheap_share"`

	// CPUCTInit and CPUCTBase give the exploration constant
	// c(N) = CPUCTInit + log((1+N+CPUCTBase)/CPUCTBase).
	CPUCTInit float64 `toml:"cpuct_init"`
	CPUCTBase float64 `toml:"cpuct_base"`
	// FPUReduction is the first-play urgency below the root: an unvisited
	// child is valued at the parent's value minus
	// FPUReduction*sqrt(sum of the priors of the visited children).
	FPUReduction float64 `toml:"fpu_reduction"`
	// RootFPUReduction is the same reduction at the root.
	RootFPUReduction float64 `toml:"root_fpu_reduction"`

	// DirichletTotal sets the root noise concentration: each of n legal
	// moves gets alpha = DirichletTotal/n.
	DirichletTotal float64 `toml:"dirichlet_total"`
	// NoiseFraction is the weight of the noise in the root priors of a full
	// PUCT search; 0 turns the noise off.
	NoiseFraction float64 `toml:"noise_fraction"`

	// TempPlies is the number of plies from the start of a game played at
	// temperature Temp; later moves use FinalTemp (0 plays the most
	// visited move).
	TempPlies int     `toml:"temp_plies"`
	Temp      float64 `toml:"temp"`
	FinalTemp float64 `toml:"final_temp"`

	// Gumbel selects Gumbel root search instead of PUCT at the root.
	Gumbel bool `toml:"gumbel"`
	// GumbelM is the number of root moves sampled by Gumbel-top-k.
	GumbelM int `toml:"gumbel_m"`
	// GumbelCVisit and GumbelCScale are c_visit and c_scale of the sigma
	// transform sigma(q) = (GumbelCVisit + max_b N(b)) * GumbelCScale * q.
	GumbelCVisit float64 `toml:"gumbel_c_visit"`
	GumbelCScale float64 `toml:"gumbel_c_scale"`

	// LeavesPerGame is the number of leaves one game may put into one
	// batch, kept apart by virtual loss.
	LeavesPerGame int `toml:"leaves_per_game"`
	// VirtualLoss is the number of lost visits a leaf in flight adds to
	// every node on its path.
	VirtualLoss int `toml:"virtual_loss"`
	// Reuse keeps the subtree of the played move for the next search (PUCT
	// only: a Gumbel search starts from a fresh root).
	Reuse bool `toml:"reuse"`

	// CacheEntries is the number of evaluation cache entries (rounded up to
	// a power of two); 0 turns the cache off.
	CacheEntries int `toml:"cache_entries"`
	// CacheMoves is the most legal moves a cached position may have.
	CacheMoves int `toml:"cache_moves"`

	// Seed seeds the searcher's random numbers (noise, Gumbel samples,
	// playout caps, temperature, tie-breaks between equal moves).
	Seed uint64 `toml:"-"`

	// Solver turns on the MCTS-solver: every expanded node's children are
	// checked for a finished game (mate, stalemate, draw by rule), proven
	// wins, losses and draws are propagated up the tree, a proven win at
	// the root is played at once and a proven loss is never chosen while
	// another move is not proven lost (docs/search.md).
	Solver bool `toml:"solver"`
}

// DefaultConfig returns the default search parameters.
func DefaultConfig() Config {
	return Config{
		Sims:             800,
		CheapSims:        160,
		CheapShare:       0.75,
		CPUCTInit:        1.25,
		CPUCTBase:        19652,
		FPUReduction:     0.2,
		RootFPUReduction: 0,
		DirichletTotal:   10,
		NoiseFraction:    0.25,
		TempPlies:        30,
		Temp:             1,
		FinalTemp:        0,
		Gumbel:           false,
		GumbelM:          16,
		GumbelCVisit:     50,
		GumbelCScale:     1,
		LeavesPerGame:    1,
		VirtualLoss:      1,
		Reuse:            true,
		CacheEntries:     1 << 16,
		CacheMoves:       128,
		Seed:             1,
		Solver:           true,
	}
}

// Validate reports the first parameter outside its range, naming its key.
func (c Config) Validate() error {
	switch {
	case c.Sims < 1:
		return fmt.Errorf("sims %d, want >= 1", c.Sims)
	case c.CheapShare < 0 || c.CheapShare > 1:
		return fmt.Errorf("cheap_share %g, want in [0, 1]", c.CheapShare)
	case c.CheapShare > 0 && c.CheapSims < 1:
		return fmt.Errorf("cheap_sims %d, want >= 1 when cheap_share > 0", c.CheapSims)
	case c.CPUCTInit < 0 || c.CPUCTBase <= 0:
		return fmt.Errorf("cpuct_init %g, cpuct_base %g: want >= 0 and > 0", c.CPUCTInit, c.CPUCTBase)
	case c.FPUReduction < 0 || c.RootFPUReduction < 0:
		return fmt.Errorf("fpu_reduction %g, root_fpu_reduction %g: want >= 0", c.FPUReduction, c.RootFPUReduction)
	case c.NoiseFraction < 0 || c.NoiseFraction > 1:
		return fmt.Errorf("noise_fraction %g, want in [0, 1]", c.NoiseFraction)
	case c.NoiseFraction > 0 && c.DirichletTotal <= 0:
		return fmt.Errorf("dirichlet_total %g, want > 0 when noise_fraction > 0", c.DirichletTotal)
	case c.TempPlies < 0 || c.Temp < 0 || c.FinalTemp < 0:
		return fmt.Errorf("temp_plies %d, temp %g, final_temp %g: want >= 0", c.TempPlies, c.Temp, c.FinalTemp)
	case c.Gumbel && c.GumbelM < 1:
		return fmt.Errorf("gumbel_m %d, want >= 1", c.GumbelM)
	case c.Gumbel && (c.GumbelCVisit < 0 || c.GumbelCScale < 0):
		return fmt.Errorf("gumbel_c_visit %g, gumbel_c_scale %g: want >= 0", c.GumbelCVisit, c.GumbelCScale)
	case c.LeavesPerGame < 1:
		return fmt.Errorf("leaves_per_game %d, want >= 1", c.LeavesPerGame)
	case c.VirtualLoss < 0:
		return fmt.Errorf("virtual_loss %d, want >= 0", c.VirtualLoss)
	case c.CacheEntries < 0:
		return fmt.Errorf("cache_entries %d, want >= 0", c.CacheEntries)
	case c.CacheEntries > 0 && c.CacheMoves < 1:
		return fmt.Errorf("cache_moves %d, want >= 1 when the cache is on", c.CacheMoves)
	}
	return nil
}
