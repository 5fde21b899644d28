package env

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"bomberzero/configs"
	"bomberzero/internal/readfile"

	"github.com/BurntSushi/toml"
)

// variantFile is the TOML layout of a variant file (docs/variants.md).
type variantFile struct {
	Name             string               `toml:"name"`
	Base             string               `toml:"base"`
	Description      string               `toml:"description"`
	Files            int                  `toml:"files"`
	Ranks            int                  `toml:"ranks"`
	FirstRank        int                  `toml:"first_rank"`
	Holes            []string             `toml:"holes"`
	HoleMode         string               `toml:"hole_mode"`
	Start            string               `toml:"start"`
	Pieces           map[string]pieceFile `toml:"pieces"`
	Pawns            pawnFile             `toml:"pawns"`
	Castling         [][]string           `toml:"castling"`
	Scepter          []string             `toml:"scepter"`
	Drops            *dropFile            `toml:"drops"`
	LandingPromotion *landingFile         `toml:"landing_promotion"`
}

type pieceFile struct {
	Name  string     `toml:"name"`
	Royal bool       `toml:"royal"`
	Pawn  string     `toml:"pawn"`
	Moves []moveFile `toml:"moves"`
}

type moveFile struct {
	Kind    string   `toml:"kind"`
	Dirs    string   `toml:"dirs"`
	Offsets [][2]int `toml:"offsets"`
	Mode    string   `toml:"mode"`
	Landing string   `toml:"landing"`
}

type pawnFile struct {
	PromotionRank  int    `toml:"promotion_rank"`
	PromoteTo      string `toml:"promote_to"`
	MiddleRank     int    `toml:"middle_rank"`
	DoubleStepRank int    `toml:"double_step_rank"`
}

type dropFile struct {
	Piece    string `toml:"piece"`
	Rank     int    `toml:"rank"`
	Push     int    `toml:"push"`
	Notation string `toml:"notation"`
}

type landingFile struct {
	Pieces  string   `toml:"pieces"`
	Squares []string `toml:"squares"`
	To      string   `toml:"to"`
}

// source is one variant or option file's text and where it came from.
type source struct {
	where string
	text  string
	dir   string // the folder of a variant file, against which its base path is resolved ("": the current one)
}

// maxVariantBytes bounds a variant file: far above any real one.
const maxVariantBytes = 1 << 20

// VariantNames lists the built-in variants, sorted.
func VariantNames() []string {
	var names []string
	entries, _ := fs.ReadDir(configs.Variants(), ".")
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// OptionNames lists the built-in options that may follow a variant name with "+".
func OptionNames() []string {
	var names []string
	entries, _ := fs.ReadDir(configs.Variants(), "options")
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// LoadVariant loads a built-in variant by name, with options appended by "+"
// ("birds-ninjas+scepter+insane-knight"), or a variant file by path (any
// name containing "/" or ending in ".toml"; options may follow it too).
func LoadVariant(spec string) (*Variant, error) {
	base, opts := spec, []string(nil)
	if i := strings.Index(spec, ".toml+"); i >= 0 {
		base, opts = spec[:i+5], strings.Split(spec[i+6:], "+")
	} else if !strings.Contains(spec, "/") && !strings.HasSuffix(spec, ".toml") {
		parts := strings.Split(spec, "+")
		base, opts = parts[0], parts[1:]
	}
	src, err := readVariant(base)
	if err != nil {
		return nil, err
	}
	return build(spec, src, opts)
}

// ParseVariant reads a variant from the text of a variant file (named where
// in errors); a "base" it names is a built-in variant.
func ParseVariant(where, text string) (*Variant, error) {
	return build(where, source{where: where, text: text}, nil)
}

// build loads src with its bases, lays the options over it and compiles it.
func build(spec string, root source, opts []string) (*Variant, error) {
	m, srcs, err := loadTree(root, 0)
	if err != nil {
		return nil, err
	}
	for _, o := range opts {
		src, err := readOption(o)
		if err != nil {
			return nil, err
		}
		om, err := decodeStrict(src)
		if err != nil {
			return nil, err
		}
		merge(m, om)
		srcs = append(srcs, src)
	}
	var f variantFile
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(m); err != nil {
		return nil, fmt.Errorf("variant %s: %w", spec, err)
	}
	if _, err := toml.Decode(buf.String(), &f); err != nil {
		return nil, fmt.Errorf("variant %s: %w", spec, err)
	}
	v, err := compile(spec, &f)
	if err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("variant %s: %s: %w", spec, locate(srcs, fe.field), err)
		}
		return nil, fmt.Errorf("variant %s: %w", spec, err)
	}
	return v, nil
}

