package tui

import (
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/internal/sanitize"
)

// blankMemory reports whether the memory is open and has no entries at
// all (a missing file or an empty one), outside a search: the screen then
// greets instead of listing.
func (m *Model) blankMemory() bool {
	return m.loaded && m.c.db != nil && m.result == nil && m.c.snap != nil && m.c.snap.len() == 0
}

// welcoming reports whether the list pane greets a blank memory, drawn
// across the screen (at 80×24 the welcome was squeezed into the list's 36
// columns beside an empty preview).
func (m *Model) welcoming() bool { return len(m.list.Rows()) == 0 && m.blankMemory() }

// welcomeText is the list pane's text for a blank memory: what the file
// is, whether it (and its folder) exist yet, the keys to begin with, as
// configured, and how to open the sample memory or another file instead.
// The explanation comes last: on a small screen (40×12) it is what the
// pane's height cuts, never the keys or the two commands.
func (m *Model) welcomeText() string {
	where := displayPath(m.path, m.home)
	var b strings.Builder
	switch {
	case m.c.db.Exists():
		b.WriteString("This memory is empty: " + where + " holds no entries yet.")
	case m.noFolder:
		b.WriteString("No memory file yet: the folder " + displayPath(filepath.Dir(m.path), m.home) +
			" does not exist either; the first write creates both.")
	default:
		b.WriteString("No memory file yet at " + where + ": the first write creates it.")
	}
	b.WriteString("\n")
	if k := m.c.keys.New; k.Enabled() {
		b.WriteString("\n" + k.Help().Key + "  add the first note")
	}
	b.WriteString("\n" + m.c.keys.Help.Help().Key + "  all keys")
	b.WriteString("\ncrmem --demo     try a sample memory")
	b.WriteString("\ncrmem --db PATH  open another memory")
	b.WriteString("\n\nThis is an AI agent's long-term memory: notes, compaction archives and topics in one file, which crmem lists, searches and edits.")
	return b.String()
}

// welcomePane wraps the welcome to the pane's width, so it is read whole
// however narrow the terminal (box cuts what does not fit the height).
func (m *Model) welcomePane(w int) string { return paneText(m.c.styles, w, m.welcomeText()) }

// paneText wraps text to a pane w cells wide, dimmed, one cell in.
func paneText(st *styles, w int, text string) string {
	return lipgloss.NewStyle().Width(max(w-1, 1)).PaddingLeft(1).Render(st.dim.Render(text))
}

// unopenedText is the list pane's text when the memory could not be
// opened: which file, why, and that the screen waits for a good write
// (the watcher opens it then) while quit and help still work.
func (m *Model) unopenedText() string {
	var b strings.Builder
	b.WriteString("crmem cannot open " + displayPath(m.path, m.home) + ":\n")
	b.WriteString(sanitize.Line(m.openErr) + "\n\n")
	b.WriteString("Nothing is shown or written until the file is readable; crmem opens it by itself once a good write lands.\n")
	b.WriteString("\n" + m.c.keys.Help.Help().Key + "  all keys")
	if k := m.c.keys.Quit; k.Enabled() {
		b.WriteString("\n" + k.Help().Key + "  quit")
	}
	return b.String()
}

// welcomeKeys are the short help's bindings on a blank memory: only the
// keys that act there (a new note, help, quit), not the ones that need an
// entry.
func (m *Model) welcomeKeys() []key.Binding {
	return []key.Binding{m.c.keys.New, m.c.keys.Quit, m.c.keys.Help}
}

// folderMissing reports whether the memory file's folder does not exist,
// checked once when the file is opened.
func folderMissing(path string) bool {
	_, err := os.Stat(filepath.Dir(path))
	return os.IsNotExist(err)
}
