package tui

import (
	"fmt"
	"strings"

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
	snap    *snapshot // the entries after the write, built off the loop
	isUndo  bool      // an undo is not itself pushed on the stack
	req     request   // what the write was made for: editing.wrote reports it
}

// write applies ops, made for r, through DB.Apply off the update loop
// (atomic, locked, conflict-checked against the file); editing.wrote
// reports the outcome.
func (f *editing) write(m *Model, r request, ops []store.Op) tea.Cmd {
	return f.applyCmd(m, writeDoneMsg{label: writeLabel(r), req: r}, ops)
}

func (f *editing) applyCmd(m *Model, w writeDoneMsg, ops []store.Op) tea.Cmd {
	db := m.writer()
	if db == nil {
		return m.setMessage("no memory file is open")
	}
	if m.st.fileGone {
		// A write now would read the missing file as an empty memory: the
		// last state would leave the screen and the marks with it, and the
		// next reload would report every entry as added.
		return m.setMessage("nothing written: another writer deleted the file; waiting for it to reappear")
	}
	f.busy = true
	prev := m.c.snap
	return func() tea.Msg {
		w.changes, w.err = db.Apply(ops...)
		// Also after a failure: a conflict re-read the file, whose state the
		// memory now holds. But a file another writer deleted reads as an
		// empty memory: the last state stays on screen (and the marks with
		// it) until the file is back or a write succeeds.
		w.snap = prev
		if w.err == nil || !fileMissing(db.Path()) {
			w.snap = listedSnapshot(db.Memory(), prev)
		}
		return w
	}
}

// writeDone records a successful write for undo and shows the fresh state
// (after a conflict too: the memory now holds the other writer's version).
func (f *editing) writeDone(m *Model, w writeDoneMsg) tea.Cmd {
	f.busy = false
	if w.err == nil {
		m.chg.noteWritten(w.changes)
	}
	if w.err == nil && len(w.changes) > 0 && !w.isUndo {
		f.undo.push(w.label, w.changes)
	}
	var again tea.Cmd
	if w.err == nil && len(w.changes) > 0 { // the write is a version of its entries: read their story again
		again = m.rebuildHistory()
	}
	return tea.Batch(m.refreshWith(w.snap, added(w.changes)), f.wrote(m, w), again)
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
		return m.setMessage("nothing to undo")
	}
	w := writeDoneMsg{label: st.label, isUndo: true, req: reqUndo{st}}
	return f.applyCmd(m, w, store.Undo(st.changes))
}

// offerRestoreAs asks what to do with an undo whose entries' names were
// taken meanwhile: put them back under free names, keep the step in the
// undo list, or drop it. The step is the top of the undo list meanwhile.
func (f *editing) offerRestoreAs(m *Model, st undoStep) tea.Cmd {
	ops, renamed := restoreUnder(store.Undo(st.changes), m.writer().Memory().Lookup)
	if len(renamed) == 0 {
		return m.setMessage("cannot undo " + st.label + ": a name is taken; nothing changed (still in the undo list)")
	}
	var olds, news []string
	for _, r := range renamed {
		olds, news = append(olds, r[0]), append(news, r[1])
	}
	f.dlg = &choiceDialog{
		text: fmt.Sprintf("cannot undo %s: %s taken meanwhile.", st.label, strings.Join(olds, ", ")),
		choices: []choice{
			{b: &m.c.keys.RestoreRenamed, label: "restore as " + strings.Join(news, ", "), short: "restore renamed", pick: reqRestoreRenamed{st, ops, news}},
			{b: &m.c.keys.KeepUndo, label: "keep it in the undo list", short: "keep", pick: reqKeepUndo{st}},
			{b: &m.c.keys.DropUndo, label: "drop it from the undo list", short: "drop", pick: reqDropUndo{st}},
		},
		cancel: reqKeepUndo{st},
	}
	return nil
}

// restoreUnder renames every Restore of ops whose name is taken (by an
// entry's name, per lookup) to the first free NAME-restored, NAME-restored-2,
// …; renamed lists the [old, new] names.
func restoreUnder(ops []store.Op, lookup func(string) (store.Entry, bool)) (out []store.Op, renamed [][2]string) {
	taken := func(n string) bool { e, ok := lookup(n); return ok && e.Name == n }
	used := map[string]bool{}
	for _, op := range ops {
		r, ok := op.(store.Restore)
		if ok && taken(r.Entry.Name) {
			name := freeRestoredName(r.Entry.Name, func(n string) bool { return taken(n) || used[n] })
			used[name] = true
			renamed = append(renamed, [2]string{r.Entry.Name, name})
			r.Entry.Name = name
			op = r
		}
		out = append(out, op)
	}
	return out, renamed
}

// freeRestoredName is NAME-restored, or NAME-restored-N for the first N
// that is free.
func freeRestoredName(name string, taken func(string) bool) string {
	cand := name + "-restored"
	for i := 2; taken(cand); i++ {
		cand = fmt.Sprintf("%s-restored-%d", name, i)
	}
	return cand
}
