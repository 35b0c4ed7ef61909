package editing

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/part"
)

// edit opens the selected entry in the editor.
func (p *Part) edit(s Screen) ([]part.Request, tea.Cmd) {
	e, reqs, ok := p.selected(s)
	if !ok {
		return reqs, nil
	}
	ss, err := editor.Edit(e, p.ed)
	if err != nil {
		return say("cannot start the editor: " + err.Error()), nil
	}
	return nil, p.runEditor(ss)
}

// newNote asks for a name, then opens the editor on an empty note.
func (p *Part) newNote(s Screen) ([]part.Request, tea.Cmd) {
	if s.Writer() == nil {
		return say("no memory file is open"), nil
	}
	p.dlg = dialog.NewPrompt("new note name", "", dialog.FreeName{}, reqNewNote{})
	return nil, nil
}

// runEditor hands the terminal to the editor.
func (p *Part) runEditor(ss *editor.Session) tea.Cmd {
	return p.exec(ss.Cmd(), func(err error) tea.Msg { return editorDoneMsg{s: ss, err: err} })
}

// editorDone reads the edit back and saves it, or says why not.
func (p *Part) editorDone(s Screen, msg editorDoneMsg) ([]part.Request, tea.Cmd) {
	ss := msg.s
	r := ss.Finish(msg.err)
	if r.Outcome == editor.Changed {
		return p.saveEdit(s, ss, r, r.Ops, savedText(ss, r.Ops)), nil
	}
	text := r.Message()
	if r.Outcome != editor.Unchanged {
		p.kept = r.Path
	}
	if ss.New && r.Outcome == editor.Unchanged {
		text = "note " + r.Name + " not created: it was left empty"
		if r.Quick {
			text += " (the editor returned at once; a GUI editor needs its wait flag, e.g. EDITOR=\"code -w\")"
		}
	}
	return []part.Request{part.Message{Text: text}, part.Reload{}}, nil
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
func (p *Part) saveEdit(s Screen, ss *editor.Session, r editor.Result, ops []store.Op, done string) []part.Request {
	return p.write(s, reqSaveEdit{s: ss, r: r, ops: ops, done: done}, ops)
}

// conflict asks what to do when another writer changed, renamed or
// removed the entry meanwhile (or took a new note's name), and shows
// theirs against yours in place of the panes.
func (p *Part) conflict(s Screen, ss *editor.Session, r editor.Result) {
	w := ss.Happened(s.Writer().Memory())
	text := r.Name + " " + w.String() + " while you were editing:"
	if ss.New {
		text = "the name " + r.Name + " was taken meanwhile:"
	}
	p.pendingEdit = r.Path
	var os []dialog.Option
	for _, c := range ss.Choices() {
		os = append(os, dialog.Option{Key: choiceKey(s.Ctx().Keys, c), Label: c.String(), Short: choiceShort(c), Pick: reqResolve{ss, r, c}})
	}
	p.dlg = &dialog.Choice{Text: text, Options: os, Cancel: reqResolve{ss, r, editor.KeepTheirs}, Body: dialog.ConflictBody(w, r)}
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
func (p *Part) resolve(s Screen, ss *editor.Session, r editor.Result, c editor.Choice) []part.Request {
	p.pendingEdit = ""
	op, err := ss.Resolve(r, c, s.Writer().Memory())
	switch {
	case err != nil:
		return p.keptStatus(r, err.Error())
	case op == nil:
		return p.keptStatus(r, "kept theirs")
	}
	return p.saveEdit(s, ss, r, []store.Op{op}, savedText(ss, []store.Op{op}))
}

// keptStatus reports that the text was not saved and where it is, and
// keeps the path in the status line until the next editing action.
func (p *Part) keptStatus(r editor.Result, why string) []part.Request {
	p.kept = r.Path
	return say(r.KeptMessage(why))
}
