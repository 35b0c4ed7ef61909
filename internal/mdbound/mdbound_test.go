package mdbound

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	l := Limits{Depth: 4, Nodes: 50, Bytes: 1000, Work: 400}
	for _, c := range []struct{ md, reason string }{
		{"# title\n\n- a\n  - b\n", "blocks nest 5 deep (limit 4)"}, // list, item, text per level
		{"# title\n\n- a\n- b\n", ""},
		{"> > > a", ""},
		{"> > > > > a", "quotes nest 5 deep (limit 4)"},
		{"- a\n  - b\n    - c\n", "blocks nest 7 deep (limit 4)"},
		{strings.Repeat("a ", 501), "1.0K of text (limit 1.0K)"},
		{strings.Repeat("a\n\n", 60), "over 50 parts (limit 50)"},
		{"> " + strings.Repeat("a", 150), "151B of text inside quotes as deep as 1"},
		{strings.Repeat("[", 10_001), "10,001 brackets (limit 10,000)"},
		{strings.Repeat("- "+strings.Repeat("a", 98)+"\n", 3), "303B of text in lists as deep as 1"},
	} {
		lim := l
		if strings.HasPrefix(c.md, "[") {
			lim.Bytes = 20_000
		}
		if got := Check(c.md, lim).Reason; got != c.reason {
			t.Errorf("%.20q: %q, want %q", c.md, got, c.reason)
		}
	}
}

// FuzzCheck: Check never fails on any input, and what it passes nests no
// deeper than the limit.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"> - > - x", "- a\n  - b", "[[]]", "*a _b*_", "1. 1. 1.", "| a |\n|---|\n| b |"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		r := Check(md, Default)
		if r.OK() && (r.Depth > Default.Depth || r.Work > Default.Work) {
			t.Errorf("passed %+v", r)
		}
	})
}
