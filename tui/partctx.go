package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// The parts in packages of their own under tui/ (helpscreen, statspanel,
// whypanel)
// cannot reach the root: they read a part.Context lent for one call and
// answer with part.Requests, which do carries out here, in one place.

// partContext is what the parts read, lent for one call: the common
// state and the body's height.
func (c *common) partContext(body int) *part.Context {
	return &part.Context{
		Width: c.width, Height: c.height, Body: body,
		Styles: c.styles.part, Keys: &c.keys, Help: c.help,
		Now: c.now, Loc: c.loc, Snap: c.snap, Memory: c.db,
	}
}

// lineCtx is the part.Context of what is drawn in place of the help line
// (a dialog, a prompt): it has no body, and lending it lays no rows out.
func (m *Model) lineCtx() *part.Context { return m.c.partContext(0) }

// ctx is the part.Context of the screen as it is.
func (m *Model) ctx() *part.Context { return m.c.partContext(m.bodyHeight()) }

// partStyles are the styles the parts draw with, of s.
func partStyles(s *styles) *part.Styles {
	return &part.Styles{PaneTitle: s.paneTitle, GroupHeader: s.groupHeader, Dim: s.dim, Kinds: s.kinds,
		Message: s.message, Warning: s.warning, Status: s.status}
}

// Entries are the snapshot's entries (part.Snapshot).
func (s *snapshot) Entries() []store.Entry { return s.entries }

// do carries out what a part asked for, in order.
func (m *Model) do(reqs []part.Request) tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range reqs {
		switch r := r.(type) {
		case part.Message:
			cmds = append(cmds, m.setMessage(r.Text))
		case part.Failed:
			cmds = append(cmds, m.setMessage(r.What+": "+sanitize.Line(m.shortError(r.Err))))
		case part.Closed:
			cmds = append(cmds, m.helpClosed(r.Key))
		}
	}
	return tea.Batch(cmds...)
}
