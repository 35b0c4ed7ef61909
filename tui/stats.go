package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/statsview"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/stats"
)

// statsPanel is the picture of the memory (crmem stats) shown in place of
// the panes. Its figures are computed off the update loop from a snapshot
// and the recall history the model holds (the one read for "recalled N×";
// the sessions are not read again), and computed again whenever either is
// replaced (a reload, a write, a new read of the sessions) while the panel
// is open.
type statsPanel struct {
	open   bool
	offset int         // first line shown
	shown  statsOf     // what s is of; its snap is nil until computed
	s      stats.Stats // the figures of shown
	doing  statsOf     // what is being computed; its snap is nil when nothing
}

// statsOf is what the panel's figures are computed from: a snapshot and
// the recall history (nil while it is read).
type statsOf struct {
	snap    *snapshot
	history *recalls.Then
}

// statsDoneMsg carries the figures of a snapshot and history.
type statsDoneMsg struct {
	of statsOf
	s  stats.Stats
}

// statsCmd computes the figures of of (immutable) off the loop.
func statsCmd(of statsOf, loc *time.Location, now time.Time) tea.Cmd {
	return func() tea.Msg {
		return statsDoneMsg{of: of, s: stats.Compute(of.snap.entries, stats.Options{Loc: loc, Recalled: of.history, Now: now})}
	}
}

// statsOfNow is what the panel should show: the current snapshot and the
// recall history the editing part holds.
func (m *Model) statsOfNow() statsOf {
	return statsOf{snap: m.snap, history: m.recallHistory()}
}

// openStats shows the stats panel, from its top.
func (m *Model) openStats() tea.Cmd {
	m.sp.open, m.sp.offset = true, 0
	return m.refreshStats()
}

// refreshStats starts computing the figures when the panel is open and
// shows another snapshot than the current one, unless that is under way.
func (m *Model) refreshStats() tea.Cmd {
	now := m.statsOfNow()
	if !m.sp.open || m.sp.shown == now || m.sp.doing == now {
		return nil
	}
	m.sp.doing = now
	return statsCmd(now, m.c.loc, m.c.now())
}

// statsDone takes the figures of a snapshot and history; figures of ones
// replaced meanwhile are dropped (refreshStats asks for the current ones).
func (m *Model) statsDone(msg statsDoneMsg) tea.Cmd {
	if m.sp.doing == msg.of {
		m.sp.doing = statsOf{}
	}
	if msg.of == m.statsOfNow() {
		m.sp.shown, m.sp.s = msg.of, msg.s
	}
	return m.refreshStats()
}

// statsKey scrolls the panel; cancel, quit (as configured) and the stats
// key close it (no key quits from an overlay).
func (m *Model) statsKey(k tea.KeyPressMsg) tea.Cmd {
	keys := &m.c.keys
	switch {
	case key.Matches(k, keys.Cancel) || key.Matches(k, keys.Quit) || key.Matches(k, keys.Stats):
		m.sp.open = false
	case key.Matches(k, keys.Top):
		m.sp.offset = 0
	case key.Matches(k, keys.Bottom):
		m.sp.offset = m.statsOverflow()
	default:
		if d, ok := m.moveDelta(k); ok {
			m.scrollStats(d)
		}
	}
	return nil
}

// scrollStats moves the panel's window by d lines, within its text.
func (m *Model) scrollStats(d int) {
	m.sp.offset = min(max(m.sp.offset+d, 0), m.statsOverflow())
}

// statsLines is the panel's text below its title at the screen's width.
func (m *Model) statsLines() []string {
	if m.sp.shown.snap == nil {
		return []string{m.c.styles.dim.Render("counting…")}
	}
	st := m.c.styles
	return statsview.Lines(m.sp.s, m.c.width, statsview.Style{
		Title: func(s string) string { return st.groupHeader.Render(s) },
		Dim:   func(s string) string { return st.dim.Render(s) },
		Kind: func(k store.Kind, s string) string {
			if int(k) < len(st.kinds) {
				return st.kinds[k].Render(s)
			}
			return s
		},
	})
}

// statsOverflow is how many lines of the panel do not fit the screen.
func (m *Model) statsOverflow() int {
	return max(len(m.statsLines())+1-m.bodyHeight(), 0)
}

// statsView renders the panel in place of the panes: a title with the
// keys, then a window of the figures the movement keys scroll.
func (m *Model) statsView() string {
	st := m.c.styles
	keys := &m.c.keys
	lines := m.statsLines()
	h := m.bodyHeight()
	closeKeys := hints("/", keyName(keys.Cancel), keyName(keys.Quit), keyName(keys.Stats))
	hint := "  (" + closeKeys + " close)"
	if over := len(lines) + 1 - h; over > 0 {
		m.sp.offset = min(m.sp.offset, over)
		hint = fmt.Sprintf("  (%s scroll · %d–%d/%d · %s close)",
			keys.ScrollLabel(), m.sp.offset+1, m.sp.offset+h-1, len(lines), closeKeys)
		lines = lines[m.sp.offset : m.sp.offset+h-1]
	}
	if m.sp.doing.snap != nil && m.sp.shown.snap != nil {
		hint += st.dim.Render(" updating…")
	}
	title := st.paneTitle.Render("Memory stats") + st.dim.Render(hint)
	return box(title+"\n"+strings.Join(lines, "\n"), m.c.width, h)
}
