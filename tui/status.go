package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/tui/part"
)

// messageFor is how long a transient status message stays.
const messageFor = 4 * time.Second

// status is what the status line reports besides counts and search.
type status struct {
	fileWarning string // the file is missing or invalid
	fileGone    bool   // another writer deleted the file: writes wait for it
	daemon      bool   // a crabtalk daemon is running
	// daemonWhy is why a store is not written while the daemon runs:
	// the check's one line naming the process and how to stop it, or
	// why it proved nothing; "" when it named no reason.
	daemonWhy  string
	daemonSock string
	lastReload time.Time
	msg        string
	msgSeq     int
}

// clearMessageMsg expires a transient message.
type clearMessageMsg struct{ seq int }

// setMessage shows a transient message in the status line.
func (m *Model) setMessage(text string) tea.Cmd {
	m.st.msgSeq++
	m.st.msg = text
	return m.after(messageFor, clearMessageMsg{seq: m.st.msgSeq})
}

func (s *status) clearMessage(seq int) {
	if seq == s.msgSeq {
		s.msg = ""
	}
}

// statusLines renders the bottom lines: the status line (warnings, search
// figures, counts, last reload, the path shortened in the middle to fit)
// and, above it, the transient message when it does not fit beside them,
// wrapped to at most two lines, and the warnings when they do not fit
// beside the figures, wrapped the same way. The point of a message or a
// warning is never cut off: a warning cut at the screen's edge (the
// repair of an unfinished append, at 100 columns) hid both its end and
// the counts after it.
func (m *Model) statusLines() []string {
	st := m.c.styles
	sep := st.statusSep
	warns := append(m.warnings(), m.storeWarnings()...)
	var parts []string
	for _, w := range warns {
		parts = append(parts, st.warning.Render(w))
	}
	if ro := m.readOnlyStatus(); ro != "" {
		parts = append(parts, ro)
	}
	if t := m.statusText(); t != "" {
		parts = append(parts, t)
	}
	if s := m.searchStatus(); s != "" {
		parts = append(parts, st.status.Render(s))
	}
	counts := len(parts)
	parts = append(parts, m.drawnCounts())
	reloaded := !m.st.lastReload.IsZero()
	if reloaded {
		parts = append(parts, st.status.Render("reloaded "+m.st.lastReload.In(m.c.loc).Format("15:04:05")))
	}
	msg, style := m.messageText(), st.message
	if msg == "" {
		msg, style = sanitize.Line(m.notice()), st.warning
	}
	if msg != "" {
		inline := append([]string{style.Render(msg)}, parts...)
		if line, ok := m.fitStatus(inline, sep, 24); ok {
			return []string{line}
		}
	}
	line, ok := m.fitStatus(parts, sep, 12)
	var above []string
	if !ok && len(warns) > 0 { // the warnings go above, whole
		above = wrapLines(st.warning, strings.Join(warns, "  "), m.c.width, 3)
		parts, counts = parts[len(warns):], counts-len(warns)
		line, ok = m.fitStatus(parts, sep, 12)
	}
	if !ok && reloaded { // full: the time of the last reload goes first
		parts = parts[:len(parts)-1]
		line, ok = m.fitStatus(parts, sep, 12)
	}
	if !ok && m.loaded && m.c.db != nil { // then the counts become the list's kind letters
		parts[counts] = st.status.Render(m.shortCounts())
		line, _ = m.fitStatus(parts, sep, 12)
	}
	var out []string
	if msg != "" {
		out = wrapMessage(style, msg, m.c.width)
	}
	return append(append(out, above...), line)
}

// drawnCounts is countsText in the status style, drawn again only when the
// text or the palette changed.
func (m *Model) drawnCounts() string {
	d := &m.statusCounts
	if text := m.countsText(); !d.valid || d.text != text || d.styles != m.c.styles {
		*d = drawnText{valid: true, text: text, styles: m.c.styles, out: m.c.styles.status.Render(text)}
	}
	return d.out
}

// drawnText is a text drawn in a style of a palette (styles never change
// once made: a new palette is a new value).
type drawnText struct {
	valid     bool
	text, out string
	styles    *styles
}

// fitStatus joins parts and the path, shortening the path in the middle
// to fit the width (down to minPath cells); ok is false when even that
// does not fit, and the line is then cut at the width.
func (m *Model) fitStatus(parts []string, sep string, minPath int) (string, bool) {
	from := statusFrom{text: strings.Join(parts, sep), sep: sep, minPath: minPath,
		width: m.c.width, path: m.path, home: m.home, styles: m.c.styles}
	for _, f := range m.statusFits {
		if f.valid && f.from == from {
			return f.line, f.ok
		}
	}
	line, ok := from.fit()
	copy(m.statusFits[1:], m.statusFits[:])
	m.statusFits[0] = statusFit{valid: true, from: from, line: line, ok: ok}
	return line, ok
}

// statusFrom is everything a fitted status line depends on.
type statusFrom struct {
	text, sep  string // the parts, joined by sep
	minPath    int
	width      int
	path, home string
	styles     *styles // never changed once made: a new palette is a new value
}

// fit is fitStatus's line from f, made anew.
func (f statusFrom) fit() (string, bool) {
	room := f.width - drawnWidth(f.text) - drawnWidth(f.sep)
	path := displayPath(f.path, f.home)
	if room >= min(f.minPath, drawnWidth(path)) {
		return f.text + f.sep + f.styles.dim.Render(middle(path, room)), true
	}
	return ansi.Truncate(f.text, f.width, "…"), false
}

