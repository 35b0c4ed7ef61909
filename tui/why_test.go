package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/why"
	"github.com/crmem/crmem/tui/whypanel"
)

// sanitizeForTest is what the panel shows of a text from the memory.
func sanitizeForTest(s string) string { return sanitize.Name(s) }

// openWhy opens path with the why feature installed and searches query.
func openWhy(t *testing.T, path string, w, h int, query string) (*Model, *whyView) {
	t.Helper()
	m := openModel(t, path, w, h)
	f := newWhyView()
	m.why = f
	press(m, "/")
	typeText(m, query)
	press(m, "enter")
	return m, f
}

// askWhy presses the why key, replaces the proposed name with name ("":
// keeps the selected entry's) and accepts.
func askWhy(m *Model, name string) {
	press(m, "w")
	if name != "" {
		press(m, "ctrl+e", "ctrl+u")
		typeText(m, name)
	}
	press(m, "enter")
}

// TestWhy_PanelAgreesWithTheLibrary checks, in both formats, that the
// panel shows for the selected entry and for entries named in the prompt
// (one the recall does not return among them) what store/why says of them
// at the agent's limit, and that esc closes it.
func TestWhy_PanelAgreesWithTheLibrary(t *testing.T) {
	for _, tc := range []struct {
		path, query string
		names       []string
	}{
		{copyFixture(t, "crmem/small.db"), "postgres migration", []string{"", "archive-sess-0002-1767400000000000000", "alice-preferences", "deploy-step"}},
		{copyStore(t, "small.crmem"), "ro* deploy", []string{"", "deploy-steps", "stopwords-only", "relase-checklist"}},
	} {
		m, f := openWhy(t, tc.path, 120, 50, tc.query)
		for _, name := range tc.names {
			want := name
			if name == "" {
				want = selectedName(m)
			}
			askWhy(m, name)
			if !f.Open() {
				t.Fatalf("%q: no panel after asking about %q; overlay %q, status %q", tc.query, want, plainOverlay(m), statusText(m))
			}
			rep, err := why.Explain(m.c.db, tc.query, []string{want}, m.lim.recallLimit)
			if err != nil {
				t.Fatal(err)
			}
			e := rep.Entries[0]
			screen := plainScreen(m)
			for _, s := range []string{"WHY " + want, e.Detail, `recall of "` + tc.query + `"`, "limit 5"} {
				if !strings.Contains(squeeze(screen), squeeze(s)) {
					t.Errorf("%q, %s: the panel lacks %q:\n%s", tc.query, want, s, screen)
				}
			}
			if f.rep().Entries[0].Rank != e.Rank || f.rep().Entries[0].Score != e.Score {
				t.Errorf("%s: panel #%d %v, library #%d %v", want, f.rep().Entries[0].Rank, f.rep().Entries[0].Score, e.Rank, e.Score)
			}
			press(m, "esc")
			if f.Open() || strings.Contains(plainScreen(m), "WHY ") {
				t.Fatalf("esc did not close the panel:\n%s", plainScreen(m))
			}
		}
	}
}

// TestWhy_NeedsASearch checks that the why key without a query says what
// to do and opens nothing.
func TestWhy_NeedsASearch(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 100, 30)
	f := newWhyView()
	m.why = f
	press(m, "w")
	if f.prompt != nil || !strings.Contains(statusText(m), "search first") {
		t.Errorf("w without a search: prompt %v, status %q", f.prompt != nil, statusText(m))
	}
}

// TestWhy_Completion checks the prompt's name completion: to the common
// start, then through the candidates in turn.
func TestWhy_Completion(t *testing.T) {
	entries := []store.Entry{{Name: "deploy-steps"}, {Name: "deploy-notes"}, {Name: "db-migrations"}, {Name: "σοφία"}, {Name: "σοφός"}}
	tests := []struct {
		typed string
		want  []string // the text after each press
		cands int
	}{
		{"dep", []string{"deploy-", "deploy-notes", "deploy-steps", "deploy-notes"}, 2},
		{"db", []string{"db-migrations", "db-migrations"}, 1},
		{"x", []string{"x", "x"}, 0},
		{"σ", []string{"σοφ", "σοφία", "σοφός"}, 2},
		{"", []string{"db-migrations", "deploy-notes", "deploy-steps"}, 5},
	}
	for _, tt := range tests {
		var c nameCompletion
		v := tt.typed
		for i, want := range tt.want {
			var cands []string
			v, cands = c.next(v, entries)
			if v != want || len(cands) != tt.cands {
				t.Errorf("%q, press %d: %q with %d candidates, want %q with %d", tt.typed, i+1, v, len(cands), want, tt.cands)
				break
			}
		}
	}
}

