package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/tui/part"
)

// testNow is the fixed clock of model tests.
var testNow = time.Date(2026, 1, 3, 12, 0, 0, 0, time.UTC)

// noTimer disables timers in tests; tests send timer messages themselves.
func noTimer(time.Duration, tea.Msg) tea.Cmd { return nil }

// copyFixture copies a reference fixture into a temp dir and returns its path.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeEntries writes a memory file holding entries.
func writeEntries(t *testing.T, path string, entries []store.Entry) {
	t.Helper()
	if err := os.WriteFile(path, store.Encode(0, entries), 0o600); err != nil {
		t.Fatal(err)
	}
}

// openModel builds a model on path at w×h and opens the file.
func openModel(t *testing.T, path string, w, h int) *Model {
	t.Helper()
	m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} })
	drive(m, openCmd(path, ""))
	if m.c.db == nil {
		t.Fatalf("open %s: %s", path, m.st.fileWarning)
	}
	return m
}

// drive runs cmd and every command that follows from it, feeding the
// messages to the model, until nothing is left.
func drive(m *Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// keyMsg builds a key press from its name ("j", "enter", "ctrl+c", …).
func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "backspace": tea.KeyBackspace, "pgdown": tea.KeyPgDown,
		"pgup": tea.KeyPgUp, "home": tea.KeyHome, "end": tea.KeyEnd,
	}
	if c, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(rest)[0], Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// press sends keys one by one, running their commands.
func press(m *Model, keys ...string) {
	for _, k := range keys {
		msg := keyMsg(k)
		drive(m, func() tea.Msg { return msg })
	}
}

// typeText presses each character of s.
func typeText(m *Model, s string) {
	for _, r := range s {
		press(m, string(r))
	}
}

// selectedName returns the selected entry's name, or "".
func selectedName(m *Model) string {
	e, ok := m.list.SelectedEntry(m.c.snap)
	if !ok {
		return ""
	}
	return e.Name
}

// listNames returns the entry names of the list in order.
func listNames(m *Model) []string {
	var out []string
	for _, e := range m.listedEntries() {
		out = append(out, e.Name)
	}
	return out
}

// headers returns the list's header rows.
func headers(m *Model) []string {
	var out []string
	for _, r := range m.list.Rows() {
		if r.Header != "" {
			out = append(out, strings.TrimSpace(r.Header))
		}
	}
	return out
}

// plainScreen renders the screen without ANSI sequences.
func plainScreen(m *Model) string {
	return ansi.Strip(m.screen())
}

// apply changes the file from outside, as another writer would.
func apply(t *testing.T, path string, ops ...store.Op) {
	t.Helper()
	db, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(ops...); err != nil {
		t.Fatal(err)
	}
}

// reload delivers the debounced reload, as the watcher would.
func reload(m *Model) {
	m.w.tag++
	tag := m.w.tag
	drive(m, func() tea.Msg { return debounceMsg{tag: tag} })
}

// sgr matches colour and attribute sequences, the only ones allowed out.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// statusText is the status line with any message lines above it.
func statusText(m *Model) string { return ansi.Strip(strings.Join(m.statusLines(), "\n")) }

// plainOverlay is the open dialog's line without ANSI sequences.
func plainOverlay(m *Model) string { return ansi.Strip(m.overlay()) }

// resizeCmd delivers a window size.
func resizeCmd(w, h int) tea.Cmd {
	return func() tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} }
}

// cmdQuits reports whether cmd, or a command it batches, quits.
func cmdQuits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if cmdQuits(c) {
				return true
			}
		}
	}
	return false
}

// squeeze drops all white space, so text wrapped over lines compares equal
// to the same text on one line.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// openThenWatch starts m as Run does when the open reads the file before
// the watch begins: the open is in flight, write (if any) changes the file
// before the watch starts, the watch starts (its commands, which wait for
// events, are not run), and the open's result arrives.
func openThenWatch(t *testing.T, m *Model, path string, write func()) {
	t.Helper()
	_ = m.Init() // the open is in flight from here on
	opened := openCmd(path, "")()
	if write != nil {
		write()
	}
	w, err := newWatcher(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.close)
	_ = m.watchStarted(watchStartedMsg{w: w})
	drive(m, func() tea.Msg { return opened })
}

// Helpers only tests ask for (the screen itself does not).

// listedEntries returns the entries in the list as shown (search hits, when
// searching), in list order.
func (m *Model) listedEntries() []store.Entry {
	var out []store.Entry
	for _, r := range m.list.Rows() {
		if r.IsEntry() {
			out = append(out, m.c.snap.entries[r.Idx])
		}
	}
	return out
}

// helpLines is the top layer's prompt or dialog (up to three lines), or
// the short help.
func (m *Model) helpLines() []string { return m.helpLinesOf(m.overlay()) }

// selectedFinding is the findings view's selected finding.
func (m *Model) selectedFinding() (hygiene.Finding, bool) { return m.fv.Selected() }

// helpOverflow is how many help lines do not fit the screen.
func helpOverflow(m *Model) int {
	m.hp.Groups = m.helpGroups()
	return part.MaxTop(len(m.hp.Lines(m.ctx(), m.c.width)), m.bodyHeight())
}

// storeHits is the explained hits a store's recall gave a search, by id.
func storeHits(r *searchResult) map[uint64]store.RecallHit {
	p, _ := r.parts.(recallParts)
	return p.hits
}

// index returns the bm25 index once it is built, else nil.
func (m *Model) index() *bm25.Index {
	if m.c.db == nil || !m.indexed {
		return nil
	}
	return m.c.db.Memory().Index()
}
