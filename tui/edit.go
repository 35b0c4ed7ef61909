package tui

import (
	"fmt"
	"os/exec"

	tea "charm.land/bubbletea/v2"

	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/tui/editing"
	"github.com/crmem/crmem/tui/marks"
	"github.com/crmem/crmem/tui/part"
)

// The editing part (the editor, prompts and questions before a write,
// undo) is a package of its own (tui/editing): it reads what the root
// lends it (editScreen) and answers with part.Requests, which do carries
// out; its writes (part.Write) run here, off the loop, and come back to
// it (editing.Part.Wrote).

// newEditingPart returns the part that changes the memory: the editor,
// prompts and confirmations, marks and bulk delete, undo, and the archive
// references that warn before a session's resume point goes.
func newEditingPart(opts Options) *editing.Part {
	return newEditing(opts, editor.Options{Getenv: opts.getenv()}, execProcess)
}

// execFunc runs a process with the terminal handed over (tea.ExecProcess);
// tests run the editor directly.
type execFunc func(*exec.Cmd, tea.ExecCallback) tea.Cmd

// newEditing is the editing part with the editor's options ed, run by run.
func newEditing(opts Options, ed editor.Options, run execFunc) *editing.Part {
	return editing.New(ed, crmemconfig.Home(opts.getenv()), editing.ExecFunc(run))
}

// editScreen is what the root lends the editing part for one call
// (editing.Screen): read-only views of the model, the context built once
// when first asked.
type editScreen struct {
	m *Model
	c *part.Context
}

// edScreen is the editing part's view of the model now.
func (m *Model) edScreen() editing.Screen { return &editScreen{m: m} }

func (s *editScreen) Ctx() *part.Context {
	if s.c == nil {
		s.c = s.m.partContext(0) // a dialog or a question needs no body
	}
	return s.c
}

func (s *editScreen) Selected() (store.Entry, bool) { return s.m.list.SelectedEntry(s.m.c.snap) }

func (s *editScreen) Writer() editing.Writer {
	if w := s.m.writer(); w != nil {
		return w
	}
	return nil
}

func (s *editScreen) FileGone() bool      { return s.m.st.fileGone }
func (s *editScreen) ReadOnlyWhy() string { return s.m.readOnlyMessage() }

func (s *editScreen) Marked() []store.Entry { return s.m.markedEntries() }

func (s *editScreen) DeleteMarkedQuestion(es []store.Entry, more string) (text, warn string) {
	return s.m.marks.DeleteQuestion(es, marks.Hidden(es, s.m.list.ListedIDs(s.m.c.snap)), more)
}

func (s *editScreen) ResumeWarning(es []store.Entry) string { return s.m.resumeWarning(es) }
func (s *editScreen) SessionsNaming(e store.Entry) int      { return len(s.m.refsOf(e).by) }
func (s *editScreen) ErrText(err error) string              { return s.m.errText(err) }

func (s *editScreen) RestoreOps(h history.History, v history.Version, current *store.Entry) ([]store.Op, error) {
	return s.m.hist.restore(h, v, current)
}

// editKey gives a key to the editing part (its dialog, or its actions)
// and reports whether it took it.
func (m *Model) editKey(k tea.KeyPressMsg) (bool, tea.Cmd) {
	handled, reqs, cmd := m.ed.Key(m.edScreen(), k)
	if !handled {
		return false, nil
	}
	return true, tea.Batch(m.do(reqs), cmd)
}

// editMessage offers msg to the editing part: what its commands (the
// editor, a dump) bring back.
func (m *Model) editMessage(msg tea.Msg) (bool, tea.Cmd) {
	handled, reqs, cmd := m.ed.Update(m.edScreen(), msg)
	if !handled {
		return false, nil
	}
	return true, tea.Batch(m.do(reqs), cmd)
}

// writeDoneMsg carries the outcome of a write made off the update loop.
type writeDoneMsg struct {
	w    editing.Written
	snap *snapshot // the entries after the write, built off the loop
}

// write runs a write the editing part asked for through DB.Apply off the
// update loop (atomic, locked, conflict-checked against the file);
// writeDone hands the outcome back to it.
func (m *Model) write(r part.Write) tea.Cmd {
	db := m.writer()
	w := editing.Written{Label: r.Label, Undo: r.Undo, For: r.For}
	if db == nil { // the part asked while one was open: say so through it
		w.Err = fmt.Errorf("no memory file is open")
		return func() tea.Msg { return writeDoneMsg{w: w, snap: nil} }
	}
	prev := m.c.snap
	return func() tea.Msg {
		w.Changes, w.Err = db.Apply(r.Ops...)
		// Also after a failure: a conflict re-read the file, whose state the
		// memory now holds. But a file another writer deleted reads as an
		// empty memory: the last state stays on screen (and the marks with
		// it) until the file is back or a write succeeds.
		snap := prev
		if w.Err == nil || !fileMissing(db.Path()) {
			snap = listedSnapshot(db.Memory(), prev)
		}
		return writeDoneMsg{w: w, snap: snap}
	}
}

// writeDone shows the fresh state after a write (after a conflict too:
// the memory now holds the other writer's version) and hands the
// outcome to the editing part, which records it for undo and reports it.
func (m *Model) writeDone(msg writeDoneMsg) tea.Cmd {
	w := msg.w
	if w.Err == nil {
		m.chg.noteWritten(w.Changes)
	}
	var again tea.Cmd
	if w.Err == nil && len(w.Changes) > 0 { // the write is a version of its entries: read their story again
		again = m.rebuildHistory()
	}
	refresh := m.refreshWith(msg.snap, added(w.Changes))
	return tea.Batch(refresh, m.do(m.ed.Wrote(m.edScreen(), w)), again)
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

// notDuplicateDone returns the findings view to its list, whose report
// is computed again without the pair.
func (m *Model) notDuplicateDone(msg editing.NotDuplicateMsg) tea.Cmd {
	if msg.Err != nil {
		return m.setMessage("not remembered: " + m.errText(msg.Err))
	}
	return tea.Batch(m.fv.Again(m.ctx()), m.setMessage(fmt.Sprintf("%s and %s are not duplicates: remembered in %s",
		sanitize.Name(msg.A), sanitize.Name(msg.B), sanitize.Line(displayPath(msg.File, m.home)))))
}

// errText is a store error without the file's path (the status line shows
// the path already), taken as shortError takes it.
func (m *Model) errText(err error) string {
	return sanitize.Line(m.shortError(err))
}
