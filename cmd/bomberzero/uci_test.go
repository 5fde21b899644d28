package main

import (
	"strings"
	"testing"

	"bomberzero/frontend/session"
)

func TestEngineHelpListsEveryOptionFromTheSessionsTable(t *testing.T) {
	for _, c := range []struct {
		uci     bool
		variant string // how the variant option is named
	}{
		{true, "UCI_Variant"},
		{false, "variant (a command of its own)"},
	} {
		help := engineOptions("SET", c.uci)
		for _, o := range session.Options() {
			name := o.Name
			if o.Name == "Variant" {
				name = c.variant
			}
			if !strings.Contains(help, "\n  "+name+"  ") || !strings.Contains(help, o.Help) || !strings.Contains(help, "default "+o.Default) {
				t.Errorf("uci %v: the help lacks %s, its default or its help:\n%s", c.uci, name, help)
			}
		}
		if !strings.Contains(help, "Playouts  spin, default 400, 1 to 1048576:") {
			t.Errorf("uci %v: no Playouts range up to the search's limit:\n%s", c.uci, help)
		}
	}
}
