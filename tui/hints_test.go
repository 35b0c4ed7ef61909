package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

// remappedKeys moves every binding to function keys (f1…f35, then
// alt+f1…): none of them is a default key, and none is printable, so a
// prompt or the search line never narrows them.
func remappedKeys(t *testing.T) keymap.KeyMap {
	t.Helper()
	k := keymap.DefaultKeyMap()
	for i, n := range keymap.Names() {
		name := fmt.Sprintf("f%d", i%35+1)
		if i >= 35 {
			name = "alt+" + name
		}
		if err := k.Remap(n, []string{name}); err != nil {
			t.Fatal(err)
		}
	}
	return k
}

// pressBinding presses a binding's first key (a function key, perhaps
// with alt).
func pressBinding(m *Model, b key.Binding) {
	s := b.Keys()[0]
	var msg tea.KeyPressMsg
	if rest, ok := strings.CutPrefix(s, "alt+"); ok {
		msg.Mod, s = tea.ModAlt, rest
	}
	var n int
	if _, err := fmt.Sscanf(s, "f%d", &n); err != nil {
		panic("not a function key: " + s)
	}
	msg.Code = tea.KeyF1 + rune(n-1)
	drive(m, func() tea.Msg { return msg })
}

// defaultKeyTokens are the default keys and labels a stale hint would show:
// every default key and label part, except digits (counts) and "a" (the
// article), which ordinary text holds.
func defaultKeyTokens() map[string]bool {
	out := map[string]bool{}
	d := keymap.DefaultKeyMap()
	d.SetReferenceMode(true)
	for _, g := range d.FullHelp() {
		for _, b := range g {
			for _, s := range append(slices.Clone(b.Keys()), strings.Split(b.Help().Key, "/")...) {
				r, _ := utf8.DecodeRuneInString(s)
				if s == "" || s == "a" || unicode.IsDigit(r) || s == keymap.InterruptKey || englishKeys[s] {
					continue
				}
				out[s] = true
			}
		}
	}
	return out
}

// englishKeys are key names that are also words of messages ("breaks
// down"); their glyphs (↑ ↓ ← →) are still checked.
var englishKeys = map[string]bool{"up": true, "down": true, "left": true, "right": true, "home": true, "end": true}

// hintZones are the parts of a screen that hold hints: the search line,
// the first body line (a pane or overlay title), any line naming more name
// matches or the explain view, and everything below the panes (status,
// messages, dialogs, short help); the help screen whole.
func hintZones(m *Model) []string {
	lines := strings.Split(plainScreen(m), "\n")
	if m.hp.Open() {
		return lines
	}
	body := m.bodyHeight()
	search := lines[0]
	if q := m.bar.Input.Value(); q != "" { // the query typed is text, not a hint
		search = strings.Replace(search, q, "", 1)
	}
	out := []string{search, lines[1]}
	for _, l := range lines[1 : 1+body] {
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '┃' || r == '│' }) { // one pane's part
			if strings.Contains(part, "more name matches") || strings.Contains(part, "EXPLAIN") || strings.Contains(part, "Type a query") {
				out = append(out, part)
			}
		}
	}
	return append(out, lines[1+body:]...)
}

// staleHints returns the default keys a screen's hint zones name.
func staleHints(m *Model, defaults map[string]bool) []string {
	var out []string
	for _, z := range hintZones(m) {
		for _, word := range strings.Fields(ansi.Strip(z)) {
			if len(word) > 1 {
				word = strings.TrimSuffix(word, "?") // a question's mark, not the help key
			}
			if t := strings.Trim(word, "()[],;:·•"); defaults[t] { // "(press /)"
				out = append(out, fmt.Sprintf("%q in %q", t, strings.TrimSpace(z)))
				continue
			}
			for _, tok := range strings.FieldsFunc(word, func(r rune) bool { return strings.ContainsRune("()[]·•,;:/", r) }) {
				if defaults[tok] {
					out = append(out, fmt.Sprintf("%q in %q", tok, strings.TrimSpace(z)))
				}
			}
		}
	}
	return out
}

