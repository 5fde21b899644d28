package main

import (
	"strings"
	"testing"

	"bomberzero/frontend/session"
)

func TestEngineHelpListsEveryOptionFromTheSessionsTable(t *testing.T) {
	// The variant is UCI's UCI_Variant and XBoard's command "variant".
	variant := map[bool]string{true: "UCI_Variant", false: "variant (a command of its own)"}
	for _, uci := range []bool{true, false} {
		help := engineOptions("SET", uci)
		for _, o := range session.Options() {
			name := o.Name
			if o.Name == "Variant" {
				name = variant[uci]
			} else if !uci && o.XBoardCommand != "" {
				name = o.XBoardCommand + " (a command of its own)" // memory, cores
			}
			if !strings.Contains(help, "\n  "+name+"  ") || !strings.Contains(help, o.Help) || !strings.Contains(help, "default "+o.Default) {
				t.Errorf("uci %v: the help lacks %s, its default or its help:\n%s", uci, name, help)
			}
		}
		if !strings.Contains(help, "Playouts  spin, default 400, 1 to 1048576:") {
			t.Errorf("uci %v: no Playouts range up to the search's limit:\n%s", uci, help)
		}
	}
}