// statusFit is a status line fitted (fitStatus) and what it was fitted
// from. Every update lays the screen out (bodyHeight draws the status
// lines to share the height out) and most often fits the same line at
// the same width again: measuring it and shortening the path was half
// of the status line's time. The model keeps the last few (a message
// tried inline, then the line without it, then shorter ones).
type statusFit struct {
	valid bool
	from  statusFrom
	line  string
	ok    bool
}

// warnings are the file and daemon warnings, short on a narrow screen.
func (m *Model) warnings() []string {
	var out []string
	if m.st.fileWarning != "" {
		out = append(out, "⚠ "+m.st.fileWarning)
	}
	store := !m.caps().ShowsIDs() // crabtalk's store: every write waits for its daemon to stop
	if m.daemonHolds() && !m.caps().ReadOnly() {
		out = append(out, "⚠ read-only while crabtalk runs")
	}
	if m.st.daemon && !m.readOnly() && !store { // nothing is edited here on a read-only store
		switch {
		case m.c.width >= 120:
			out = append(out, "⚠ crabtalk daemon running: it will overwrite edits made here")
		case m.c.width >= 80:
			out = append(out, "⚠ daemon running: overwrites edits")
		default:
			out = append(out, "⚠ daemon overwrites edits")
		}
	}
	// From the snapshot, read off the loop: the memory's own lock is held
	// for the whole of a reload's sync, and a frame must not wait for it.
	if ids := m.c.snap.dups; len(ids) > 0 {
		out = append(out, fmt.Sprintf("⚠ %s id(s) held by more than one entry (id %d…): all are kept; see crmem check", humanize.Count(len(ids)), ids[0]))
	}
	return out
}

// messageText is the transient message, safe to show.
func (m *Model) messageText() string {
	if m.st.msg == "" {
		return ""
	}
	return sanitize.Line(m.st.msg)
}

// wrapMessage wraps a message to the width, at most two lines; a message
// longer than that keeps its end (where paths and reasons are) and loses
// the middle.
func wrapMessage(style lipgloss.Style, msg string, width int) []string {
	return wrapLines(style, msg, width, 2)
}

// wrapLines is wrapMessage to at most n lines.
func wrapLines(style lipgloss.Style, msg string, width, n int) []string {
	if drawnWidth(msg) > n*width {
		msg = middle(msg, n*width)
	}
	lines := wrapWords(msg, width)
	if len(lines) > n {
		lines = hardwrap(msg, width)
	}
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// middle shortens plain text s to w cells by replacing its middle with
// "…", cutting between grapheme clusters measured as drawn (part.Middle).
func middle(s string, w int) string { return part.Middle(s, w) }

// shortPath shortens a path to w cells in the middle, keeping its last
// element whole when that fits (part.ShortPath).
func shortPath(path string, w int) string { return part.ShortPath(path, w) }

// displayPath is path with the home folder as ~, safe to show.
func displayPath(path, home string) string {
	if home != "" && (path == home || strings.HasPrefix(path, home+string(filepath.Separator))) {
		path = "~" + path[len(home):]
	}
	return sanitize.Name(path)
}

// countsText is "12 notes · 5 archives · 1 topic", or why there are none.
func (m *Model) countsText() string {
	switch {
	case !m.loaded:
		return "opening…"
	case m.c.db == nil:
		return "cannot read"
	}
	c := m.c.snap.counts
	return fmt.Sprintf("%s · %s · %s", humanize.Plural(c[0], "note"), humanize.Plural(c[1], "archive"), humanize.Plural(c[2], "topic"))
}

// shortCounts is "22 N · 4 A · 0 T", the counts for a narrow screen.
func (m *Model) shortCounts() string {
	c := m.c.snap.counts
	return fmt.Sprintf("%s N · %s A · %s T", humanize.Count(c[0]), humanize.Count(c[1]), humanize.Count(c[2]))
}

// searchStatus gives the true counts: "14,435 hits · 3 names · 120 prefix
// matches · showing 1,000 in 2.1 ms"; in the recall view what recall returns.
func (m *Model) searchStatus() string {
	r := m.result
	if r == nil {
		return ""
	}
	if m.list.RecallView {
		return fmt.Sprintf("recall view: top %s of %s%s",
			humanize.Count(min(m.lim.recallLimit, r.ExactTotal)), humanize.Plural(r.ExactTotal, "hit"), paren(hints(": ", keyName(m.c.keys.Recall), "all hits")))
	}
	parts := []string{humanize.Plural(r.ExactTotal, "hit")}
	if r.indexing {
		parts[0] = "indexing…"
	}
	if r.NameTotal > 0 {
		parts = append(parts, humanize.Plural(r.NameTotal, "name"))
	}
	if r.PrefixOnly > 0 {
		parts = append(parts, humanize.Plural(r.PrefixOnly, "prefix match"))
	}
	if shown := m.listedCount(); shown < r.distinct {
		parts = append(parts, "showing "+humanize.Count(shown))
	}
	if l := r.storeRecallLabel(); l != "" {
		parts = append(parts, l)
	}
	return strings.Join(parts, " · ") + " in " + formatDuration(r.took)
}

// listedCount is the number of entry rows in the list.
func (m *Model) listedCount() int { return m.list.Entries() }

// formatDuration prints a short duration: 40 µs, 0.4 ms, 12 ms, 1.2 s.
func formatDuration(d time.Duration) string {
	switch {
	case d < 100*time.Microsecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
