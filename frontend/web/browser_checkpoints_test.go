package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// pageOption is one option of a select of the page.
type pageOption struct {
	Value, Text, Title string
	Disabled           bool
}

// selectOptions reads the options of the page's select sel, by value.
func selectOptions(t *testing.T, ctx context.Context, sel string) map[string]pageOption {
	t.Helper()
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify([...document.querySelectorAll('`+sel+` option')].map((o) => ({value: o.value, text: o.textContent, title: o.title, disabled: o.disabled})))`, &js))
	var list []pageOption
	if err := json.Unmarshal([]byte(js), &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]pageOption{}
	for _, o := range list {
		out[o.Value] = o
	}
	return out
}

// TestBrowserOffersEachCheckpointOnlyForItsVariant: in fbgc the page offers
// the fbgc checkpoints of --models and of a run, each labelled with its
// variant, size and generation, as opponents and analysis models, not the
// chess checkpoint; a checkpoint cut short is listed unplayable with its
// reason; the run's net is offered as the engine's; a game against the
// checkpoint plays and its record names it as the command line does; in
// chess the chess checkpoint takes the fbgc ones' place and a game set
// against one of those falls back to the classical engine.
func TestBrowserOffersEachCheckpointOnlyForItsVariant(t *testing.T) {
	ctx := browser(t)
	f := checkpointFixture(t)
	run(t, ctx, chromedp.Navigate(f.url+"/#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	const fbgc, chess, gen = "models/fbgc.safetensors", "models/more/chess.safetensors", "runs/r1/checkpoints/gen-0002.safetensors"
	opp, models := selectOptions(t, ctx, "#opponent"), selectOptions(t, ctx, "#model")
	for _, c := range []struct {
		sel       string
		opts      map[string]pageOption
		value     string
		offered   bool
		text, bad string
	}{
		{"#opponent", opp, fbgc + ":200", true, "network models/fbgc.safetensors (fbgc, 2 blocks x 8 filters, step 0), 200 playouts", ""},
		{"#opponent", opp, gen + ":200", true, "network " + gen + " (fbgc, 2 blocks x 8 filters, generation 2, step 0), 200 playouts", ""},
		{"#opponent", opp, chess + ":200", false, "", ""},
		{"#opponent", opp, "models/cut.safetensors:200", true, "network models/cut.safetensors: damaged: cannot be played", "truncated: tensor"},
		{"#opponent", opp, "engine:eval=runs/r1/nets/gen-0003.nnue", true, "engine, net runs/r1/nets/gen-0003.nnue (learned, fbgc, 8x4, generation 3), by its clock", ""},
		{"#model", models, fbgc, true, "network models/fbgc.safetensors (fbgc, 2 blocks x 8 filters, step 0)", ""},
		{"#model", models, gen, true, "network " + gen + " (fbgc, 2 blocks x 8 filters, generation 2, step 0)", ""},
		{"#model", models, chess, false, "", ""},
		{"#model", models, "models/junk.safetensors", true, "network models/junk.safetensors: damaged: cannot be played", "truncated: 4 bytes"},
	} {
		o, ok := c.opts[c.value]
		if ok != c.offered || ok && (o.Text != c.text || o.Disabled != (c.bad != "") || !strings.Contains(o.Title, c.bad)) {
			t.Errorf("%s %q: offered %v as %+v; want offered %v, %q, unplayable saying %q", c.sel, c.value, ok, o, c.offered, c.text, c.bad)
		}
	}

	// A game against the fbgc checkpoint: it answers, and the record
	// names it by its spec.
	setPlay(t, ctx, fbgc+":200", "white", "0", "0")
	waitFor(t, ctx, "White to move", func() bool { s := readState(t, ctx); return !s.Busy && s.Side == "white" })
	run(t, ctx, chromedp.SendKeys(`#move-input`, "e2-e4\r", chromedp.ByQuery))
	waitFor(t, ctx, "the checkpoint's reply", func() bool { s := readState(t, ctx); return !s.Busy && len(s.Moves) == 2 })
	var record string
	run(t, ctx, chromedp.Evaluate(`G.state.record`, &record))
	if !strings.Contains(record, `[Black "`+fbgc+`:200"]`) {
		t.Errorf("the record does not name the checkpoint as the command line does:\n%s", record)
	}

	// In chess: the chess checkpoint, not the fbgc ones; the game set
	// against the fbgc checkpoint falls back to the classical engine.
	run(t, ctx, chromedp.Evaluate(`(() => { const v = document.getElementById('variant'); v.value = 'chess'; v.dispatchEvent(new Event('change')); return 1; })()`, nil))
	waitFor(t, ctx, "the chess board", func() bool {
		var v string
		run(t, ctx, chromedp.Evaluate(`G.info ? G.info.name : ''`, &v))
		return v == "chess"
	})
	opp, models = selectOptions(t, ctx, "#opponent"), selectOptions(t, ctx, "#model")
	_, fbgcOffered := opp[fbgc+":200"]
	_, genOffered := models[gen]
	chessOpp, chessModel := opp[chess+":200"], models[chess]
	var chosen string
	run(t, ctx, chromedp.Evaluate(`G.opponent + '|' + document.getElementById('opponent').value`, &chosen))
	if fbgcOffered || genOffered || chessOpp.Text != "network models/more/chess.safetensors (chess, 2 blocks x 8 filters, step 0), 200 playouts" ||
		chessModel.Value != chess || chessModel.Disabled || chosen != "engine|engine" {
		t.Errorf("in chess: the fbgc checkpoints offered %v %v, the chess one %+v %+v, the opponent %q; want none, the chess one, engine|engine",
			fbgcOffered, genOffered, chessOpp, chessModel, chosen)
	}
}
