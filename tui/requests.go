package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/export"
	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
)

// request is what an answered dialog asks for, carried as a value: the
// dialog (tui/dialog) is given it and returns it as its answer, and the
// part that opened the dialog carries it out
// in one switch (editing.do, whyView.do). A write's outcome comes back
// the same way: writeDoneMsg.req is the request the write was made for,
// and editing.wrote reports it in one switch. No continuation is kept in
// a closure: what a dialog will do can be read off the dialog.
type request interface{ isRequest() }

// The requests of the editing dialogs and the why prompt.
type (
	// reqNewNote opens the editor on an empty note called name.
	reqNewNote struct{ name string }
	// reqRename renames e to to.
	reqRename struct {
		e  store.Entry
		to string
	}
	// reqAliases sets e's aliases to the comma-separated list.
	reqAliases struct {
		e    store.Entry
		list string
	}
	// reqDump writes mem, as it was when asked, into dir (as typed: ~ is
	// expanded when it is carried out).
	reqDump struct {
		mem *store.Memory
		dir string
	}
	// reqMarkOlderAge is the age typed to mark archives older than; under
	// a day it is asked about first.
	reqMarkOlderAge struct{ age string }
	// reqMarkOlder marks the archives older than d (typed as age).
	reqMarkOlder struct {
		age string
		d   time.Duration
	}
	// reqRemove deletes es (guarded by their state as shown) as label.
	reqRemove struct {
		es    []store.Entry
		label string
	}
	// reqMerge deletes drop and gives keep its name and aliases.
	reqMerge struct{ keep, drop store.Entry }
	// reqSaveEdit saves an edit's operations; done is the status after.
	reqSaveEdit struct {
		s    *editor.Session
		r    editor.Result
		ops  []store.Op
		done string
	}
	// reqResolve carries out an edit conflict's choice c.
	reqResolve struct {
		s *editor.Session
		r editor.Result
		c editor.Choice
	}
	// reqUndo undoes the step st.
	reqUndo struct{ st undoStep }
	// reqRestoreRenamed undoes st with its restores renamed (ops) to news.
	reqRestoreRenamed struct {
		st   undoStep
		ops  []store.Op
		news []string
	}
	// reqKeepUndo keeps st, which could not be undone, in the undo list.
	reqKeepUndo struct{ st undoStep }
	// reqDropUndo drops st from the undo list.
	reqDropUndo struct{ st undoStep }
	// reqWhy explains where the entry called name stands in query's recall.
	reqWhy struct{ query, name string }
	// reqRestore brings version n of the entry called name back with ops
	// (history.RestoreOps, guarded by the entry as it was when asked).
	reqRestore struct {
		name string
		n    int
		ops  []store.Op
	}
)

func (reqNewNote) isRequest()        {}
func (reqRename) isRequest()         {}
func (reqAliases) isRequest()        {}
func (reqDump) isRequest()           {}
func (reqMarkOlderAge) isRequest()   {}
func (reqMarkOlder) isRequest()      {}
func (reqRemove) isRequest()         {}
func (reqMerge) isRequest()          {}
func (reqSaveEdit) isRequest()       {}
func (reqResolve) isRequest()        {}
func (reqUndo) isRequest()           {}
func (reqRestoreRenamed) isRequest() {}
func (reqKeepUndo) isRequest()       {}
func (reqDropUndo) isRequest()       {}
func (reqWhy) isRequest()            {}
func (reqRestore) isRequest()        {}

// The requests of prompts (dialog.Valued), completed by the line typed.
func (r reqNewNote) WithValue(v string) dialog.Request      { r.name = v; return r }
func (r reqRename) WithValue(v string) dialog.Request       { r.to = v; return r }
func (r reqAliases) WithValue(v string) dialog.Request      { r.list = v; return r }
func (r reqDump) WithValue(v string) dialog.Request         { r.dir = v; return r }
func (r reqMarkOlderAge) WithValue(v string) dialog.Request { r.age = v; return r }
func (r reqWhy) WithValue(v string) dialog.Request          { r.name = v; return r }

