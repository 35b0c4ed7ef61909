package tui

import (
	"os/exec"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/part"
)

// newEditingPart returns the part that changes the memory: the editor,
// prompts and confirmations, marks and bulk delete, undo, and the archive
// references that warn before a session's resume point goes.
func newEditingPart(opts Options) *editing {
	return newEditing(opts, editor.Options{Getenv: opts.getenv()}, execProcess)
}

// execFunc runs a process with the terminal handed over (tea.ExecProcess);
// tests run the editor directly.
type execFunc func(*exec.Cmd, tea.ExecCallback) tea.Cmd

// editing is the part behind e n r a d space * O o D u.
type editing struct {
	ed   editor.Options
	exec execFunc
	dlg  dialog.Dialog // the open prompt, confirmation or choice
	undo undoStack     // every write of this session
	busy bool          // a write is in flight
	kept string        // a temp file holding unsaved text, shown until the next action
	// pendingEdit is the temp file of an edit whose conflict is being
	// asked about ("" otherwise), named if the user quits meanwhile.
	pendingEdit string
	home        string // the home folder, for ~ in a folder typed
}

func newEditing(opts Options, ed editor.Options, run execFunc) *editing {
	return &editing{ed: ed, exec: run, home: crmemconfig.Home(opts.getenv())}
}

// editorDoneMsg says the editor exited.
type editorDoneMsg struct {
	s   *editor.Session
	err error
}

// message handles the editing part's own messages: what its commands
// (the editor, a write, the sessions read) bring back.
func (f *editing) message(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	switch msg := msg.(type) {
	case editorDoneMsg:
		return true, f.editorDone(m, msg)
	case writeDoneMsg:
		return true, f.writeDone(m, msg)
	case dumpDoneMsg:
		return true, dumpDone(m, msg)
	}
	return false, nil
}

// keyPress gives the key to the open dialog, or runs an editing action.
func (f *editing) keyPress(m *Model, k tea.KeyPressMsg) (bool, tea.Cmd) {
	if d := f.dlg; d != nil {
		req, done, note := d.Key(m.lineCtx(), k)
		if done && f.dlg == d {
			f.dlg = nil
		}
		var cmd tea.Cmd
		if note != "" {
			cmd = m.setMessage(note)
		}
		if r, ok := req.(request); ok {
			cmd = tea.Batch(cmd, f.do(m, r))
		}
		return true, cmd
	}
	for _, a := range f.actions(&m.c.keys) {
		if key.Matches(k, a.b) {
			if a.writes && m.readOnly() {
				return true, m.setMessage(m.readOnlyMessage())
			}
			if f.busy && a.writes {
				return true, m.setMessage("still saving the last change…")
			}
			f.kept = ""
			return true, a.do(m)
		}
	}
	return false, nil
}

// action is one editing key.
type action struct {
	b      key.Binding
	writes bool
	do     func(*Model) tea.Cmd
}

func (f *editing) actions(k *keymap.KeyMap) []action {
	return []action{
		{k.Edit, true, f.edit},
		{k.New, true, f.newNote},
		{k.Rename, true, f.rename},
		{k.Aliases, true, f.aliases},
		{k.Delete, true, f.deleteSelected},
		{k.Mark, false, f.toggleMark},
		{k.MarkAll, false, f.markListed},
		{k.MarkOlder, false, f.markOlder},
		{k.Unmark, false, f.unmarkAll},
		{k.Orphans, false, func(m *Model) tea.Cmd { return m.refs.toggleOrphans(m) }},
		{k.NeverRecalled, false, (*Model).toggleNever},
		{k.DeleteMarked, true, f.deleteMarked},
		{k.Undo, true, f.undoLast},
		{k.Dump, false, f.dump},
		{k.Findings, false, func(m *Model) tea.Cmd { return m.fv.Show(m.ctx()) }},
		{k.History, false, f.openHistory},
		{k.Forgotten, false, f.openForgotten},
	}
}

// selected returns the selected entry in its current state, or a status
// command saying there is none.
func (f *editing) selected(m *Model) (store.Entry, tea.Cmd, bool) {
	e, ok := m.list.SelectedEntry(m.c.snap)
	if !ok || m.writer() == nil {
		return e, m.setMessage("no entry selected"), false
	}
	if cur, ok := m.writer().Memory().Get(e.ID); ok && cur.Name == e.Name { // not an entry sharing its id
		e = cur
	}
	return e, nil, true
}

// edit opens the selected entry in the editor.
func (f *editing) edit(m *Model) tea.Cmd {
	e, cmd, ok := f.selected(m)
	if !ok {
		return cmd
	}
	s, err := editor.Edit(e, f.ed)
	if err != nil {
		return m.setMessage("cannot start the editor: " + err.Error())
	}
	return f.runEditor(s)
}

// newNote asks for a name, then opens the editor on an empty note.
func (f *editing) newNote(m *Model) tea.Cmd {
	if m.writer() == nil {
		return m.setMessage("no memory file is open")
	}
	f.dlg = dialog.NewPrompt("new note name", "", dialog.FreeName{}, reqNewNote{})
	return nil
}

