// Package editing is the part of the screen that changes the memory:
// the editor round trip, the prompts and questions before a write
// (rename, aliases, new note, delete, delete marked, merge, restore,
// dump, mark older), the conflict choice, and the session's undo list.
//
// It cannot import the root (tui): it reads what the root lends it for
// one call (Screen) and answers with part.Requests, the writes among
// them (part.Write), which the root runs off the loop and hands back
// (Written). The sessions' data and the history index are the root's;
// it reads what it needs of them through Screen.
package editing

import (
	"os/exec"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/part"
)

// ExecFunc runs a process with the terminal handed over
// (tea.ExecProcess); tests run the editor directly.
type ExecFunc func(*exec.Cmd, tea.ExecCallback) tea.Cmd

// Writer is the open memory's writer as the part reads it: the memory as
// last read or written (the writes themselves are the root's, part.Write).
type Writer interface {
	Memory() *store.Memory
}

// Screen is what the root lends the part for one call, read-only: the
// screen's context and what the list, the marks, the sessions and the
// history index say of the entries.
type Screen interface {
	// Ctx is the screen's context (size, styles, keys, the snapshot, the
	// memory, whether it can be written now, its path).
	Ctx() *part.Context
	// Selected is the entry selected in the list, as shown.
	Selected() (store.Entry, bool)
	// Writer is the memory's writer, nil when no memory is open for
	// writing.
	Writer() Writer
	// FileGone says another writer deleted the memory file.
	FileGone() bool
	// ReadOnlyWhy says why the memory cannot be written now.
	ReadOnlyWhy() string
	// Marked are the marked entries as they are now, in ascending id
	// order.
	Marked() []store.Entry
	// DeleteMarkedQuestion is the question before deleting es, the
	// marked entries, with warnings more (marks.Set.DeleteQuestion).
	DeleteMarkedQuestion(es []store.Entry, more string) (text, warn string)
	// ResumeWarning names the sessions whose resume point is among es.
	ResumeWarning(es []store.Entry) string
	// SessionsNaming is how many sessions name e.
	SessionsNaming(e store.Entry) int
	// ErrText is an error as the status line words it (the memory's path
	// shortened).
	ErrText(err error) string
	// RestoreOps are the operations that bring version v of h back over
	// current (nil when memory does not hold it) (history.RestoreOps).
	RestoreOps(h history.History, v history.Version, current *store.Entry) ([]store.Op, error)
}

// Part is the part behind e n r a d space * O o D u and the findings'
// and history's writes.
type Part struct {
	ed   editor.Options
	exec ExecFunc
	dlg  dialog.Dialog // the open prompt, confirmation or choice
	undo undoStack     // every write of this session
	busy bool          // a write is in flight
	kept string        // a temp file holding unsaved text, shown until the next action
	// pendingEdit is the temp file of an edit whose conflict is being
	// asked about ("" otherwise), named if the user quits meanwhile.
	pendingEdit string
	home        string // the home folder, for ~ in a folder typed
}

// New is the editing part, editing with ed through run, home the home
// folder for ~.
func New(ed editor.Options, home string, run ExecFunc) *Part {
	return &Part{ed: ed, exec: run, home: home}
}

// Dialog is the open prompt, question or choice, nil when none.
func (p *Part) Dialog() dialog.Dialog { return p.dlg }

// UndoLen is how many writes the undo list holds.
func (p *Part) UndoLen() int { return len(p.undo) }

// Busy says a write is in flight.
func (p *Part) Busy() bool { return p.busy }

// Written is the outcome of a part.Write, handed back by the root.
type Written struct {
	Label   string
	Changes []store.Change
	Err     error
	Undo    bool
	For     any
}

// editorDoneMsg says the editor exited.
type editorDoneMsg struct {
	s   *editor.Session
	err error
}

// Update takes the messages the part's commands bring back (the editor,
// a dump) and reports whether msg was one.
func (p *Part) Update(s Screen, msg tea.Msg) (bool, []part.Request, tea.Cmd) {
	switch msg := msg.(type) {
	case editorDoneMsg:
		reqs, cmd := p.editorDone(s, msg)
		return true, reqs, cmd
	case dumpDoneMsg:
		return true, dumpDone(msg), nil
	}
	return false, nil, nil
}

