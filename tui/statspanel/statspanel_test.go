package statspanel

import (
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// snap is a snapshot of entries (part.Snapshot).
type snap struct{ es []store.Entry }

func (s *snap) Entries() []store.Entry { return s.es }
func (s *snap) Get(id uint64) (store.Entry, bool) {
	for _, e := range s.es {
		if e.ID == id {
			return e, true
		}
	}
	return store.Entry{}, false
}

// testContext is a part.Context at w×h with the default keys and plain
// styles.
func testContext(w, h int) *part.Context {
	keys := keymap.DefaultKeyMap()
	st := lipgloss.NewStyle()
	return &part.Context{
		Width: w, Height: h, Body: h - 2, Keys: &keys, Help: help.New(),
		Styles: &part.Styles{PaneTitle: st, GroupHeader: st, Dim: st, Kinds: [3]lipgloss.Style{st, st, st}},
		Now:    func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Loc:    time.UTC,
	}
}

// TestPanel_FollowsTheSnapshot: with no root model, the panel asks for
// the figures once per snapshot, drops a stale answer, shows the current
// one, and closes on its keys.
func TestPanel_FollowsTheSnapshot(t *testing.T) {
	c := testContext(80, 20)
	old := &snap{[]store.Entry{{ID: 1, Name: "a", Kind: store.Note, CreatedAt: 1}}}
	cur := &snap{[]store.Entry{{ID: 1, Name: "a", Kind: store.Note, CreatedAt: 1}, {ID: 2, Name: "b", Kind: store.Note, CreatedAt: 2}}}
	var p Panel
	now := Of{Snap: cur}
	cmd := p.Show(c, now)
	if cmd == nil || !p.Open() || p.Refresh(c, now) != nil {
		t.Fatal("the figures were not asked for once")
	}
	if v := p.View(c, 80, 18); !strings.Contains(v, "Memory stats") || !strings.Contains(v, "counting…") {
		t.Errorf("before the figures:\n%s", v)
	}
	if p.Done(c, DoneMsg{of: Of{Snap: old}}, now); p.Shown().Snap != nil {
		t.Fatal("a stale answer was shown")
	}
	if p.Done(c, cmd().(DoneMsg), now); p.Shown() != now || p.Stats().Total.Entries != 2 {
		t.Fatalf("the answer was not shown: %d entries", p.Stats().Total.Entries)
	}
	if v := p.View(c, 80, 18); strings.Contains(v, "counting…") || len(strings.Split(v, "\n")) != 18 {
		t.Errorf("with the figures:\n%s", v)
	}
	if reqs, _ := p.Key(c, tea.KeyPressMsg{Code: tea.KeyEscape}); reqs != nil || p.Open() {
		t.Error("esc did not close the panel, or asked the root for something")
	}
}

// TestPanel_LinesKeptWhileTheirSourcesStay: the figures' lines are drawn
// once and kept while the figures, the width and the palette stay; after
// each step they are those a new panel draws of the same figures.
func TestPanel_LinesKeptWhileTheirSourcesStay(t *testing.T) {
	c := testContext(80, 20)
	entries := []store.Entry{{ID: 1, Name: "a", Kind: store.Note, CreatedAt: 1, Content: "some words"}}
	var p Panel
	show := func(es []store.Entry) {
		now := Of{Snap: &snap{es}}
		p.Done(c, p.Show(c, now)().(DoneMsg), now)
	}
	show(entries)
	w := 80
	var before []string
	for _, step := range []struct {
		name    string
		do      func()
		changes bool
	}{
		{"first drawn", func() {}, true},
		{"drawn again", func() {}, false},
		{"narrower", func() { w = 30 }, true},
		{"another palette", func() {
			st := *c.Styles
			st.GroupHeader = st.GroupHeader.Bold(true)
			c.Styles = &st
		}, true},
		{"new figures", func() {
			show(append(entries, store.Entry{ID: 2, Name: "b", Kind: store.Archive, CreatedAt: 2, Content: "more words here"}))
		}, true},
		{"drawn again at last", func() {}, false},
	} {
		step.do()
		got := p.Lines(c.Styles, w)
		fresh := Panel{shown: p.Shown(), s: p.Stats()}
		if want := fresh.Lines(c.Styles, w); !slices.Equal(got, want) {
			t.Errorf("%s: the panel draws\n%q\na new panel\n%q", step.name, got, want)
		}
		if changed := !slices.Equal(got, before); changed != step.changes {
			t.Errorf("%s: the lines changed %v, want %v", step.name, changed, step.changes)
		}
		before = got
	}
}
