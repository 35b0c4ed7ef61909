package statsview

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/store/stats"
)

// withHistory is sample() with a recall history: wide and unsafe names,
// problems, and never-recalled entries of known and unknown age.
func withHistory() stats.Stats {
	s := sample()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	day := func(d int) uint64 { return uint64(now.AddDate(0, 0, -d).Unix()) }
	s.Recalls = &stats.Recalls{
		Recalls: 1234, Sessions: 56, Recalled: 3, Never: 1251, At: now,
		Most: []stats.Recalled{
			{Name: "deploy-steps", Kind: store.Note, Then: 1200},
			{Name: "日本語の名前の長いメモのタイトル-👨‍👩‍👧‍👦", Kind: store.Archive, Then: 12},
			{Name: "evil\x1b[2Jname", Kind: store.Topic, Then: 1},
		},
		NeverOldest:  []stats.Recalled{{Name: "old-one", Kind: store.Note, CreatedAt: day(800), Bytes: 10}, {Name: "old-two", Kind: store.Archive, CreatedAt: day(400), Bytes: 2048}},
		NeverBiggest: []stats.Recalled{{Name: "huge", Kind: store.Note, Bytes: 1 << 20}},
		Problems:     sessions.RecallProblems{Sessions: 56, Steps: 900, UnparsableSteps: 2, BadArguments: 1},
	}
	return s
}

// TestRecalled_Section checks the recall section's lines in each state.
func TestRecalled_Section(t *testing.T) {
	none := func(p sessions.RecallProblems) stats.Stats {
		s := sample()
		s.Recalls = &stats.Recalls{Sessions: p.Sessions, Problems: p, Never: 3}
		return s
	}
	tests := []struct {
		name   string
		s      stats.Stats
		want   []string // lines of the section, each a whole line
		absent []string
	}{
		{name: "not read", s: sample(), absent: []string{"recall history", "most recalled", "never recalled"}},
		{
			name: "no folder", s: none(sessions.RecallProblems{NoFolder: "/tmp/x y/sessions"}),
			want:   []string{`recall history  none: no sessions folder at /tmp/x y/sessions`},
			absent: []string{"most recalled", "never recalled"},
		},
		{
			name: "no recall", s: none(sessions.RecallProblems{Sessions: 3, Steps: 10}),
			want:   []string{"recall history  none: no recall in 3 sessions"},
			absent: []string{"most recalled", "never recalled", "skipped"},
		},
		{
			name: "no recall, problems", s: none(sessions.RecallProblems{Sessions: 1, Steps: 4, BadArguments: 2}),
			want: []string{"recall history  none: no recall in 1 session; 2 recalls with malformed arguments skipped (of 4 steps",
				"  in 1 session)"},
		},
		{
			name: "history",
			s:    withHistory(),
			want: []string{
				"recall history  1,234 recorded recalls in 56 sessions · 3 of 1,254 entries recalled",
				"skipped: 2 unparsable steps skipped, 1 recall with malformed arguments skipped (of 900 steps in 56",
				"  sessions)",
				"most recalled  (times returned then, as recorded)",
				"1,200×  N deploy-steps",
				"   12×  A 日本語の名前の長いメモのタイトル-👨‍👩‍👧‍👦",
				"    1×  T evil⟨U+001B⟩[2Jname", // the escape shown, not hidden (issue 29 item 3)
				"never recalled  1,251 entries no recorded recall returned",
				"  oldest        2y   10B  N old-one",
				"                1y  2.0K  A old-two",
				"  biggest  undated  1.0M  N huge",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := Lines(tt.s, 100, Style{})
			out := "\n" + strings.Join(lines, "\n") + "\n"
			for _, w := range tt.want {
				if !strings.Contains(out, "\n"+w+"\n") {
					t.Errorf("no line %q in:%s", w, out)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(out, a) {
					t.Errorf("%q shown:%s", a, out)
				}
			}
			if strings.Contains(out, "\x1b") {
				t.Errorf("an escape sequence reaches the page:%q", out)
			}
		})
	}
}

// TestRecalled_FitsEveryWidth draws the page with a recall history at
// every width from 1 to 250.
func TestRecalled_FitsEveryWidth(t *testing.T) {
	s := withHistory()
	for w := 1; w <= 250; w++ {
		lines := Lines(s, w, Style{})
		for i, l := range lines {
			if got := ansi.StringWidth(l); got > w {
				t.Fatalf("width %d: line %d is %d cells: %q", w, i, got, l)
			}
		}
		if w >= 20 && !strings.Contains(strings.Join(lines, "\n"), "never recalled") {
			t.Fatalf("width %d: the never recalled title is lost", w)
		}
	}
}
