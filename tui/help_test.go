package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/list"
	"github.com/crmem/crmem/tui/preview"
	"github.com/crmem/crmem/tui/searchbar"
)

// helpText is bindings as "key desc" parts, the enabled ones only, as the
// help line shows them.
func helpText(bs []key.Binding) string {
	var parts []string
	for _, b := range bs {
		if b.Enabled() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return strings.Join(parts, " • ")
}

// TestShortHelp_QuitUnboundNamesCtrlC (issue 29 item 8; moved from the key
// map to the parts that now say their own keys): with quit (and help)
// unbound, ctrl+c still quits, and the short help of the list, the preview
// and the search line says so rather than naming no way out; a quit of its
// own is shown as configured.
func TestShortHelp_QuitUnboundNamesCtrlC(t *testing.T) {
	k := keymap.DefaultKeyMap()
	for _, n := range []string{"quit", "help"} {
		if err := k.Remap(n, nil); err != nil {
			t.Fatal(err)
		}
	}
	var l list.List
	var p preview.Pane
	var b searchbar.Bar
	for _, part := range []struct {
		name  string
		keys  func(*keymap.KeyMap)
		short func(*keymap.KeyMap) []key.Binding
	}{
		{"list", func(k *keymap.KeyMap) { l.SetKeys(k, true, false) }, l.ShortHelp},
		{"preview", func(k *keymap.KeyMap) { p.SetKeys(k, true) }, p.ShortHelp},
		{"search line", b.SetKeys, b.ShortHelp},
	} {
		part.keys(&k)
		if got := helpText(part.short(&k)); !strings.HasSuffix(got, "ctrl+c quit") {
			t.Errorf("%s: %q", part.name, got)
		}
	}
	q := keymap.DefaultKeyMap()
	if err := q.Remap("quit", []string{"Q"}); err != nil {
		t.Fatal(err)
	}
	l.SetKeys(&q, true, false)
	if got := helpText(l.ShortHelp(&q)); !strings.Contains(got, "Q quit") || strings.Contains(got, "ctrl+c") {
		t.Errorf("quit remapped to Q: %q", got)
	}
}

// TestHelp_LineIsThePartOnTop: the help line is the short help of the part
// that has the screen: the list, the preview, the search line, the help,
// the stats panel; nothing under a prompt (it names its own keys).
func TestHelp_LineIsThePartOnTop(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 30)
	k := &m.c.keys
	steps := []struct {
		keys []string
		top  layer
		want func(*keymap.KeyMap) []key.Binding // the part's, asked once it is on top
	}{
		{nil, layerPanes, m.list.ShortHelp},
		{[]string{"tab"}, layerPanes, m.pv.ShortHelp},
		{[]string{"tab", "/"}, layerSearch, m.bar.ShortHelp},
		{[]string{"esc", "?"}, layerHelp, m.hp.ShortHelp},
		{[]string{"esc", "i"}, layerStats, m.sp.ShortHelp},
		{[]string{"esc", "f"}, layerDatePrompt, func(*keymap.KeyMap) []key.Binding { return nil }},
	}
	for _, s := range steps {
		press(m, s.keys...)
		if m.top() != s.top {
			t.Fatalf("after %v: top %v, want %v", s.keys, m.top(), s.top)
		}
		got, want := helpText(m.partHelp()), helpText(s.want(k))
		if got != want {
			t.Errorf("after %v (%v):\n got %s\nwant %s", s.keys, s.top, got, want)
		}
	}
	if len(m.list.ShortHelp(k)) == 0 || len(m.list.ShortHelp(k)) > 10 {
		t.Errorf("the list's short help has %d bindings", len(m.list.ShortHelp(k)))
	}
}

// TestHelp_PartsMakeTheReference: the `?` help put together from the
// parts lists the same bindings, in the same columns, as the reference
// the README and the man page are checked against (keymap.FullHelp); a
// screen without the editing part lists no editing column.
func TestHelp_PartsMakeTheReference(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	k := h.m.c.keys
	k.SetReferenceMode(true)
	got, want := h.m.fullHelp(&k), k.FullHelp()
	if len(got) != len(want) {
		t.Fatalf("%d columns, want %d", len(got), len(want))
	}
	for i := range want {
		if helpText(got[i]) != helpText(want[i]) {
			t.Errorf("column %d:\n got %s\nwant %s", i, helpText(got[i]), helpText(want[i]))
		}
	}
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 30)
	k = m.c.keys
	k.SetReferenceMode(false)
	for _, g := range m.fullHelp(&k) {
		if strings.Contains(helpText(g), "delete") {
			t.Errorf("without the editing part the help lists %q", helpText(g))
		}
	}
}

