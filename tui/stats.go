package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/tui/statspanel"
)

// The stats panel is a part of its own (tui/statspanel); the root gives
// it what its figures are of.

// statsOfNow is what the stats panel should show: the current snapshot
// and the recall history the editing part holds.
func (m *Model) statsOfNow() statspanel.Of {
	return statspanel.Of{Snap: m.c.snap, History: m.recallHistory()}
}

// followStats computes the figures again of a snapshot or a recall
// history that replaced the ones shown while the panel is open.
func (m *Model) followStats() tea.Cmd {
	if !m.sp.Open() {
		return nil
	}
	return m.sp.Refresh(m.ctx(), m.statsOfNow())
}