// Key gives the key to the open dialog, or runs an editing action, and
// reports whether it was the part's.
func (p *Part) Key(s Screen, k tea.KeyPressMsg) (bool, []part.Request, tea.Cmd) {
	if d := p.dlg; d != nil {
		req, done, note := d.Key(s.Ctx(), k)
		if done && p.dlg == d {
			p.dlg = nil
		}
		var reqs []part.Request
		if note != "" {
			reqs = say(note)
		}
		if r, ok := req.(request); ok {
			more, cmd := p.do(s, r)
			return true, append(reqs, more...), cmd
		}
		return true, reqs, nil
	}
	for _, a := range p.actions(s.Ctx().Keys) {
		if key.Matches(k, a.b) {
			if a.writes && s.Ctx().ReadOnly {
				return true, say(s.ReadOnlyWhy()), nil
			}
			if p.busy && a.writes {
				return true, say("still saving the last change…"), nil
			}
			p.kept = ""
			reqs, cmd := a.do(s)
			return true, reqs, cmd
		}
	}
	return false, nil, nil
}

// WriteKey is the binding of k if it is an editing key that writes to
// the memory (edit, new note, rename, aliases, delete, delete marked,
// undo) as the keys are enabled now.
func (p *Part) WriteKey(keys *keymap.KeyMap, k tea.KeyPressMsg) (key.Binding, bool) {
	for _, a := range p.actions(keys) {
		if a.writes && key.Matches(k, a.b) {
			return a.b, true
		}
	}
	return key.Binding{}, false
}

// action is one editing key.
type action struct {
	b      key.Binding
	writes bool
	do     func(Screen) ([]part.Request, tea.Cmd)
}

// ask is an action that only asks the root for r.
func ask(r part.Request) func(Screen) ([]part.Request, tea.Cmd) {
	return func(Screen) ([]part.Request, tea.Cmd) { return []part.Request{r}, nil }
}

func (p *Part) actions(k *keymap.KeyMap) []action {
	return []action{
		{k.Edit, true, p.edit},
		{k.New, true, p.newNote},
		{k.Rename, true, p.rename},
		{k.Aliases, true, p.aliases},
		{k.Delete, true, p.deleteSelected},
		{k.Mark, false, ask(part.ToggleMark{})},
		{k.MarkAll, false, ask(part.MarkListed{})},
		{k.MarkOlder, false, p.markOlder},
		{k.Unmark, false, ask(part.Unmark{})},
		{k.Orphans, false, ask(part.ToggleOrphans{})},
		{k.NeverRecalled, false, ask(part.ToggleNeverRecalled{})},
		{k.DeleteMarked, true, p.deleteMarked},
		{k.Undo, true, p.undoLast},
		{k.Dump, false, p.dump},
		{k.Findings, false, ask(part.ShowFindings{})},
		{k.History, false, p.openHistory},
		{k.Forgotten, false, ask(part.ShowForgotten{})},
	}
}

// say is the request to show text on the status line.
func say(text string) []part.Request { return []part.Request{part.Message{Text: text}} }

// selected returns the selected entry in its current state, or says
// there is none.
func (p *Part) selected(s Screen) (store.Entry, []part.Request, bool) {
	e, ok := s.Selected()
	w := s.Writer()
	if !ok || w == nil {
		return e, say("no entry selected"), false
	}
	if cur, ok := w.Memory().Get(e.ID); ok && cur.Name == e.Name { // not an entry sharing its id
		e = cur
	}
	return e, nil, true
}

// openHistory opens the history view on the selected entry, read-only
// memories included (only a restore writes).
func (p *Part) openHistory(s Screen) ([]part.Request, tea.Cmd) {
	e, ok := s.Selected()
	if !ok {
		return say("no entry selected"), nil
	}
	return []part.Request{part.OpenHistory{Name: e.Name}}, nil
}

// DialogBody draws the open dialog's body (an edit conflict's diff) in
// place of the panes; "" when the dialog has none.
func (p *Part) DialogBody(c *part.Context, w, h int) string {
	if d, ok := p.dlg.(*dialog.Choice); ok && d.Body != nil {
		return d.Body.View(c, w, h)
	}
	return ""
}

// Notice names the file holding unsaved text until the next editing
// action; the status line gives it a line of its own when it does not
// fit.
func (p *Part) Notice() string {
	if p.kept == "" {
		return ""
	}
	return "⚠ unsaved text kept in " + p.kept
}

// QuitNotice names the file holding text that was not saved: an edit
// whose conflict was still being asked about, or one kept earlier.
func (p *Part) QuitNotice() string {
	switch {
	case p.pendingEdit != "":
		return "your edit was not saved; your text is kept in " + p.pendingEdit
	case p.kept != "":
		return "unsaved text kept in " + p.kept
	}
	return ""
}

// FullHelp is the part's columns of the `?` help: changing an entry, and
// the archive cleanup.
func FullHelp(k *keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.EditingKeys(), k.CleanupKeys()}
}

// undoHint is " (u undoes)" after a write, or "" when undo has no key.
func undoHint(k *keymap.KeyMap) string { return part.Paren(part.KeyHint(k.Undo, "undoes")) }
