package sessions

import (
	"strconv"
	"testing"
)

func TestRecallProblems_Line(t *testing.T) {
	tests := []struct {
		p    RecallProblems
		want string
	}{
		{RecallProblems{Sessions: 3, Steps: 40}, ""},
		{RecallProblems{NoFolder: "/a b/sessions"}, `no sessions folder at "/a b/sessions": no recalls to read`},
		{RecallProblems{Sessions: 1, Steps: 1, UnparsableSteps: 1}, "1 unparsable step skipped (of 1 step in 1 session)"},
		{RecallProblems{Sessions: 2, Steps: 4, BadMeta: 1}, "1 session meta that is not JSON skipped (of 4 steps in 2 sessions)"},
		{RecallProblems{Sessions: 2, Steps: 1200, UnreadableSteps: 2, BadArguments: 1, UnknownAgents: 2, UnparsableResults: 3, MissingResults: 1},
			"2 unreadable steps skipped, 1 recall with malformed arguments skipped, 2 sessions of unknown agents, " +
				"3 results that cannot be read as names, 1 recall without a result (of 1,200 steps in 2 sessions)"},
	}
	for _, tt := range tests {
		if got := tt.p.Line(strconv.Quote); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.p, got, tt.want)
		}
	}
}
