package mcts

import "iter"

// A search tree's nodes live in an arena of fixed-size blocks, allocated
// as the tree grows and never copied or moved, so that a growing tree's
// memory is the blocks it holds and nothing more: no doubled slice and no
// old copy left for the collector (issue 34: a tree grown by append peaked
// at 1.6x its cap under "go infinite"). A node is named by its index,
// block<<blockShift + offset.
const (
	blockShift = 12
	// BlockNodes is the number of nodes in one block of a search tree's
	// arena; a tree's node budget (Config.NodeBudget) counts whole blocks.
	BlockNodes = 1 << blockShift
	blockMask  = BlockNodes - 1
)

// stateSkip marks the first node of a block's unused tail: the arena went
// on to the next block because a group of children did not fit the rest.
// Only arena.all reads it.
const stateSkip uint8 = 0xff

// arena holds nodes in blocks. A node's children are one group of
// contiguous indices inside one block; a group too large for one block
// gets a run of blocks in one allocation, which the table names block by
// block (blocks[j+1] then aliases blocks[j][BlockNodes:]), so indexing stays
// the same. Blocks are kept across reset and reused.
type arena struct {
	blocks [][]node // blocks[j] holds the nodes from j<<blockShift on; len >= BlockNodes
	next   int32    // index of the next free node: the nodes in use plus skipped tails
}

// at returns node i, which must have been allocated.
func (a *arena) at(i int32) *node { return &a.blocks[i>>blockShift][i&blockMask] }

// group returns the n nodes from index first on, one allocation's group.
func (a *arena) group(first, n int32) []node {
	o := first & blockMask
	return a.blocks[first>>blockShift][o : o+n : o+n]
}

// reset empties the arena, keeping its blocks.
func (a *arena) reset() { a.next = 0 }

// span is the index space the arena uses, skipped block tails included:
// its blocks number at most ceil(span / BlockNodes).
func (a *arena) span() int { return int(a.next) }

// alloc reserves n >= 1 contiguous nodes and returns the first's index;
// their contents are stale until written. A group that does not fit the
// rest of the current block starts the next one.
func (a *arena) alloc(n int) int32 {
	blk, off := int(a.next>>blockShift), int(a.next&blockMask)
	if off > 0 && off+n > len(a.blocks[blk]) {
		// Mark the tail this group skips, for all; the tail runs to the
		// end of blocks[blk] (a run of several blocks, for a group alias).
		a.blocks[blk][off].state = stateSkip
		blk, off = blk+len(a.blocks[blk])>>blockShift, 0
	}
	if off == 0 && (blk == len(a.blocks) || len(a.blocks[blk]) < n) {
		a.grow(blk, n)
	}
	first := int32(blk<<blockShift + off)
	a.next = first + int32(n)
	return first
}

// grow gives the arena a new block at table entry blk (the next one, or
// one too short for a group of n, which is replaced), or a run of blocks
// in one allocation when n needs more than one.
func (a *arena) grow(blk, n int) {
	k := (n + blockMask) >> blockShift
	run := make([]node, k<<blockShift)
	// An earlier run that reached into the entries replaced ends before
	// them now, so that no group is placed across old and new memory.
	for i := blk - 1; i >= 0 && len(a.blocks[i]) > (blk-i)<<blockShift; i-- {
		a.blocks[i] = a.blocks[i][:(blk-i)<<blockShift]
	}
	for j := 0; j < k; j++ {
		if blk+j == len(a.blocks) {
			a.blocks = append(a.blocks, nil)
		}
		a.blocks[blk+j] = run[j<<blockShift:]
	}
}

// all yields the index of every allocated node in allocation order.
func (a *arena) all() iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for i := int32(0); i < a.next; {
			b := a.blocks[i>>blockShift]
			if o := i & blockMask; b[o].state == stateSkip {
				i = i - o + int32(len(b))
				continue
			}
			if !yield(i) {
				return
			}
			i++
		}
	}
}
