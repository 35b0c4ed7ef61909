package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/tui/humanize"
	"github.com/crmem/crmem/tui/sanitize"
)

// messageFor is how long a transient status message stays.
const messageFor = 4 * time.Second

// status is what the status line reports besides counts and search.
type status struct {
	fileWarning string // the file is missing or invalid
	daemon      bool   // a crabtalk daemon is running
	daemonSock  string
	lastReload  time.Time
	msg         string
	msgSeq      int
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

// statusLine renders the bottom line: warnings first, then the transient
// message, search figures, counts, last reload and the path.
func (m *Model) statusLine() string {
	st := m.c.styles
	var parts []string
	if m.st.fileWarning != "" {
		parts = append(parts, st.warning.Render("⚠ "+m.st.fileWarning))
	}
	if m.st.daemon && !m.ReadOnly() {
		parts = append(parts, st.warning.Render("⚠ crabtalk daemon running: it will overwrite edits made here"))
	}
	if m.db != nil {
		if ids := m.db.Memory().DuplicateIDs(); len(ids) > 0 {
			parts = append(parts, st.warning.Render(fmt.Sprintf("⚠ %d id(s) held by more than one entry (id %d…): all are kept; see crmem check", len(ids), ids[0])))
		}
	}
	parts = append(parts, m.storeStatus()...)
	if m.st.msg != "" {
		parts = append(parts, st.message.Render(sanitize.Line(m.st.msg)))
	}
	for _, f := range m.features {
		if s, ok := f.(statusTexter); ok {
			if t := s.StatusText(m); t != "" {
				parts = append(parts, t)
			}
		}
	}
	if s := m.searchStatus(); s != "" {
		parts = append(parts, s)
	}
	parts = append(parts, st.status.Render(m.countsText()))
	if !m.st.lastReload.IsZero() {
		parts = append(parts, st.status.Render("reloaded "+m.st.lastReload.In(m.c.loc).Format("15:04:05")))
	}
	parts = append(parts, st.dim.Render(sanitize.Line(m.path)))
	return ansi.Truncate(strings.Join(parts, st.dim.Render(" │ ")), m.c.width, "…")
}

// countsText is "12 notes · 5 archives · 1 topic".
func (m *Model) countsText() string {
	if !m.loaded {
		return "opening…"
	}
	c := m.snap.counts
	return fmt.Sprintf("%s · %s · %s", humanize.Plural(c[0], "note"), humanize.Plural(c[1], "archive"), humanize.Plural(c[2], "topic"))
}

// searchStatus is "7 hits (2 name, 1 prefix) in 0.4 ms".
func (m *Model) searchStatus() string {
	r := m.result
	if r == nil {
		return ""
	}
	n := len(r.hits)
	text := fmt.Sprintf("%s in %s", humanize.Plural(n, "hit"), formatDuration(r.took))
	var extra []string
	if c := r.counts[hitName]; c > 0 {
		extra = append(extra, fmt.Sprintf("%d name", c))
	}
	if c := r.counts[hitPrefix]; c > 0 {
		extra = append(extra, fmt.Sprintf("%d prefix", c))
	}
	if len(extra) > 0 {
		text = fmt.Sprintf("%s (%s) in %s", humanize.Plural(n, "hit"), strings.Join(extra, ", "), formatDuration(r.took))
	}
	if l := r.storeRecallLabel(); l != "" {
		text += " · " + l
	}
	return m.c.styles.status.Render(text)
}

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
