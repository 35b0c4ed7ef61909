package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// TestTop_ConflictOverTheHelpHasTheScreen: an edit conflict that arrives
// while the help is open (the user pressed ? while the write was in
// flight) takes the screen, the keys and the bindings live together:
// the diff is drawn, not the help, and its answer keys answer it. Before
// top(), the help kept the screen and the mode (the answer keys off)
// while the dialog took every key: the user saw the help and could not
// answer the question they could not see.
func TestTop_ConflictOverTheHelpHasTheScreen(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	h.editor = appendMine
	h.during = func() { apply(t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}) }
	_, run := h.m.Update(keyMsg("e"))
	_, write := h.m.Update(run()) // the editor exited; the write is off the loop
	press(h.m, "?")               // the help, opened meanwhile
	if h.m.top() != layerHelp {
		t.Fatalf("top %v after ?, want the help", h.m.top())
	}
	drive(h.m, write) // the write meets their change
	if got := h.m.top(); got != layerDialog {
		t.Fatalf("top %v once the conflict is asked, want the dialog", got)
	}
	screen := plainScreen(h.m)
	if !strings.Contains(screen, "+ Mine.") || !strings.Contains(screen, "[m] keep mine") {
		t.Fatalf("the conflict is not what the screen shows:\n%s", screen)
	}
	press(h.m, "m")
	if got := h.onDisk()["commit-format"].Content; !strings.HasSuffix(got, "Mine.") {
		t.Fatalf("m did not keep mine: %q; screen:\n%s", got, plainScreen(h.m))
	}
	if got := h.m.top(); got != layerHelp {
		t.Fatalf("top %v once answered, want the help again (it was open below)", got)
	}
}

// TestTop_WhyPanelKeepsTheEditingKeys: while the why panel has the
// screen, the editing keys do nothing behind it. Before top(), the
// editing part saw every key first and only the key map's mode (the
// panel's) kept d, space and the rest from acting under the panel; now
// the key goes to the panel alone. A guard: it held before too.
func TestTop_WhyPanelKeepsTheEditingKeys(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.m.why = newWhyView()
	press(h.m, "/")
	typeText(h.m, "postgres migration")
	press(h.m, "enter")
	askWhy(h.m, "")
	if h.m.top() != layerWhy {
		t.Fatalf("top %v, want the why panel; overlay %q, status %q", h.m.top(), plainOverlay(h.m), statusText(h.m))
	}
	before := plainScreen(h.m)
	for _, k := range []string{"d", "space", "*", "D", "r", "a", "L", "o"} {
		press(h.m, k)
		if h.m.top() != layerWhy || h.m.ed.Dialog() != nil || h.m.marks.Len() != 0 || h.m.fv.Open() {
			t.Fatalf("%s acted behind the why panel: top %v, overlay %q, %d marked", k, h.m.top(), plainOverlay(h.m), h.m.marks.Len())
		}
	}
	if after := plainScreen(h.m); after != before {
		t.Fatalf("the screen changed under keys the panel does not take:\n%s", after)
	}
}

// TestLayers_EachGivesAll: every layer is registered once, in the list
// (registered), with everything the root asks of a layer: a name,
// whether it is open, the key that opens it, the keys it enables, its
// key handling, paste, body, overlay, short help, mouse and the rows it
// keeps (fresh alone is optional: the panels the root holds in fields
// have none). A layer that has none of one says so (noBody, noPaste,
// openedElsewhere, …): before the list, each question was a switch of
// its own, and the history view was missing from one of them (rows: at
// 80×3 it kept only its title).
func TestLayers_EachGivesAll(t *testing.T) {
	names := map[layer]int{}
	list := layers().list
	for i, l := range list {
		spec := reflect.ValueOf(l)
		for j := range spec.NumField() {
			f := spec.Type().Field(j)
			if v := spec.Field(j); v.IsZero() && f.Name != "fresh" {
				t.Errorf("layer %d (%q) gives no %s", i, l.name, f.Name)
			}
		}
		if l.least != 1 && l.least != panelRows {
			t.Errorf("layer %v keeps %d rows, want 1 (a line) or %d (a panel's title and a line)", l.name, l.least, panelRows)
		}
		if prev, dup := names[l.name]; dup {
			t.Errorf("layers %d and %d are both named %q", prev, i, l.name)
		}
		names[l.name] = i
	}
	if last := list[len(list)-1]; last.name != layerPanes || !last.open(nil) {
		t.Errorf("the last layer is %q, want the panes, always open", last.name)
	}
	for _, l := range []layer{layerDatePrompt, layerWhyPrompt, layerDialog, layerHelp, layerLog, layerStats,
		layerWhy, layerHistory, layerForgotten, layerFindings, layerSearch, layerPanes} {
		if _, ok := names[l]; !ok {
			t.Errorf("layer %q is named by the root but not registered", l)
		}
	}
}

// sessionsKey opens the test's panel (a key no default binding takes).
var sessionsKey = key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "sessions"))

// sessionsPanel is a panel as a new package would write it (a
// part.Part that a key opens, a part.Shower): it lists the memory's
// entries' count, moves a cursor with the down key and closes on cancel.
type sessionsPanel struct {
	open  bool
	moved int
}

func newSessionsPanel() *sessionsPanel              { return &sessionsPanel{} }
func (p *sessionsPanel) Open() bool                 { return p.open }
func (p *sessionsPanel) Show(*part.Context) tea.Cmd { p.open = true; return nil }
func (p *sessionsPanel) SetKeys(k *keymap.KeyMap)   { k.Only(false, &k.Down) }
func (p *sessionsPanel) ShortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Down, k.Cancel}
}

