package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// The selection, the listed entries and the marks, as the editing part
// and the panels read and change them.

// writer returns the open memory file, or nil before it is open.
func (m *Model) writer() *store.DB {
	return m.caps().Writer // nil for crabtalk's store: it is read-only
}

// setMarked marks or unmarks an entry. Marks survive reloads while the
// entry exists.
func (m *Model) setMarked(id uint64, on bool) {
	if on == m.marks.Has(id) {
		return
	}
	e, _ := m.c.snap.entry(id)
	if on {
		m.marks.Put(e)
	} else {
		m.marks.Drop(e)
	}
}

// enableEditing turns the editing bindings on (they are declared but off
// until the editing part is installed).
func (m *Model) enableEditing() { m.c.editing = true; m.setMode() }

// refreshWith shows s, a snapshot built off the update loop after a write
// (listedSnapshot with the previous one, so its orders are derived in
// linear time), as refresh does.
func (m *Model) refreshWith(s *snapshot, sel uint64) tea.Cmd {
	if m.c.db == nil || s == nil {
		return nil
	}
	m.applySnapshot(s)
	if sel != 0 && !m.list.SelectID(m.c.snap, sel) {
		m.pendingSel = sel // selected once the search re-runs, or revealed
		if m.result == nil {
			m.revealPending()
		}
	}
	m.list.Scroll(m.bodyHeight())
	return tea.Batch(m.showSelected(), m.rerunSearch(), warmCmd(m.c.snap))
}
