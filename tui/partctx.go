package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// The parts in packages of their own under tui/ (helpscreen, statspanel,
// whypanel, historyview, forgotten, findings, reloadlog) cannot reach
// the root: they read a part.Context lent for one call and
// answer with part.Requests, which do carries out here, in one place.

// partContext is what the parts read of the common state, lent for one
// call, with the body's height.
func (c *common) partContext(body int) *part.Context {
	return &part.Context{
		Width: c.width, Height: c.height, Body: body,
		Styles: c.styles.part, Keys: &c.keys, Help: c.help,
		Now: c.now, Loc: c.loc, Snap: c.snap, Memory: c.db,
		Fit: c.fitLine, Cells: c.cells, Markdown: c.glamourStyle(),
	}
}

// lineCtx is the part.Context of what is drawn in place of the help line
// (a dialog, a prompt): it has no body, and lending it lays no rows out.
// A dialog reads the common's part of it only (size, styles, keys, the
// memory).
func (m *Model) lineCtx() *part.Context { return m.c.partContext(0) }

// partContext is the common's, with what the root knows besides: whether
// the memory can be written now and the history index.
func (m *Model) partContext(body int) *part.Context {
	ctx := m.c.partContext(body)
	ctx.ReadOnly, ctx.Path, ctx.History, ctx.Refs = m.readOnly(), m.path, m.hist.part(), m.refs.shared()
	return ctx
}

// ctx is the part.Context of the screen as it is.
func (m *Model) ctx() *part.Context { return m.partContext(m.bodyHeight()) }

// partStyles are the styles the parts draw with, of s.
func partStyles(s *styles) *part.Styles {
	return &part.Styles{
		PaneTitle: s.paneTitle, GroupHeader: s.groupHeader, Dim: s.dim, Kinds: s.kinds,
		Warning: s.warning, Border: s.border, Selected: s.selectedRow(true),
		Mark: s.mark, CardTitle: s.cardTitle, Label: s.label,
		DiffDel: s.diffDel, DiffAdd: s.diffAdd, DiffDelWord: s.diffDelWord, DiffAddWord: s.diffAddWord,
		Message: s.message, Status: s.status,
		Card: s.card, CardFocus: s.cardFocus, Highlight: s.highlight, SelectedAway: s.selectedRow(false),
	}
}

// Entries are the snapshot's entries (part.Snapshot).
func (s *snapshot) Entries() []store.Entry { return s.entries }

// Get is the entry with id, if the snapshot holds it (part.Snapshot).
func (s *snapshot) Get(id uint64) (store.Entry, bool) {
	i, ok := s.index(id)
	if !ok {
		return store.Entry{}, false
	}
	return s.entries[i], true
}

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
		case part.OpenHistory:
			cmds = append(cmds, m.hv.Show(m.ctx(), r.Name))
		case part.Jump:
			cmds = append(cmds, m.jumpTo(r.ID))
		case part.Selected:
			cmds = append(cmds, m.showSelected())
		case part.Write:
			cmds = append(cmds, m.write(r))
		case part.Reload:
			cmds = append(cmds, m.reloadNow())
		case part.ShowFindings:
			cmds = append(cmds, m.fv.Show(m.ctx()))
		case part.ShowForgotten:
			cmds = append(cmds, m.fg.Show(m.ctx()))
		case part.FindingsMerged:
			m.fv.Merged()
		case part.ToggleMark:
			cmds = append(cmds, m.toggleMark())
		case part.MarkListed:
			cmds = append(cmds, m.markListed())
		case part.Unmark:
			cmds = append(cmds, m.unmarkAll())
		case part.MarkOlder:
			cmds = append(cmds, m.markOlderThan(r.Age, r.D))
		case part.ToggleOrphans:
			cmds = append(cmds, m.toggleOrphans())
		case part.ToggleNeverRecalled:
			cmds = append(cmds, m.toggleNever())
		default: // the writes the other parts ask for (restore, undo, a finding's edit, …)
			if m.ed != nil {
				reqs, cmd, ok := m.ed.Do(m.edScreen(), r)
				if ok {
					cmds = append(cmds, m.do(reqs), cmd)
				}
			}
		}
	}
	return tea.Batch(cmds...)
}
