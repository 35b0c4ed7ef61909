package editing

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/part"
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

// write asks the root to apply ops, made for r, through DB.Apply off the
// update loop (atomic, locked, conflict-checked against the file);
// Wrote reports the outcome.
func (p *Part) write(s Screen, r request, ops []store.Op) []part.Request {
	return p.apply(s, writeLabel(r), false, r, ops)
}

// apply asks for a write called label made for r (undo: one that undoes
// a step), unless no memory is open or its file is gone.
func (p *Part) apply(s Screen, label string, undo bool, r request, ops []store.Op) []part.Request {
	if s.Writer() == nil {
		return say("no memory file is open")
	}
	if s.FileGone() {
		// A write now would read the missing file as an empty memory: the
		// last state would leave the screen and the marks with it, and the
		// next reload would report every entry as added.
		return say("nothing written: another writer deleted the file; waiting for it to reappear")
	}
	p.busy = true
	return []part.Request{part.Write{Label: label, Ops: ops, Undo: undo, For: r}}
}

// Wrote takes the outcome of a write the part asked for: a successful
// one goes on the undo list (an undo excepted), and it is reported by
// the request it was made for.
func (p *Part) Wrote(s Screen, w Written) []part.Request {
	p.busy = false
	if w.Err == nil && len(w.Changes) > 0 && !w.Undo {
		p.undo.push(w.Label, w.Changes)
	}
	return p.wrote(s, w)
}

// undoLast undoes the latest write of the session. The inverse operations
// carry preconditions, so an entry changed on disk since is reported, not
// overwritten.
func (p *Part) undoLast(s Screen) ([]part.Request, tea.Cmd) {
	st, ok := p.undo.pop()
	if !ok {
		return say("nothing to undo"), nil
	}
	return p.apply(s, st.label, true, reqUndo{st}, store.Undo(st.changes)), nil
}

// offerRestoreAs asks what to do with an undo whose entries' names were
// taken meanwhile: put them back under free names, keep the step in the
// undo list, or drop it. The step is the top of the undo list meanwhile.
func (p *Part) offerRestoreAs(s Screen, st undoStep) []part.Request {
	ops, renamed := restoreUnder(store.Undo(st.changes), s.Writer().Memory().Lookup)
	if len(renamed) == 0 {
		return say("cannot undo " + st.label + ": a name is taken; nothing changed (still in the undo list)")
	}
	var olds, news []string
	for _, r := range renamed {
		olds, news = append(olds, r[0]), append(news, r[1])
	}
	k := s.Ctx().Keys
	p.dlg = &dialog.Choice{
		Text: fmt.Sprintf("cannot undo %s: %s taken meanwhile.", st.label, strings.Join(olds, ", ")),
		Options: []dialog.Option{
			{Key: &k.RestoreRenamed, Label: "restore as " + strings.Join(news, ", "), Short: "restore renamed", Pick: reqRestoreRenamed{st, ops, news}},
			{Key: &k.KeepUndo, Label: "keep it in the undo list", Short: "keep", Pick: reqKeepUndo{st}},
			{Key: &k.DropUndo, Label: "drop it from the undo list", Short: "drop", Pick: reqDropUndo{st}},
		},
		Cancel: reqKeepUndo{st},
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