// runEditor hands the terminal to the editor.
func (f *editing) runEditor(s *editor.Session) tea.Cmd {
	return f.exec(s.Cmd(), func(err error) tea.Msg { return editorDoneMsg{s: s, err: err} })
}

// editorDone reads the edit back and saves it, or says why not.
func (f *editing) editorDone(m *Model, msg editorDoneMsg) tea.Cmd {
	s := msg.s
	r := s.Finish(msg.err)
	if r.Outcome == editor.Changed {
		return f.saveEdit(m, s, r, r.Ops, savedText(s, r.Ops))
	}
	text := r.Message()
	if r.Outcome != editor.Unchanged {
		f.kept = r.Path
	}
	if s.New && r.Outcome == editor.Unchanged {
		text = "note " + r.Name + " not created: it was left empty"
		if r.Quick {
			text += " (the editor returned at once; a GUI editor needs its wait flag, e.g. EDITOR=\"code -w\")"
		}
	}
	return tea.Batch(m.setMessage(text), m.reloadNow())
}

// savedText is the status after ops saved an edit.
func savedText(s *editor.Session, ops []store.Op) string {
	switch op := ops[len(ops)-1].(type) {
	case store.Add:
		if op.Name != s.Original.Name {
			return "saved your text as the new note " + op.Name
		}
		return "created note " + op.Name
	case store.Update:
		switch {
		case op.Expect == nil && op.Name != s.Original.Name:
			return "saved your text in " + op.Name + " (renamed from " + s.Original.Name + " meanwhile; your version replaces theirs)"
		case op.Expect == nil:
			return "saved " + op.Name + " (your version replaces theirs)"
		}
	case store.Restore:
		if len(ops) > 1 {
			return "saved " + s.Original.Name + ", created " + time.Unix(int64(op.Entry.CreatedAt), 0).UTC().Format(time.RFC3339)
		}
		return "saved " + s.Original.Name + " (put back with your text)"
	}
	return "saved " + s.Original.Name
}

// saveEdit applies an edit's operations; a conflict opens the choice dialog.
func (f *editing) saveEdit(m *Model, s *editor.Session, r editor.Result, ops []store.Op, done string) tea.Cmd {
	return f.write(m, reqSaveEdit{s: s, r: r, ops: ops, done: done}, ops)
}

// conflict asks what to do when another writer changed, renamed or
// removed the entry meanwhile (or took a new note's name), and shows
// theirs against yours in place of the panes.
func (f *editing) conflict(m *Model, s *editor.Session, r editor.Result) {
	w := s.Happened(m.writer().Memory())
	text := r.Name + " " + w.String() + " while you were editing:"
	if s.New {
		text = "the name " + r.Name + " was taken meanwhile:"
	}
	f.pendingEdit = r.Path
	var os []dialog.Option
	for _, c := range s.Choices() {
		os = append(os, dialog.Option{Key: choiceKey(&m.c.keys, c), Label: c.String(), Short: choiceShort(c), Pick: reqResolve{s, r, c}})
	}
	f.dlg = &dialog.Choice{Text: text, Options: os, Cancel: reqResolve{s, r, editor.KeepTheirs}, Body: dialog.ConflictBody(w, r)}
}

// dialogBody draws the open dialog's body (an edit conflict's diff) in
// place of the panes; "" when the dialog has none.
func (f *editing) dialogBody(c *part.Context, w, h int) string {
	if d, ok := f.dlg.(*dialog.Choice); ok && d.Body != nil {
		return d.Body.View(c, w, h)
	}
	return ""
}

// choiceKey is the binding that picks a conflict choice.
func choiceKey(k *keymap.KeyMap, c editor.Choice) *key.Binding {
	return map[editor.Choice]*key.Binding{editor.KeepMine: &k.KeepMine, editor.KeepTheirs: &k.KeepTheirs, editor.SaveAsNew: &k.SaveAsNew}[c]
}

// choiceShort is a conflict choice's label on a narrow screen.
func choiceShort(c editor.Choice) string {
	return map[editor.Choice]string{editor.KeepMine: "mine", editor.KeepTheirs: "theirs", editor.SaveAsNew: "as new note"}[c]
}

// resolve carries out a conflict choice on the fresh state.
func (f *editing) resolve(m *Model, s *editor.Session, r editor.Result, c editor.Choice) tea.Cmd {
	f.pendingEdit = ""
	op, err := s.Resolve(r, c, m.writer().Memory())
	switch {
	case err != nil:
		return f.keptStatus(m, r, err.Error())
	case op == nil:
		return f.keptStatus(m, r, "kept theirs")
	}
	return f.saveEdit(m, s, r, []store.Op{op}, savedText(s, []store.Op{op}))
}

// keptStatus reports that the text was not saved and where it is, and
// keeps the path in the status line until the next editing action.
func (f *editing) keptStatus(m *Model, r editor.Result, why string) tea.Cmd {
	f.kept = r.Path
	return m.setMessage(r.KeptMessage(why))
}

// errText is a store error without the file's path (the status line shows
// the path already), taken as shortError takes it.
func errText(m *Model, err error) string {
	return sanitize.Line(m.shortError(err))
}

// editingHelp is the editing part's columns of the `?` help: changing an
// entry, and the archive cleanup.
func editingHelp(k *keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.EditingKeys(), k.CleanupKeys()}
}
