package web

import (
	"strings"
	"testing"
)

// TestAGameEndsByResignationFlagOrAgreementWithItsClockRecorded checks the
// game's end outside the rules: the state is over with the result, the
// record keeps it with the time control and clock times, no move follows
// it, and every bad field is refused by name.
func TestAGameEndsByResignationFlagOrAgreementWithItsClockRecorded(t *testing.T) {
	f := newFixture(t, Config{})
	var st State
	body := `{"variant":"fbgc","moves":["e2-e4","e9-e7"],"time_control":"60+2","clocks":[59000,58500],"end":{"result":"0-1","termination":"forfeit"}}`
	if code, msg := call(t, "POST", f.url+"/api/game", body, &st); code != 200 {
		t.Fatal(code, msg)
	}
	if !st.Over || st.Result != "0-1" || st.Termination != "forfeit" || len(st.Legal) != 0 {
		t.Fatalf("over %v %s %s with %d legal moves", st.Over, st.Result, st.Termination, len(st.Legal))
	}
	for _, want := range []string{`[Result "0-1"]`, `[Termination "forfeit"]`, `[TimeControl "60+2"]`, `[Clocks "59.0 58.5"]`} {
		if !strings.Contains(st.Record, want) {
			t.Errorf("record lacks %s:\n%s", want, st.Record)
		}
	}
	moved := `{"variant":"fbgc","moves":["e2-e4"],"end":{"result":"1-0","termination":"resignation"},"move":"e9-e7"}`
	if code, msg := call(t, "POST", f.url+"/api/move", moved, nil); code != 422 || !strings.Contains(msg, "resignation") {
		t.Errorf("a move after a resignation: %d %q", code, msg)
	}
	agent := `{"variant":"fbgc","end":{"result":"1/2-1/2","termination":"agreement"},"player":"random"}`
	if code, msg := call(t, "POST", f.url+"/api/agent", agent, nil); code != 422 || !strings.Contains(msg, "over") {
		t.Errorf("an agent's move after an agreed draw: %d %q", code, msg)
	}
	for body, field := range map[string]string{
		`{"variant":"fbgc","end":{"result":"2-0","termination":"resignation"}}`:                                                     "end.result",
		`{"variant":"fbgc","end":{"result":"1-0","termination":"boredom"}}`:                                                         "end.termination",
		`{"variant":"fbgc","end":{"result":"1/2-1/2","termination":"resignation"}}`:                                                 "end:",
		`{"variant":"fbgc","end":{"result":"1-0","termination":"agreement"}}`:                                                       "end:",
		`{"variant":"fbgc","time_control":"5"}`:                                                                                     "time_control",
		`{"variant":"fbgc","time_control":"0+1"}`:                                                                                   "time_control",
		`{"variant":"fbgc","time_control":"60+9999"}`:                                                                               "time_control",
		`{"variant":"fbgc","moves":["e2-e4"],"clocks":[1,2]}`:                                                                       "clocks:",
		`{"variant":"fbgc","moves":["e2-e4"],"clocks":[-1]}`:                                                                        "clocks[0]",
		`{"variant":"fbgc","start":"k9/1Q8/2K7/10/10/10/10/10/10/10 b - - 0 1","end":{"result":"1-0","termination":"resignation"}}`: "end:",
	} {
		code, msg := call(t, "POST", f.url+"/api/game", body, nil)
		if code/100 != 4 || !strings.HasPrefix(msg, field) {
			t.Errorf("%s: %d %q, want a 4xx naming %s", body, code, msg, field)
		}
	}
}
