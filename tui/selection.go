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

// selectedEntry returns the entry under the cursor.
func (m *Model) selectedEntry() (store.Entry, bool) {
	r, ok := m.list.selected()
	if !ok {
		return store.Entry{}, false
	}
	return m.snap.entries[r.idx], true
}

// markListed marks (or unmarks) every listed entry and returns how many
// there are; it reads sizes from the rows, so 100k marks stay cheap.
func (m *Model) markListed(on bool) int {
	n := 0
	for _, r := range m.list.rows {
		if !r.isEntry() {
			continue
		}
		n++
		e := &m.snap.entries[r.idx]
		if on {
			m.marks.put(*e)
		} else {
			m.marks.drop(*e)
		}
	}
	return n
}

// listedIDs returns the ids of the listed entries, in list order.
func (m *Model) listedIDs() []uint64 {
	ids := make([]uint64, 0, m.list.entries)
	for _, r := range m.list.rows {
		if r.isEntry() {
			ids = append(ids, m.snap.entries[r.idx].ID)
		}
	}
	return ids
}

// setMarked marks or unmarks an entry. Marks survive reloads while the
// entry exists.
func (m *Model) setMarked(id uint64, on bool) {
	if on == m.marks.has(id) {
		return
	}
	e, _ := m.snap.entry(id)
	if on {
		m.marks.put(e)
	} else {
		m.marks.drop(e)
	}
}

// enableEditing turns the editing bindings on (they are declared but off
// until the editing part is installed).
func (m *Model) enableEditing() { m.c.editing = true; m.setMode() }

// refreshWith shows s, a snapshot built off the update loop after a write
// (listedSnapshot with the previous one, so its orders are derived in
// linear time), as refresh does.
func (m *Model) refreshWith(s *snapshot, sel uint64) tea.Cmd {
	if m.db == nil || s == nil {
		return nil
	}
	m.applySnapshot(s)
	if sel != 0 && !m.list.selectID(m.snap, sel) {
		m.pendingSel = sel // selected once the search re-runs, or revealed
		if m.result == nil {
			m.revealPending()
		}
	}
	m.list.scroll(m.bodyHeight())
	return tea.Batch(m.showSelected(), m.rerunSearch(), warmCmd(m.snap))
}
