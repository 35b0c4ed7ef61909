package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// undoStep is one write of this session, undoable as a whole.
type undoStep struct {
	label   string
	changes []store.Change
}

// undoStack holds every write of the session, the latest last.
type undoStack []undoStep

func (s *undoStack) push(label string, changes []store.Change) {
	*s = append(*s, undoStep{label: label, changes: changes})
}

func (s *undoStack) pop() (undoStep, bool) {
	if len(*s) == 0 {
		return undoStep{}, false
	}
	st := (*s)[len(*s)-1]
	*s = (*s)[:len(*s)-1]
	return st, true
}

// writeDoneMsg carries the outcome of a write made off the update loop.
type writeDoneMsg struct {
	label   string
	changes []store.Change
	err     error
	isUndo  bool // an undo is not itself pushed on the stack
	then    func(m *Model, w writeDoneMsg) tea.Cmd
}

// write applies ops through DB.Apply off the update loop (atomic, locked,
// conflict-checked against the file); then reports the outcome.
func (f *editing) write(m *Model, label string, ops []store.Op, then func(*Model, writeDoneMsg) tea.Cmd) tea.Cmd {
	return f.applyCmd(m, writeDoneMsg{label: label, then: then}, ops)
}

func (f *editing) applyCmd(m *Model, w writeDoneMsg, ops []store.Op) tea.Cmd {
	db := m.DB()
	if db == nil {
		return m.SetStatus("no memory file is open")
	}
	f.busy = true
	return func() tea.Msg {
		w.changes, w.err = db.Apply(ops...)
		return w
	}
}

// writeDone records a successful write for undo and shows the fresh state
// (after a conflict too: the memory now holds the other writer's version).
func (f *editing) writeDone(m *Model, w writeDoneMsg) tea.Cmd {
	f.busy = false
	if w.err == nil && len(w.changes) > 0 && !w.isUndo {
		f.undo.push(w.label, w.changes)
	}
	return tea.Batch(m.Refresh(added(w.changes)), w.then(m, w))
}

// added is the id of the first entry a write created (to select it), or 0.
func added(changes []store.Change) uint64 {
	for _, c := range changes {
		if c.Before == nil && c.After != nil {
			return c.After.ID
		}
	}
	return 0
}

// undoLast undoes the latest write of the session. The inverse operations
// carry preconditions, so an entry changed on disk since is reported, not
// overwritten.
func (f *editing) undoLast(m *Model) tea.Cmd {
	st, ok := f.undo.pop()
	if !ok {
		return m.SetStatus("nothing to undo")
	}
	w := writeDoneMsg{label: st.label, isUndo: true, then: func(m *Model, w writeDoneMsg) tea.Cmd {
		if w.err != nil {
			return m.SetStatus("cannot undo " + st.label + ": " + errText(m, w.err) + "; nothing changed (dropped from the undo list)")
		}
		return m.SetStatus("undone: " + st.label)
	}}
	return f.applyCmd(m, w, store.Undo(st.changes))
}
