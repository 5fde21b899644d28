package session

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/mcts"
	"bomberzero/setup"
)

// MaxPlayouts bounds the playouts of one search, a time-limited or
// infinite one included: the search's own limit (mcts.MaxSims).
const MaxPlayouts = mcts.MaxSims

// EngineModel is the value of the option Model that searches with the
// alpha-beta engine of package engine (its classical evaluation) instead
// of a model and playouts.
const EngineModel = frontend.EngineModel

// MaxHashMB bounds the option Hash: a table of a few gigabytes is as much
// as one engine on one machine of this project uses well, well below the
// engine's own bound (engine.MaxHashMB).
const MaxHashMB = 4096

// DefaultHashMB is the option Hash's default.
const DefaultHashMB = engine.DefaultHashMB

// Kind is an option's type, as the engine protocols name their types.
type Kind int

// The kinds of option.
const (
	// Spin is a whole number in a range (Option.Min to Option.Max).
	Spin Kind = iota + 1
	// String is any text its option's own check accepts.
	String
	// Combo is one of a list (Option.Choices).
	Combo
)

// Option is one engine option, declared once (as lc0's options parser
// declares them): its name, type, default, range and help. Both protocols
// list the options from this one table and set them through
// Session.Set, which refuses a value outside the range with an error that
// names the option.
type Option struct {
	// Name is the option's name; Session.Set reads it in any letter case.
	Name string
	// UCI is the name UCI lists the option under when it is not Name (UCI
	// reserves UCI_Variant for the variant).
	UCI string
	// XBoardCommand is the XBoard command that sets the option when it is
	// not "option" (the variant is chosen by "variant", its choices listed
	// in the feature "variants").
	XBoardCommand string
	Kind          Kind
	// Default is the value a new session starts with.
	Default string
	// Min and Max bound a Spin option.
	Min, Max int
	// Choices are a Combo option's values.
	Choices []string
	// Help says what the option does, for people.
	Help string

	check func(value string) error             // what a String option accepts
	set   func(s *Session, value string) error // applies a checked value
}

// Options returns the engine options in the order the protocols list
// them. The table is built anew on each call (the variant's choices are
// read from env), so callers may keep or change their copy.
func Options() []Option {
	return []Option{
		{
			Name: "Variant", UCI: "UCI_Variant", XBoardCommand: "variant", Kind: Combo,
			Default: "chess", Choices: env.VariantNames(),
			Help: "the variant played; a new choice starts from its start position",
			set:  (*Session).SetVariant,
		},
		{
			Name: "Model", Kind: String, Default: "engine",
			Help:  "what searches: engine (the alpha-beta engine), or a model and playouts: none, material, uniform, rollout or a checkpoint path, with an optional :SIMS",
			check: checkModel,
			set:   func(s *Session, v string) error { s.model = v; return nil },
		},
		{
			Name: "Playouts", Kind: Spin, Default: strconv.Itoa(setup.DefaultSims), Min: 1, Max: MaxPlayouts,
			Help: "the playouts of a search with no time limit",
			set: func(s *Session, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil {
					return err
				}
				s.sims = n
				return nil
			},
		},
		{
			Name: "Hash", XBoardCommand: "memory", Kind: Spin, Default: strconv.Itoa(DefaultHashMB), Min: 1, Max: MaxHashMB,
			Help: "the alpha-beta engine's transposition table in megabytes; a new size starts an empty table",
			set:  func(s *Session, v string) error { return s.setEngineOption(&s.hashMB, v) },
		},
		{
			Name: "Threads", XBoardCommand: "cores", Kind: Spin, Default: "1", Min: 1, Max: engine.MaxThreads,
			Help: "the alpha-beta engine's search threads (Lazy SMP)",
			set:  func(s *Session, v string) error { return s.setEngineOption(&s.threads, v) },
		},
		{
			Name: "EvalFile", Kind: String, Default: "classical",
			Help: "the alpha-beta engine's evaluation: classical, or the path of a learned net (bomberzero nnue) for the variant played",
			set:  (*Session).setEvalFile,
		},
		{
			Name: "MultiPV", Kind: Spin, Default: "1", Min: 1, Max: engine.MaxMultiPV,
			Help: "the alpha-beta engine's best lines reported, each with its score; more lines cost more time",
			set:  func(s *Session, v string) error { return s.setEngineOption(&s.multiPV, v) },
		},
	}
}

// checkModel accepts a model spec agent.ParseSpec reads; whether the model
// loads is found when a search needs it.
func checkModel(v string) error {
	if v == EngineModel {
		return nil
	}
	if _, _, err := frontend.ParseModelSpec(v, 1); err != nil {
		// Check names the option and the value; the reason is enough here.
		return errors.New(strings.TrimPrefix(err.Error(), fmt.Sprintf("model %q: ", v)))
	}
	return nil
}

// Lookup returns the option called name in any letter case, by its Name or
// its UCI name.
func Lookup(name string) (Option, bool) {
	for _, o := range Options() {
		if strings.EqualFold(o.Name, name) || (o.UCI != "" && strings.EqualFold(o.UCI, name)) {
			return o, true
		}
	}
	return Option{}, false
}

// Range says in words what values o takes: "1 to 1048576", "one of
// chess, fbgc, ...", or "" for a String option, whose check is its own.
func (o Option) Range() string {
	switch o.Kind {
	case Spin:
		return fmt.Sprintf("%d to %d", o.Min, o.Max)
	case Combo:
		return "one of " + strings.Join(o.Choices, ", ")
	}
	return ""
}

// Check says whether value is in o's range; the error names the option,
// the value and what it wants.
func (o Option) Check(value string) error {
	in := true
	switch o.Kind {
	case Spin:
		n, err := strconv.Atoi(value)
		in = err == nil && n >= o.Min && n <= o.Max
	case Combo:
		in = slices.Contains(o.Choices, value)
	}
	if !in {
		return fmt.Errorf("%s %q: want %s", o.Name, value, o.Range())
	}
	if o.check != nil {
		if err := o.check(value); err != nil {
			return fmt.Errorf("%s %q: %w", o.Name, value, err)
		}
	}
	return nil
}

// Set gives the option called name (Lookup) the value, after checking it
// (Option.Check); on an error the session is left as it was. The error
// names the option as the caller did when that was its UCI name.
func (s *Session) Set(name, value string) error {
	o, ok := Lookup(name)
	if !ok {
		return fmt.Errorf("unknown option %q", name)
	}
	if o.UCI != "" && strings.EqualFold(name, o.UCI) {
		o.Name = o.UCI
	}
	if err := o.Check(value); err != nil {
		return err
	}
	if err := o.set(s, value); err != nil {
		return fmt.Errorf("%s %q: %w", o.Name, value, err)
	}
	return nil
}
