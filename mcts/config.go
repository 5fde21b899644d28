package mcts

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"bomberzero/internal/keys"
)

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
	// ForcedPlayouts is KataGo's k for forced playouts and policy target
	// pruning (Wu 2019, section 3.1) in a full PUCT search: a root child
	// with prior P gets at least sqrt(k*P*N) of the root's N child visits,
	// so that the noise's picks are looked at, and the training target then
	// takes those forced visits back from every child but the most visited
	// one as far as its PUCT score stays below that child's, and drops a
	// child left with one visit, so that the target does not learn the
	// forcing. 0 (the default) turns both off; KataGo uses 2.
	ForcedPlayouts float64 `toml:"forced_playouts"`

	// PolicyTemp is the policy softmax temperature (Leela Chess Zero's
	// PolicyTemperature): the search's priors are the network's
	// probabilities p raised to 1/PolicyTemp and renormalized, the same as
	// dividing the policy's logits by it, so that above 1 the search
	// spreads its playouts over more moves than a sharp policy names. 0
	// and 1 both leave the priors as the network gives them.
	PolicyTemp float64 `toml:"policy_temp"`

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

	// LeafMaterialMix is the weight of the material in the value of a
	// leaf: the search backs up (1-w)*v + w*tanh(q/LeafMaterialScale),
	// where v is the evaluator's value and q the leaf's material balance
	// once its captures are played out (a Quiescer game's Quiescence), as
	// AlphaGo mixed its value network with rollouts. 0 (the default) backs
	// up the evaluator's value alone.
	LeafMaterialMix float64 `toml:"leaf_material_mix"`
	// LeafMaterialScale is the material balance, in pawns, that the mix
	// reads as a value of tanh(1) = 0.76.
	LeafMaterialScale float64 `toml:"leaf_material_scale"`

	// TreeMemoryMB is the memory, in MiB, one game's search tree may use:
	// a tree stops growing at NodeBudget nodes and its search ends there,
	// with the best move of the visits so far (Result.TreeFull), so that a
	// long search (an engine's "go infinite") runs in bounded memory. A
	// self-play search of the default size uses a few MiB. 0 is
	// DefaultTreeMemoryMB.
	TreeMemoryMB int `toml:"tree_memory_mb"`
}

// NodeBytes is the memory a node of a search tree takes: the node and its
// copy in the arena that rerooting compacts into.
const NodeBytes = 2 * int(unsafe.Sizeof(node{}))

// maxTreeBlocks keeps a tree's node indices (int32) in range.
const maxTreeBlocks = math.MaxInt32>>blockShift - 1

// NodeBudget is the most nodes one search tree grows to under
// TreeMemoryMB. It counts whole blocks of BlockNodes nodes (at least one),
// as many as fit TreeMemoryMB with their copies for rerooting, and bounds
// the arena's index space, block tails that a group of children skipped
// included, so the tree's blocks never take more than TreeMemoryMB.
func (c Config) NodeBudget() int {
	mb := c.TreeMemoryMB
	if mb == 0 {
		mb = DefaultTreeMemoryMB
	}
	return min(maxTreeBlocks, max(1, mb<<20/(BlockNodes*NodeBytes))) * BlockNodes
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
		PolicyTemp:       1,
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

		LeafMaterialMix:   0,
		LeafMaterialScale: 3,
		TreeMemoryMB:      DefaultTreeMemoryMB,
	}
}

// Upper bounds of the search knobs: far above any useful setting, low
// enough that a typo cannot exhaust memory (a tree holds a node per legal
// move of each expanded position, so its size grows with Sims; the cache
// holds CacheEntries*CacheMoves priors). docs/training.md lists each key's
// range.
const (
	MaxSims         = 1 << 20
	MaxCacheEntries = 1 << 26
	MaxCacheMoves   = 4096
	MaxLeaves       = 256
	// MaxTreeMemoryMB is tree_memory_mb's bound: 1 TiB.
	MaxTreeMemoryMB = 1 << 20
)

// DefaultTreeMemoryMB is tree_memory_mb's default: 1 GiB, about ten
// million nodes, some hundred times a self-play search's tree.
const DefaultTreeMemoryMB = 1 << 10

// Validate reports the first parameter outside its range, naming its key
// ("sims = 0: want 1 to 1048576"). Every number must be finite.
func (c Config) Validate() error {
	checks := []error{
		keys.IntIn("sims", c.Sims, 1, MaxSims),
		keys.IntIn("cheap_sims", c.CheapSims, 0, MaxSims),
		keys.FloatIn("cheap_share", c.CheapShare, 0, 1),
		keys.FloatIn("cpuct_init", c.CPUCTInit, 0, 100),
		keys.FloatAbove("cpuct_base", c.CPUCTBase, 0, 1e9),
		keys.FloatIn("fpu_reduction", c.FPUReduction, 0, 10),
		keys.FloatIn("root_fpu_reduction", c.RootFPUReduction, 0, 10),
		keys.FloatIn("dirichlet_total", c.DirichletTotal, 0, 1000),
		keys.FloatIn("noise_fraction", c.NoiseFraction, 0, 1),
		keys.FloatIn("forced_playouts", c.ForcedPlayouts, 0, 100),
		keys.FloatIn("policy_temp", c.PolicyTemp, 0, 100),
		keys.IntIn("temp_plies", c.TempPlies, 0, 100000),
		keys.FloatIn("temp", c.Temp, 0, 100),
		keys.FloatIn("final_temp", c.FinalTemp, 0, 100),
		keys.IntIn("gumbel_m", c.GumbelM, 1, MaxCacheMoves),
		keys.FloatIn("gumbel_c_visit", c.GumbelCVisit, 0, 1e6),
		keys.FloatIn("gumbel_c_scale", c.GumbelCScale, 0, 1000),
		keys.IntIn("leaves_per_game", c.LeavesPerGame, 1, MaxLeaves),
		keys.IntIn("virtual_loss", c.VirtualLoss, 0, 1000),
		keys.IntIn("cache_entries", c.CacheEntries, 0, MaxCacheEntries),
		keys.IntIn("cache_moves", c.CacheMoves, 1, MaxCacheMoves),
		keys.FloatIn("leaf_material_mix", c.LeafMaterialMix, 0, 1),
		keys.FloatAbove("leaf_material_scale", c.LeafMaterialScale, 0, 1000),
		keys.IntIn("tree_memory_mb", c.TreeMemoryMB, 0, MaxTreeMemoryMB),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	switch {
	case c.CheapShare > 0 && c.CheapSims < 1:
		return &keys.KeyError{Key: "cheap_sims", Value: strconv.Itoa(c.CheapSims), Want: ">= 1 when cheap_share > 0"}
	case c.NoiseFraction > 0 && c.DirichletTotal <= 0:
		return &keys.KeyError{Key: "dirichlet_total", Value: fmt.Sprint(c.DirichletTotal), Want: "> 0 when noise_fraction > 0"}
	}
	return nil
}