// TestWhy_TabCompletesInThePrompt checks completion through the key.
func TestWhy_TabCompletesInThePrompt(t *testing.T) {
	m, f := openWhy(t, copyFixture(t, "crmem/small.db"), 100, 30, "postgres")
	press(m, "w", "ctrl+e", "ctrl+u")
	typeText(m, "alice-p")
	press(m, "tab")
	if f.prompt == nil || f.prompt.In.Value() != "alice-preferences" {
		t.Fatalf("tab after alice-p: %q", plainOverlay(m))
	}
	press(m, "enter")
	if !f.Open() || f.rep().Entries[0].Reason != why.NoSharedTerm {
		t.Fatalf("alice-preferences: %+v", f.rep())
	}
}

// TestWhy_FitsEveryWidth checks that every line of the panel fits the
// screen at any width with nothing of the reason lost (sentences wrap),
// and that a name's control characters never reach the terminal.
func TestWhy_FitsEveryWidth(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	evil := "evil\x1b]52;c;aGk=\x07-名前-" + strings.Repeat("長い", 20)
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: evil, Content: "postgres tuning and a very long sentence that needs wrapping"},
		{ID: 2, Name: "other", Content: "postgres postgres replica", Aliases: []string{"σοφία"}},
	})
	const query = "postgres the e-mail"
	for _, w := range []int{20, 33, 40, 59, 80, 119, 160} {
		m, f := openWhy(t, path, w, 40, query)
		drive(m, m.whyExplain(query, evil))
		if !f.Open() || f.rep().Entries[0].Rank != 2 {
			t.Fatalf("width %d: no panel, or not for the entry: %+v", w, f.Open())
		}
		screen := m.screen()
		if strings.Contains(screen, "\x1b]52") || strings.Contains(screen, "\x07") {
			t.Fatalf("width %d: the name's escape sequence reached the screen: %q", w, screen)
		}
		lines := whypanel.Lines(m.ctx(), f.rep(), w)
		for i, l := range lines {
			if lw := ansi.StringWidth(l); lw > w {
				t.Errorf("width %d: line %d is %d cells: %q", w, i, lw, ansi.Strip(l))
			}
		}
		text := squeeze(ansi.Strip(strings.Join(lines[1:], "")))
		for _, want := range []string{f.rep().Entries[0].Detail, `"e-mail" → mail (dropped: "e" too short)`, "lacks"} {
			if !strings.Contains(text, squeeze(sanitizeForTest(want))) {
				t.Errorf("width %d: the panel lost %q:\n%s", w, want, strings.Join(lines, "\n"))
			}
		}
		if !strings.Contains(ansi.Strip(lines[0]), "WHY evil") {
			t.Errorf("width %d: title %q", w, ansi.Strip(lines[0]))
		}
	}
}

// TestWhy_Scrolls checks that the panel scrolls with the movement keys,
// keeps its title, and stops at its last line.
func TestWhy_Scrolls(t *testing.T) {
	m, f := openWhy(t, copyFixture(t, "crmem/small.db"), 40, 16, "postgres migration the")
	askWhy(m, "")
	if !f.Open() {
		t.Fatal("no panel")
	}
	first := plainScreen(m)
	press(m, "j", "j")
	if f.Top() != 2 || !strings.Contains(plainScreen(m), "WHY ") || plainScreen(m) == first {
		t.Errorf("j j: top %d:\n%s", f.Top(), plainScreen(m))
	}
	press(m, "G")
	bottom := f.Top()
	press(m, "j")
	if f.Top() != bottom || bottom == 0 || !strings.Contains(plainScreen(m), "prefix") {
		t.Errorf("G then j: top %d then %d:\n%s", bottom, f.Top(), plainScreen(m))
	}
	press(m, "g")
	if f.Top() != 0 {
		t.Errorf("g: top %d", f.Top())
	}
}

// rep is the explanation on the why panel (zero when none).
func (f *whyView) rep() why.Report {
	r, _ := f.Report()
	return r
}
