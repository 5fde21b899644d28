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
			want[o.Name] = o.Default + ": " + strings.Join(o.Choices, ",")
		default:
			want[o.Name] = o.Default
		}
	}

	u := sessiontest.Start(t, uci.Run)
	u.Send("uci")
	u.Until("uciok")
	gotUCI := map[string]string{}
	spin := regexp.MustCompile(`^option name (\S+) type spin default (\S+) min (\S+) max (\S+)$`)
	str := regexp.MustCompile(`^option name (\S+) type string default (\S+)$`)
	combo := regexp.MustCompile(`^option name (\S+) type combo default (\S+)((?: var \S+)+)$`)
	for _, l := range u.Seen {
		switch m := spin.FindStringSubmatch(l); {
		case m != nil:
			gotUCI[m[1]] = strings.Join(m[2:], " ")
		case str.MatchString(l):
			m = str.FindStringSubmatch(l)
			gotUCI[m[1]] = m[2]
		case combo.MatchString(l):
			m = combo.FindStringSubmatch(l)
			gotUCI[strings.TrimPrefix(m[1], "UCI_")] = m[2] + ": " + strings.Join(strings.Fields(strings.ReplaceAll(m[3], " var ", " ")), ",")
		case strings.HasPrefix(l, "option "):
			t.Errorf("UCI option line %q not read", l)
		}
	}
	u.Send("quit")

	x := sessiontest.Start(t, xboard.Run)
	x.Send("xboard")
	x.Send("protover 2")
	x.Until("feature done=1")
	gotXB := map[string]string{}
	xspin := regexp.MustCompile(`^feature option="(\S+) -spin (\S+) (\S+) (\S+)"$`)
	xstr := regexp.MustCompile(`^feature option="(\S+) -string (\S+)"$`)
	variants := regexp.MustCompile(`variants="([^"]*)"`)
	for _, l := range x.Seen {
		switch m := xspin.FindStringSubmatch(l); {
		case m != nil:
			gotXB[m[1]] = strings.Join(m[2:], " ")
		case xstr.MatchString(l):
			m = xstr.FindStringSubmatch(l)
			gotXB[m[1]] = m[2]
		case variants.MatchString(l):
			// XBoard's variants: orthodox chess, the default, is "normal".
			names := strings.Split(variants.FindStringSubmatch(l)[1], ",")
			if names[0] != "normal" {
				t.Errorf("XBoard's variants %q do not start with normal", names)
			}
			names[0] = "chess"
			slices.Sort(names)
			gotXB["Variant"] = "chess: " + strings.Join(names, ",")
		case strings.HasPrefix(l, "feature option"):
			t.Errorf("XBoard option line %q not read", l)
		}
	}
	x.Send("quit")

	// The variants' order is the protocols' own; compare them sorted.
	o, _ := session.Lookup("Variant")
	sorted := slices.Sorted(slices.Values(o.Choices))
	want["Variant"] = o.Default + ": " + strings.Join(sorted, ",")
	if v := gotUCI["Variant"]; v != "" {
		d, list, _ := strings.Cut(v, ": ")
		names := strings.Split(list, ",")
		slices.Sort(names)
		gotUCI["Variant"] = d + ": " + strings.Join(names, ",")
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
