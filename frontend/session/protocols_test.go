package session_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bomberzero/frontend/session"
	"bomberzero/frontend/session/sessiontest"
	"bomberzero/frontend/uci"
	"bomberzero/frontend/xboard"
)

// TestBothProtocolsListTheSameOptions reads the options each protocol
// offers, UCI's "option" lines and XBoard's "feature option" lines and
// variants, and checks both against the one table: every option, by the
// protocol's name, with the table's default and range.
func TestBothProtocolsListTheSameOptions(t *testing.T) {
	want := map[string]string{} // option name: "default min max" or the choices
	for _, o := range session.Options() {
		switch o.Kind {
		case session.Spin:
			want[o.Name] = strings.Join([]string{o.Default, strconv.Itoa(o.Min), strconv.Itoa(o.Max)}, " ")
		case session.Combo:
			want[o.Name] = o.Default + ": " + sortedList(o.Choices) // each protocol lists them in its own order
		default:
			want[o.Name] = o.Default
		}
	}

	u := sessiontest.Start(t, uci.Run)
	u.Send("uci")
	u.Until("uciok")
	u.Send("quit")
	gotUCI := options(t, u.Seen, "option ",
		regexp.MustCompile(`^option name (\S+) type spin default (\S+) min (\S+) max (\S+)$`),
		regexp.MustCompile(`^option name (\S+) type string default (\S+)$`),
		regexp.MustCompile(`^option name UCI_(Variant) type combo default (\S+)((?: var \S+)+)$`))
	if v, ok := gotUCI["Variant"]; ok {
		d, vars, _ := strings.Cut(v, " ")
		gotUCI["Variant"] = d + ": " + sortedList(strings.Fields(strings.ReplaceAll(vars, "var ", "")))
	}

	x := sessiontest.Start(t, xboard.Run)
	x.Send("xboard")
	x.Send("protover 2")
	x.Until("feature done=1")
	x.Send("quit")
	gotXB := options(t, x.Seen, "feature option",
		regexp.MustCompile(`^feature option="(\S+) -spin (\S+) (\S+) (\S+)"$`),
		regexp.MustCompile(`^feature option="(\S+) -string (\S+)"$`))
	for _, l := range x.Seen {
		// XBoard's variants: orthodox chess, the default, is "normal".
		if m := regexp.MustCompile(`variants="([^"]*)"`).FindStringSubmatch(l); m != nil {
			names := strings.Split(m[1], ",")
			if names[0] != "normal" {
				t.Errorf("XBoard's variants %q do not start with normal", names)
			}
			names[0] = "chess"
			gotXB["Variant"] = "chess: " + sortedList(names)
		}
	}

	// XBoard sets Hash and Threads by commands of their own, offered by the
	// features memory and smp: their range is the session's own check.
	features := strings.Join(x.Seen, "\n")
	for _, o := range session.Options() {
		if f := map[string]string{"memory": "memory=1", "cores": "smp=1"}[o.XBoardCommand]; f != "" && strings.Contains(features, " "+f+" ") {
			gotXB[o.Name] = want[o.Name]
		}
	}
	for name, w := range want {
		if gotUCI[name] != w {
			t.Errorf("UCI lists %s as %q, want %q", name, gotUCI[name], w)
		}
		if gotXB[name] != w {
			t.Errorf("XBoard lists %s as %q, want %q", name, gotXB[name], w)
		}
	}
	if len(gotUCI) != len(want) || len(gotXB) != len(want) {
		t.Errorf("UCI lists %d options, XBoard %d, the table %d:\n%v\n%v", len(gotUCI), len(gotXB), len(want), gotUCI, gotXB)
	}
}

// options reads the option lines among lines, those starting with prefix:
// each form's first group is the option's name and the others its
// default and range; a line no form reads fails the test.
func options(t *testing.T, lines []string, prefix string, forms ...*regexp.Regexp) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, l := range lines {
		if !strings.HasPrefix(l, prefix) {
			continue
		}
		read := false
		for _, f := range forms {
			if m := f.FindStringSubmatch(l); m != nil {
				got[m[1]], read = strings.Join(m[2:], " "), true
				break
			}
		}
		if !read {
			t.Errorf("option line %q not read", l)
		}
	}
	return got
}

// sortedList is names sorted and joined by commas.
func sortedList(names []string) string {
	return strings.Join(slices.Sorted(slices.Values(names)), ",")
}
