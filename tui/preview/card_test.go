package preview

import (
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

// TestCard_LinesNeverWrap pins a finding of the review of issue 10: the
// card's lines were cut to width-4 cells, but the box (border and padding
// included in its width) holds width-5, so a line of exactly that length
// wrapped: at 80×24 "created 2026-01-02 21:21 UTC (10mo ago)" broke
// before "ago)", and the sessions folder's path was cut and wrapped.
func TestCard_LinesNeverWrap(t *testing.T) {
	st := testContext(80, 24).Styles
	created := uint64(time.Date(2026, 1, 2, 21, 21, 0, 0, time.UTC).Unix())
	now := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	e := store.Entry{ID: 81, Name: strings.Repeat("long-name-", 12), Kind: store.Note, CreatedAt: created, Content: "x"}
	for width := 20; width <= 80; width++ {
		extra := []string{"sessions none found in " + strings.Repeat("/x", width)}
		out := card(st, e, true, 1, width, now, time.UTC, extra, width%2 == 0)
		lines := strings.Split(out, "\n")
		if want := 2 + 5; len(lines) != want { // border, name, kind, created, size, sessions, border
			t.Errorf("at width %d the card takes %d lines, want %d:\n%s", width, len(lines), want, out)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > width-1 {
				t.Errorf("at width %d a card line is %d wide: %q", width, w, l)
			}
		}
	}
}

// TestCard_KeptOnlyWhileItsSourcesStay: the pane writes a card's lines
// and draws it once, and shows it again while what they are made from
// stays (Pane.cardTextOf, Pane.card); after each change (the width, the
// focus, the entry, its content, the lines the root adds, its aliases,
// kind and ids, the time and zone it is shown at, the styles) the pane
// shows what a new pane shows, the card drawn anew.
func TestCard_KeptOnlyWhileItsSourcesStay(t *testing.T) {
	c := testContext(80, 20)
	p := New()
	s := Entry{E: store.Entry{ID: 3, Name: "deploy-notes", Kind: store.Note, Content: "canary first", CreatedAt: 1_700_000_000}, IDs: true}
	w := 50
	var before string
	for _, step := range []struct {
		name    string
		change  func()
		changes bool
	}{
		{"first shown", func() {}, true},
		{"shown again", func() {}, false},
		{"wider", func() { w = 64 }, true},
		{"focused", func() { s.Focused = true }, true},
		{"another entry", func() { s.E.ID, s.E.Name = 4, "rollback" }, true},
		{"its content longer", func() { s.E.Content += " then everyone" }, true},
		{"a line added by the root", func() { s.Extra = []string{"history 2 versions"} }, true},
		{"an alias", func() { s.E.Aliases = []string{"rollout"} }, true},
		{"its alias renamed in place", func() { s.E.Aliases[0] = "ship" }, true},
		{"another kind", func() { s.E.Kind = store.Archive }, true},
		{"no ids shown", func() { s.IDs = false }, true},
		{"another zone", func() { c.Loc = time.FixedZone("X", 5*3600) }, true},
		{"a year later", func() { now := c.Now().AddDate(1, 0, 0); c.Now = func() time.Time { return now } }, true},
		{"other styles", func() {
			st := *c.Styles
			st.CardFocus = st.CardFocus.Border(lipgloss.DoubleBorder())
			c.Styles = &st
		}, true},
		{"shown again at last", func() {}, false},
	} {
		step.change()
		p.Show(c, s, w, 20)
		fresh := New()
		fresh.Show(c, s, w, 20)
		got := p.Content()
		if got != fresh.Content() {
			t.Errorf("%s: the pane shows\n%s\na new pane\n%s", step.name, got, fresh.Content())
		}
		if changed := got != before; changed != step.changes {
			t.Errorf("%s: the content changed %v, want %v:\n%s", step.name, changed, step.changes, got)
		}
		before = got
	}
}