// do carries out an answered dialog's request.
func (f *editing) do(m *Model, r request) tea.Cmd {
	switch r := r.(type) {
	case reqNewNote:
		s, err := editor.NewNote(r.name, f.ed)
		if err != nil {
			return m.setMessage("cannot start the editor: " + err.Error())
		}
		return f.runEditor(s)
	case reqRename:
		if r.to == r.e.Name {
			return m.setMessage("no changes")
		}
		return f.write(m, r, []store.Op{store.Rename{Name: r.e.Name, New: r.to}})
	case reqAliases:
		list := parseAliases(r.list)
		if sameAliases(list, r.e.Aliases) {
			return m.setMessage("no changes")
		}
		// An Update guarded by the entry as shown: aliases the agent changed
		// meanwhile are reported, not overwritten.
		op := store.Update{Name: r.e.Name, Content: r.e.Content, Aliases: list, Expect: &r.e}
		return f.write(m, r, []store.Op{op})
	case reqDump:
		dir := crmemconfig.ExpandHome(r.dir, f.home) // ~ is the home of the environment given
		entries := r.mem.Entries()
		return tea.Batch(m.setMessage("dumping to "+sanitize.Name(dir)+"…"), func() tea.Msg {
			return dumpDoneMsg{dir: dir, n: len(entries), err: export.Dump(dir, entries)}
		})
	case reqMarkOlderAge:
		return f.markOlderAge(m, r.age)
	case reqMarkOlder:
		return markOlderThan(m, r.age, r.d)
	case reqRemove:
		return f.remove(m, r)
	case reqMerge:
		return f.merge(m, r)
	case reqRestore:
		return f.write(m, r, r.ops)
	case reqResolve:
		return f.resolve(m, r.s, r.r, r.c)
	case reqRestoreRenamed:
		return f.applyCmd(m, writeDoneMsg{label: r.st.label, isUndo: true, req: r}, r.ops)
	case reqKeepUndo:
		return m.setMessage("kept in the undo list: " + r.st.label)
	case reqDropUndo:
		f.undo.pop()
		return m.setMessage("dropped from the undo list: " + r.st.label + " (the entry is gone for good)")
	}
	return nil
}

// label is what the undo list calls a write made for r.
func writeLabel(r request) string {
	switch r := r.(type) {
	case reqRename:
		return "rename " + r.e.Name + " → " + r.to
	case reqAliases:
		return "aliases of " + r.e.Name
	case reqRemove:
		return r.label
	case reqMerge:
		return "merge " + r.drop.Name + " into " + r.keep.Name
	case reqRestore:
		return fmt.Sprintf("restore %s to #%d", sanitize.Name(r.name), r.n)
	case reqSaveEdit:
		if r.s.New {
			return "new note " + r.r.Name
		}
		return "edit " + r.r.Name
	}
	return ""
}

// wrote reports the outcome of a write by the request it was made for.
func (f *editing) wrote(m *Model, w writeDoneMsg) tea.Cmd {
	switch r := w.req.(type) {
	case reqRename:
		return reportWrite(m, w, "renamed "+r.e.Name+" → "+r.to)
	case reqRestore:
		return reportWrite(m, w, fmt.Sprintf("restored %s to version #%d", sanitize.Name(r.name), r.n))
	case reqAliases:
		return reportWrite(m, w, fmt.Sprintf("%s now has %s", r.e.Name, humanize.Plural(len(parseAliases(r.list)), "alias")))
	case reqRemove:
		switch {
		case errors.Is(w.err, store.ErrConflict):
			return m.setMessage("nothing deleted: an entry changed on disk meanwhile; look again and retry")
		case w.err != nil:
			return m.setMessage("nothing deleted: " + errText(m, w.err))
		}
		return m.setMessage(fmt.Sprintf("deleted %s (%s)%s", entriesText(r.es), humanize.Size(totalSize(r.es)), m.c.undoHint()))
	case reqMerge:
		switch {
		case errors.Is(w.err, store.ErrConflict):
			return m.setMessage("nothing merged: an entry changed on disk meanwhile; look again and retry")
		case w.err != nil:
			return m.setMessage("nothing merged: " + errText(m, w.err))
		}
		m.fv.Merged()
		return m.setMessage("merged " + sanitize.Name(r.drop.Name) + " into " + sanitize.Name(r.keep.Name) + m.c.undoHint())
	case reqSaveEdit:
		switch {
		case w.err == nil:
			if err := r.s.Cleanup(); err != nil {
				return m.setMessage(r.done + "; " + err.Error())
			}
			return m.setMessage(r.done)
		case r.s.IsConflict(w.err):
			f.conflict(m, r.s, r.r)
			return nil
		}
		return f.keptStatus(m, r.r, "not saved: "+errText(m, w.err))
	case reqUndo:
		if w.err != nil {
			f.undo.push(r.st.label, r.st.changes) // it stays until restored or dropped
			if errors.Is(w.err, store.ErrNameTaken) {
				return f.offerRestoreAs(m, r.st)
			}
			return m.setMessage("cannot undo " + r.st.label + ": " + errText(m, w.err) + "; nothing changed (" + hints(": ", "still in the undo list", keyHint(m.c.keys.Undo, "tries again")) + ")")
		}
		return m.setMessage("undone: " + r.st.label)
	case reqRestoreRenamed:
		if w.err != nil {
			return m.setMessage("cannot undo " + r.st.label + ": " + errText(m, w.err) + "; nothing changed (still in the undo list)")
		}
		f.undo.pop()
		return m.setMessage("undone: " + r.st.label + ", restored as " + strings.Join(r.news, ", "))
	}
	return nil
}

// reportWrite reports a simple write: done on success, the error otherwise.
func reportWrite(m *Model, w writeDoneMsg, done string) tea.Cmd {
	switch {
	case errors.Is(w.err, store.ErrConflict):
		return m.setMessage("not saved: the entry changed on disk meanwhile; look again and retry")
	case w.err != nil:
		return m.setMessage("cannot save " + w.label + ": " + errText(m, w.err))
	}
	return m.setMessage(done + m.c.undoHint())
}