// loadTree reads a variant file and, recursively, the variant its "base" names.
func loadTree(src source, depth int) (map[string]any, []source, error) {
	if depth > 8 {
		return nil, nil, fmt.Errorf("%s: base chain deeper than 8 files (a cycle?)", src.where)
	}
	m, err := decodeStrict(src)
	if err != nil {
		return nil, nil, err
	}
	b, ok := m["base"].(string)
	if !ok {
		return m, []source{src}, nil
	}
	delete(m, "base")
	var baseMap map[string]any
	var srcs []source
	parts := strings.Split(b, "+")
	name := parts[0]
	if isPath(name) && !filepath.IsAbs(name) && src.dir != "" {
		name = filepath.Join(src.dir, name) // relative to the file that names it
	}
	bsrc, err := readVariant(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: base %q: %w", src.where, b, err)
	}
	if baseMap, srcs, err = loadTree(bsrc, depth+1); err != nil {
		return nil, nil, fmt.Errorf("%s: base %q: %w", src.where, b, err)
	}
	for _, o := range parts[1:] {
		osrc, err := readOption(o)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: base %q: %w", src.where, b, err)
		}
		om, err := decodeStrict(osrc)
		if err != nil {
			return nil, nil, err
		}
		merge(baseMap, om)
		srcs = append(srcs, osrc)
	}
	merge(baseMap, m)
	return baseMap, append(srcs, src), nil
}

// isPath reports whether a variant name is a file path rather than a
// built-in variant's name.
func isPath(name string) bool { return strings.Contains(name, "/") || strings.HasSuffix(name, ".toml") }

func readVariant(name string) (source, error) {
	if isPath(name) {
		b, err := readfile.Regular(name, maxVariantBytes)
		if err != nil {
			return source{}, fmt.Errorf("variant file: %w", err)
		}
		return source{filepath.Base(name), string(b), filepath.Dir(name)}, nil
	}
	b, err := fs.ReadFile(configs.Variants(), name+".toml")
	if err != nil {
		return source{}, fmt.Errorf("unknown variant %q: expected one of %s, or a path to a .toml file",
			name, strings.Join(VariantNames(), ", "))
	}
	return source{where: name + ".toml", text: string(b)}, nil
}

func readOption(name string) (source, error) {
	b, err := fs.ReadFile(configs.Variants(), "options/"+name+".toml")
	if err != nil || name == "" {
		return source{}, fmt.Errorf("unknown option %q: expected one of %s", name, strings.Join(OptionNames(), ", "))
	}
	return source{where: "options/" + name + ".toml", text: string(b)}, nil
}

// decodeStrict parses one file, rejecting keys the format does not know.
func decodeStrict(src source) (map[string]any, error) {
	var f variantFile
	md, err := toml.Decode(src.text, &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s line %d: %s", src.where, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", src.where, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return nil, fmt.Errorf("%s line %d: unknown key %q: expected one of the keys in docs/variants.md",
			src.where, findLine(src.text, k[len(k)-1]), k.String())
	}
	var m map[string]any
	if _, err := toml.Decode(src.text, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", src.where, err)
	}
	return m, nil
}

// merge lays over on top of base: tables merge key by key, everything else is replaced.
func merge(base, over map[string]any) {
	for k, ov := range over {
		if om, ok := ov.(map[string]any); ok {
			if bm, ok := base[k].(map[string]any); ok {
				merge(bm, om)
				continue
			}
		}
		base[k] = ov
	}
}

// findLine returns the first line of text that defines key, or 0.
func findLine(text, key string) int {
	for i, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, key+" ") || strings.HasPrefix(t, key+"=") ||
			strings.Contains(t, "."+key+"]") || strings.Contains(t, "["+key+"]") || strings.Contains(t, "{ "+key+" ") ||
			strings.Contains(t, ", "+key+" ") {
			return i + 1
		}
	}
	return 0
}

// locate names the file and line that define a field such as "pieces.F.moves[1].dirs".
func locate(srcs []source, field string) string {
	parts := strings.FieldsFunc(field, func(r rune) bool { return r == '.' || r == '[' || r == '/' })
	for i := len(srcs) - 1; i >= 0; i-- {
		for j := len(parts) - 1; j >= 0; j-- {
			p := strings.TrimRight(parts[j], "]0123456789")
			if p == "" {
				continue
			}
			if l := findLine(srcs[i].text, p); l > 0 {
				return fmt.Sprintf("%s line %d", srcs[i].where, l)
			}
		}
	}
	return srcs[len(srcs)-1].where
}