func (p *sessionsPanel) Key(c *part.Context, k tea.KeyPressMsg) ([]part.Request, tea.Cmd) {
	switch {
	case key.Matches(k, c.Keys.Cancel):
		p.open = false
	case key.Matches(k, c.Keys.Down):
		p.moved++
		return []part.Request{part.Message{Text: fmt.Sprintf("moved %d", p.moved)}}, nil
	}
	return nil, nil
}

func (p *sessionsPanel) View(c *part.Context, w, h int) string {
	lines := []string{"sessions panel", fmt.Sprintf("%d entries, moved %d", len(c.Snap.Entries()), p.moved)}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines[:h] {
		lines[i] = ansi.Truncate(l, w, "") + strings.Repeat(" ", max(w-ansi.StringWidth(l), 0))
	}
	return strings.Join(lines[:h], "\n")
}

// TestLayers_APanelIsOneLine: a panel registered with one line in a
// list of layers (here a test's list: the screen's plus the line) is
// stored by the model, opened by its key from the panes, drawn in
// place of the panes with its line of keys, given its keys (its
// requests carried out) and closed, with nothing else of the root
// naming it. Before, a panel took a field in Model, a layer constant,
// its registration and a case in appKey.
func TestLayers_APanelIsOneLine(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	list := registered()
	list = slices.Insert(list, len(list)-2, // above the search line and the panes
		panelOpenedBy("sessions", func(*keymap.KeyMap) *key.Binding { return &sessionsKey }, newSessionsPanel))
	m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer, layers: list})
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 80, Height: 24} })
	drive(m, openCmd(path, ""))
	if m.c.db == nil {
		t.Fatalf("open %s: %s", path, m.st.fileWarning)
	}

	press(m, "ctrl+g")
	if m.top() != "sessions" {
		t.Fatalf("top %q after its key, want the sessions panel", m.top())
	}
	screen := plainScreen(m)
	n := len(m.c.snap.entries)
	if !strings.Contains(screen, "sessions panel") || !strings.Contains(screen, fmt.Sprintf("%d entries, moved 0", n)) {
		t.Fatalf("the panel is not drawn in place of the panes:\n%s", screen)
	}
	if help := strings.Join(m.helpLines(), "\n"); !strings.Contains(help, "esc") {
		t.Errorf("the help line is not the panel's: %q", help)
	}
	if !m.c.keys.Down.Enabled() || m.c.keys.Search.Enabled() {
		t.Errorf("the panel's keys are not the live ones: down %v, search %v", m.c.keys.Down.Enabled(), m.c.keys.Search.Enabled())
	}
	press(m, "j")
	if got := statusText(m); !strings.Contains(got, "moved 1") {
		t.Errorf("its request was not carried out: status %q", got)
	}
	if screen := plainScreen(m); !strings.Contains(screen, "moved 1") {
		t.Errorf("its key did not reach it:\n%s", screen)
	}
	press(m, "esc")
	if m.top() != layerPanes || !m.c.keys.Search.Enabled() {
		t.Fatalf("closed: top %q, search %v", m.top(), m.c.keys.Search.Enabled())
	}
	if screen := plainScreen(m); strings.Contains(screen, "sessions panel") {
		t.Errorf("the panel is still drawn once closed:\n%s", screen)
	}

	plain := openModel(t, path, 80, 24) // the screen's own list has no such panel
	press(plain, "ctrl+g")
	if plain.top() != layerPanes || len(plain.parts) != 0 {
		t.Errorf("the screen's list opened the test's panel: top %q, %d parts", plain.top(), len(plain.parts))
	}
}

// TestLayers_TheTopPartEnablesItsKeys: the part on top decides which keys
// are live (its SetKeys), not a table of modes: the stats panel leaves
// search off and its own key on, a rename prompt only its answers (its
// printable keys are text), the delete question only yes and no, and
// closing each gives the list its keys back.
func TestLayers_TheTopPartEnablesItsKeys(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("scratch")
	k := &h.m.c.keys
	for _, tt := range []struct {
		open     string
		top      layer
		on, off  []*key.Binding
		closeKey string
	}{
		{"i", layerStats, []*key.Binding{&k.Stats, &k.Quit, &k.Down}, []*key.Binding{&k.Search, &k.Edit, &k.Accept}, "esc"},
		{"r", layerDialog, []*key.Binding{&k.Accept, &k.Cancel}, []*key.Binding{&k.Search, &k.Quit, &k.Down, &k.Yes}, "esc"},
		{"d", layerDialog, []*key.Binding{&k.Yes, &k.No}, []*key.Binding{&k.Accept, &k.Edit, &k.Search}, "n"},
	} {
		press(h.m, tt.open)
		if h.m.top() != tt.top {
			t.Fatalf("%s: top %v, want %v", tt.open, h.m.top(), tt.top)
		}
		for _, b := range tt.on {
			if !b.Enabled() {
				t.Errorf("%s open: %q is off", tt.open, b.Help().Desc)
			}
		}
		for _, b := range tt.off {
			if b.Enabled() {
				t.Errorf("%s open: %q is live", tt.open, b.Help().Desc)
			}
		}
		press(h.m, tt.closeKey)
		if h.m.top() != layerPanes || !k.Search.Enabled() || !k.Edit.Enabled() || k.Yes.Enabled() {
			t.Errorf("%s closed: top %v, search %v, edit %v, yes %v", tt.open, h.m.top(), k.Search.Enabled(), k.Edit.Enabled(), k.Yes.Enabled())
		}
	}
}

// top is the layer that has the screen: the highest one open.
func (m *Model) top() layer { return m.topSpec().name }