// Issue 17 item 13: with every binding moved to another key, no screen of
// a tour (list, search, explain, recall, preview, help, date prompt, reload
// log, prompts, questions, the edit conflict, status messages) names a
// default key in a hint; each names the remapped key instead.
func TestHints_FollowRemappedKeys(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	m := h.m
	m.c.keys = remappedKeys(t)
	m.setMode()
	m.lim.nameRows = 1
	k := &m.c.keys
	defaults := defaultKeyTokens()
	check := func(step string, wants ...string) {
		t.Helper()
		for _, s := range staleHints(m, defaults) {
			t.Errorf("%s: stale hint %s", step, s)
		}
		screen := squeeze(plainScreen(m))
		for _, w := range wants {
			if !strings.Contains(screen, squeeze(w)) {
				t.Errorf("%s: screen lacks %q:\n%s", step, w, plainScreen(m))
			}
		}
	}
	label := func(b key.Binding) string { return b.Help().Key }

	check("list", "search (press "+label(k.Search)+")", label(k.Search)+" search")
	pressBinding(m, k.DeleteMarked)
	check("nothing marked", label(k.Mark)+" marks an entry")
	pressBinding(m, k.Search)
	typeText(m, "e")
	check("typing", label(k.SearchAccept)+" keep query")
	check("name matches", "more name matches ("+label(k.Open)+" shows them)")
	pressBinding(m, k.SearchAccept)
	pressBinding(m, k.Explain)
	check("explain", "explain ("+label(k.Explain)+")", label(k.Explain)+" or "+label(k.SearchCancel))
	pressBinding(m, k.Explain)
	pressBinding(m, k.Recall)
	check("recall view", "("+label(k.Recall)+": all hits)")
	pressBinding(m, k.Recall)
	pressBinding(m, k.Open)
	check("preview")
	pressBinding(m, k.Back)
	pressBinding(m, k.SearchCancel)
	pressBinding(m, k.Help)
	check("help", label(k.Cancel)+"/"+label(k.Help)+" close")
	pressBinding(m, k.Cancel)
	pressBinding(m, k.DateFilter)
	check("date prompt", "("+label(k.Accept)+": all dates)")
	pressBinding(m, k.Cancel)
	apply(t, h.path, store.Add{Name: "first-add", Content: "x"})
	reload(m)
	pressBinding(m, k.ChangeLog)
	check("reload log", label(k.Accept)+": go to the entry")
	pressBinding(m, k.Cancel)
	h.sel("commit-format")
	pressBinding(m, k.Rename)
	check("rename prompt", label(k.Accept)+" ok · "+label(k.Cancel)+" cancel")
	pressBinding(m, k.Cancel)
	pressBinding(m, k.Delete)
	check("delete question", "["+label(k.Yes)+"/"+label(k.No)+"]")
	pressBinding(m, k.Yes)
	check("deleted", "("+label(k.Undo)+" undoes)")
	pressBinding(m, k.Undo)
	pressBinding(m, k.Orphans)
	check("orphans", "orphan archives only ("+label(k.Orphans)+")")
	pressBinding(m, k.Orphans)
	h.sel("commit-format")
	h.editor = appendMine
	h.during = func() { apply(t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}) }
	pressBinding(m, k.Edit)
	check("edit conflict", "["+label(k.KeepMine)+"] keep mine")
	pressBinding(m, k.KeepTheirs)
	if h.f.Dialog() != nil {
		t.Error("the remapped keep-theirs key did not answer the conflict")
	}
}

// The check itself: on the default key map the same zones do name default
// keys (a hint check that could not fail would prove nothing).
func TestHints_DefaultKeysAreSeen(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	if len(staleHints(m, defaultKeyTokens())) == 0 {
		t.Fatalf("no default key found in the default screen's hints:\n%s", plainScreen(m))
	}
}
