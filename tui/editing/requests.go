package editing

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
	"github.com/crmem/crmem/tui/part"
)

// request is what an answered dialog of the part asks for, carried as a
// value: the dialog (tui/dialog) is given it and returns it as its
// answer, and the part carries it out in one switch (do). A write's
// outcome comes back the same way: Written.For is the request the write
// was made for, and wrote reports it in one switch. No continuation is
// kept in a closure: what a dialog will do can be read off the dialog.
type request interface{ isRequest() }

// The requests of the editing dialogs.
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
func (reqRestore) isRequest()        {}

// The requests of prompts (dialog.Valued), completed by the line typed.
func (r reqNewNote) WithValue(v string) dialog.Request      { r.name = v; return r }
func (r reqRename) WithValue(v string) dialog.Request       { r.to = v; return r }
func (r reqAliases) WithValue(v string) dialog.Request      { r.list = v; return r }
func (r reqDump) WithValue(v string) dialog.Request         { r.dir = v; return r }
func (r reqMarkOlderAge) WithValue(v string) dialog.Request { r.age = v; return r }

// do carries out an answered dialog's request.
func (p *Part) do(s Screen, r request) ([]part.Request, tea.Cmd) {
	switch r := r.(type) {
	case reqNewNote:
		ss, err := editor.NewNote(r.name, p.ed)
		if err != nil {
			return say("cannot start the editor: " + err.Error()), nil
		}
		return nil, p.runEditor(ss)
	case reqRename:
		if r.to == r.e.Name {
			return say("no changes"), nil
		}
		return p.write(s, r, []store.Op{store.Rename{Name: r.e.Name, New: r.to}}), nil
	case reqAliases:
		list := parseAliases(r.list)
		if sameAliases(list, r.e.Aliases) {
			return say("no changes"), nil
		}
		// An Update guarded by the entry as shown: aliases the agent changed
		// meanwhile are reported, not overwritten.
		op := store.Update{Name: r.e.Name, Content: r.e.Content, Aliases: list, Expect: &r.e}
		return p.write(s, r, []store.Op{op}), nil
	case reqDump:
		dir := crmemconfig.ExpandHome(r.dir, p.home) // ~ is the home of the environment given
		entries := r.mem.Entries()
		return say("dumping to " + sanitize.Name(dir) + "…"), func() tea.Msg {
			return dumpDoneMsg{dir: dir, n: len(entries), err: export.Dump(dir, entries)}
		}
	case reqMarkOlderAge:
		return p.markOlderAge(r.age), nil
	case reqMarkOlder:
		return []part.Request{part.MarkOlder{Age: r.age, D: r.d}}, nil
	case reqRemove:
		return p.remove(s, r), nil
	case reqMerge:
		return p.merge(s, r), nil
	case reqRestore:
		return p.write(s, r, r.ops), nil
	case reqResolve:
		return p.resolve(s, r.s, r.r, r.c), nil
	case reqRestoreRenamed:
		return p.apply(s, r.st.label, true, r, r.ops), nil
	case reqKeepUndo:
		return say("kept in the undo list: " + r.st.label), nil
	case reqDropUndo:
		p.undo.pop()
		return say("dropped from the undo list: " + r.st.label + " (the entry is gone for good)"), nil
	}
	return nil, nil
}

// writeLabel is what the undo list calls a write made for r.
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
func (p *Part) wrote(s Screen, w Written) []part.Request {
	keys := s.Ctx().Keys
	switch r := w.For.(type) {
	case reqRename:
		return reportWrite(s, w, "renamed "+r.e.Name+" → "+r.to)
	case reqRestore:
		return reportWrite(s, w, fmt.Sprintf("restored %s to version #%d", sanitize.Name(r.name), r.n))
	case reqAliases:
		return reportWrite(s, w, fmt.Sprintf("%s now has %s", r.e.Name, humanize.Plural(len(parseAliases(r.list)), "alias")))
	case reqRemove:
		switch {
		case errors.Is(w.Err, store.ErrConflict):
			return say("nothing deleted: an entry changed on disk meanwhile; look again and retry")
		case w.Err != nil:
			return say("nothing deleted: " + s.ErrText(w.Err))
		}
		return say(fmt.Sprintf("deleted %s (%s)%s", entriesText(r.es), humanize.Size(totalSize(r.es)), undoHint(keys)))
	case reqMerge:
		switch {
		case errors.Is(w.Err, store.ErrConflict):
			return say("nothing merged: an entry changed on disk meanwhile; look again and retry")
		case w.Err != nil:
			return say("nothing merged: " + s.ErrText(w.Err))
		}
		return []part.Request{part.FindingsMerged{},
			part.Message{Text: "merged " + sanitize.Name(r.drop.Name) + " into " + sanitize.Name(r.keep.Name) + undoHint(keys)}}
	case reqSaveEdit:
		switch {
		case w.Err == nil:
			if err := r.s.Cleanup(); err != nil {
				return say(r.done + "; " + err.Error())
			}
			return say(r.done)
		case r.s.IsConflict(w.Err):
			p.conflict(s, r.s, r.r)
			return nil
		}
		return p.keptStatus(r.r, "not saved: "+s.ErrText(w.Err))
	case reqUndo:
		if w.Err != nil {
			p.undo.push(r.st.label, r.st.changes) // it stays until restored or dropped
			if errors.Is(w.Err, store.ErrNameTaken) {
				return p.offerRestoreAs(s, r.st)
			}
			return say("cannot undo " + r.st.label + ": " + s.ErrText(w.Err) + "; nothing changed (" + part.Hints(": ", "still in the undo list", part.KeyHint(keys.Undo, "tries again")) + ")")
		}
		return say("undone: " + r.st.label)
	case reqRestoreRenamed:
		if w.Err != nil {
			return say("cannot undo " + r.st.label + ": " + s.ErrText(w.Err) + "; nothing changed (still in the undo list)")
		}
		p.undo.pop()
		return say("undone: " + r.st.label + ", restored as " + strings.Join(r.news, ", "))
	}
	return nil
}

// reportWrite reports a simple write: done on success, the error otherwise.
func reportWrite(s Screen, w Written, done string) []part.Request {
	switch {
	case errors.Is(w.Err, store.ErrConflict):
		return say("not saved: the entry changed on disk meanwhile; look again and retry")
	case w.Err != nil:
		return say("cannot save " + w.Label + ": " + s.ErrText(w.Err))
	}
	return say(done + undoHint(s.Ctx().Keys))
}
