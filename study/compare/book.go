package compare

import (
	"fmt"

	"bomberzero/env"
	"bomberzero/match"
)

// DefaultBookPlies is the length of the shared book's openings.
const DefaultBookPlies = 4

// makeBook draws the shared opening book of c's variants (none when c.Book
// is 0) into c.openings.
func (c *Config) makeBook() error {
	if c.Book <= 0 {
		return nil
	}
	plies := c.BookPlies
	if plies == 0 {
		plies = DefaultBookPlies
	}
	vs := make([]*env.Variant, len(c.Variants))
	for i, name := range c.Variants {
		v, err := env.LoadVariant(name)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		vs[i] = v
	}
	book, err := match.RandomBook(vs, c.Book, plies, c.Seed)
	if err != nil {
		return fmt.Errorf("compare: --book: %w", err)
	}
	c.openings = book
	return nil
}

// bookFor returns the shared book's openings as positions of v (nil
// without a book).
func (c *Config) bookFor(v *env.Variant) ([]*env.Position, error) {
	if len(c.openings) == 0 {
		return nil, nil
	}
	return match.BookPositions(v, c.openings)
}
