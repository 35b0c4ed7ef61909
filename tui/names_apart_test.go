package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
)

// lookAlikes are names that read as one another unless what is invisible
// or was removed in them is shown (issue 29 item 3).
var lookAlikes = []string{
	"same", "same ", "same\u00a0", "same\u3000", " same",
	"clip-\x1b]52;c;YQ==\x07-x", "clip-\x1b]52;c;Yg==\x07-x", "clip--x",
	"e\x1bxit", "e\x1byit", "exit",
	"", " ",
}

// TestNames_NeverLookTheSame: on the list, the card, the delete dialog and
// the status, every look-alike shows as its own marked text, and no two
// rows of the list read the same.
func TestNames_NeverLookTheSame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	var entries []store.Entry
	for i, n := range lookAlikes {
		entries = append(entries, store.Entry{ID: uint64(i + 1), Name: n, Content: "body", CreatedAt: 1_767_000_000 + uint64(i)})
	}
	writeEntries(t, path, entries)
	m := newEditHarnessIn(t, path, t.TempDir()).m
	rows := map[string]string{}
	for i := range m.list.Rows() {
		if !m.list.Rows()[i].IsEntry() {
			continue
		}
		row := strings.TrimRight(ansi.Strip(m.c.snap.label(m.list.Rows()[i].Idx)), " ")
		if prev, ok := rows[row]; ok {
			t.Errorf("%q and %q both show as %q", prev, m.c.snap.entries[m.list.Rows()[i].Idx].Name, row)
		}
		rows[row] = m.c.snap.entries[m.list.Rows()[i].Idx].Name
	}
	if len(rows) != len(lookAlikes) {
		t.Fatalf("%d rows for %d names", len(rows), len(lookAlikes))
	}
	for range lookAlikes {
		e, _ := m.list.SelectedEntry(m.c.snap)
		want := sanitize.Name(e.Name)
		if strings.Contains(want, "\x1b") || want == "" || strings.HasSuffix(want, " ") || strings.HasPrefix(want, " ") {
			t.Fatalf("%q shows as %q", e.Name, want)
		}
		screen := plainScreen(m)
		if !strings.Contains(screen, " "+want+" ") {
			t.Errorf("list or card lacks %q for %q:\n%s", want, e.Name, screen)
		}
		press(m, "d")
		if o := plainOverlay(m) + statusText(m); !strings.Contains(o, want) {
			t.Errorf("delete dialog for %q lacks %q:\n%s", e.Name, want, o)
		}
		press(m, "n")
		press(m, "y")
		if !strings.Contains(m.st.msg, "copied the name "+want+" (") {
			t.Errorf("status after y on %q: %q", e.Name, m.st.msg)
		}
		press(m, "j")
	}
}

// TestPreview_ShowsWhatEscapesHold (issue 29 item 4): the text of an OSC 8
// link's address, an OSC 52 payload and a window title is on the preview,
// neutralised, rather than gone while recall hands it to the agent.
func TestPreview_ShowsWhatEscapesHold(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	content := "see \x1b]8;;http://evil.example\x1b\\the docs\x1b]8;;\x1b\\ and \x1b]52;c;ZXZpbA==\x07 then \x1b]2;pwned-title\x07 done"
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "esc", Content: content, CreatedAt: 1_700_000_000}})
	m := openModel(t, path, 160, 30)
	screen := squeeze(plainScreen(m))
	for _, want := range []string{"⟨U+001B⟩]8;;http://evil.example⟨U+001B⟩", "thedocs", "⟨U+001B⟩]52;c;ZXZpbA==⟨U+0007⟩", "⟨U+001B⟩]2;pwned-title⟨U+0007⟩done"} {
		if !strings.Contains(screen, squeeze(want)) {
			t.Errorf("preview lacks %q:\n%s", want, plainScreen(m))
		}
	}
	if rest := sgr.ReplaceAllString(m.screen(), ""); strings.ContainsAny(rest, "\x07") || strings.Contains(rest, "\x1b]") {
		t.Errorf("an escape reaches the terminal: %q", rest)
	}
}
