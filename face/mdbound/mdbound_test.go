package mdbound

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	l := Limits{Depth: 4, Nodes: 50, Bytes: 2000, Work: 10_000}
	for _, c := range []struct{ md, reason string }{
		{"# title\n\n- a\n  - b\n", "blocks nest 5 deep (limit 4)"}, // list, item, text per level
		{"# title\n\n- a\n- b\n", ""},
		{"> a", ""},
		{"> > > > > a", "quotes nest 5 deep (limit 4)"},
		{"- a\n  - b\n    - c\n", "blocks nest 7 deep (limit 4)"},
		{strings.Repeat("a ", 1001), "2.0K of text (limit 2.0K)"},
		{strings.Repeat("a\n\n", 60), "over 50 parts (limit 50)"},
		{"> " + strings.Repeat("a", 1800), "1.8K in 2 blocks, quotes 1 and lists 0 deep: too much to render"},
		{strings.Repeat("[", 10_001), "10,001 brackets (limit 10,000)"},
		{strings.Repeat("- "+strings.Repeat("a", 98)+"\n", 6), "606B in 13 blocks, quotes 0 and lists 1 deep: too much to render"},
		{strings.Repeat("aa\n\n", 20), "80B in 20 blocks, quotes 0 and lists 0 deep: too much to render"},
	} {
		lim := l
		if strings.HasPrefix(c.md, "[") {
			lim.Bytes, lim.Work = 20_000, 1<<30
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
		r := Check(md, Default())
		if r.OK() && (r.Depth > Default().Depth || r.Work > Default().Work) {
			t.Errorf("passed %+v", r)
		}
	})
}