// TestHelp_LineFollowsWhatItIsDrawnFrom: the help line is fitted once and
// kept (helpLineMemo) until what it is drawn from changes. After each
// step (the part on top, a mode, the width, the palette, the unseen
// changes' count) the line drawn is the one fitted anew, and each step
// that changes what the line says changes the line drawn: a kept line
// that outlived its part, its width or its words would be a stale help.
func TestHelp_LineFollowsWhatItIsDrawnFrom(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	m.c.styleOpt, m.c.noColor = "auto", false // the palette follows the terminal's background
	drive(m, m.setBackground(true))
	fresh := func() string {
		kept := m.helpLine
		m.helpLine = helpLineMemo{}
		defer func() { m.helpLine = kept }()
		return m.shortHelp()
	}
	drawn := func() string { // the screen's last line, the help line at this height
		lines := strings.Split(m.screen(), "\n")
		return lines[len(lines)-1]
	}
	added := 0
	unseen := func() {
		added++
		apply(t, path, store.Add{Name: fmt.Sprintf("unseen-%d", added), Content: "x"})
		reload(m)
	}
	steps := []struct {
		name    string
		do      func()
		changes bool // what the line says changes
	}{
		{"narrower", func() { drive(m, resizeCmd(70, 40)) }, true},
		{"wider", func() { drive(m, resizeCmd(160, 40)) }, true},
		{"the same size again", func() { drive(m, resizeCmd(160, 40)) }, false},
		{"the preview focused", func() { press(m, "tab") }, true},
		{"the list focused", func() { press(m, "tab") }, true},
		{"typing a query", func() { press(m, "/") }, true},
		{"a letter typed", func() { press(m, "c") }, false},
		{"the query run", func() { press(m, "enter") }, true}, // esc now clears it
		{"the query cleared", func() { press(m, "esc") }, true},
		{"the help open", func() { press(m, "?") }, true},
		{"the stats panel", func() { press(m, "esc", "i") }, true},
		{"the list again", func() { press(m, "esc", "esc") }, true},
		{"a light background", func() { drive(m, m.setBackground(false)) }, true},
		{"a dark background", func() { drive(m, m.setBackground(true)) }, true},
		{"an unseen change", unseen, true},
		{"a second one", unseen, true},
		{"seen", func() { press(m, ".") }, true},
	}
	before := drawn()
	if before != fresh() || before == "" {
		t.Fatalf("at the start the line drawn is %q, fitted anew %q", before, fresh())
	}
	for _, s := range steps {
		s.do()
		got, want := drawn(), fresh()
		if got != want {
			t.Errorf("%s (%v, %d wide): the line drawn is\n%q\nfitted anew\n%q", s.name, m.top(), m.c.width, got, want)
		}
		if changed := got != before; changed != s.changes {
			t.Errorf("%s (%v): the line changed %v, want %v: %q", s.name, m.top(), changed, s.changes, got)
		}
		before = got
	}
}

// TestStatus_LineFollowsWhatItIsFittedFrom: the status line is fitted
// once and kept (statusFit), its counts drawn once (drawnCounts), while
// what they are made from stays. After
// each step (the width, a message, a longer message, the counts after a
// reload, the palette, the folder shown as ~) the status lines drawn are
// the ones fitted anew, and each step that changes them changes them.
func TestStatus_LineFollowsWhatItIsFittedFrom(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	m.c.styleOpt, m.c.noColor = "auto", false
	drive(m, m.setBackground(true))
	fresh := func() []string {
		kept, counts := m.statusFits, m.statusCounts
		m.statusFits, m.statusCounts = [4]statusFit{}, drawnText{}
		defer func() { m.statusFits, m.statusCounts = kept, counts }()
		return m.statusLines()
	}
	steps := []struct {
		name    string
		do      func()
		changes bool
	}{
		{"narrower", func() { drive(m, resizeCmd(60, 40)) }, true},
		{"narrower still", func() { drive(m, resizeCmd(30, 40)) }, true},
		{"wider", func() { drive(m, resizeCmd(140, 40)) }, true},
		{"the same size again", func() { drive(m, resizeCmd(140, 40)) }, false},
		{"a message", func() { m.setMessage("copied deploy-notes") }, true},
		{"a message too long for the line", func() { m.setMessage(strings.Repeat("a long message ", 12)) }, true},
		{"no message", func() { m.setMessage("") }, true},
		{"an entry added by a reload", func() {
			apply(t, path, store.Add{Name: "added", Content: "x"})
			reload(m)
		}, true},
		{"a light background", func() { drive(m, m.setBackground(false)) }, true},
		{"its folder as home", func() { m.home = filepath.Dir(path) }, true},
	}
	before := m.statusLines()
	for _, s := range steps {
		s.do()
		got, want := m.statusLines(), fresh()
		if !slices.Equal(got, want) {
			t.Errorf("%s (%d wide): the status lines drawn are\n%q\nfitted anew\n%q", s.name, m.c.width, got, want)
		}
		if changed := !slices.Equal(got, before); changed != s.changes {
			t.Errorf("%s: the status lines changed %v, want %v: %q", s.name, changed, s.changes, got)
		}
		before = got
	}
}
