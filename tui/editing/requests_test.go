package editing

import (
	"errors"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/part"
)

// screen is a Screen without a root: a memory, the entry selected and
// the marked ones, the keys enabled as the root enables them.
type screen struct {
	keys     keymap.KeyMap
	mem      *store.Memory
	selected string
	marked   []string
}

func newScreen(es ...store.Entry) *screen {
	return &screen{keys: keymap.DefaultKeyMap(), mem: memoryOf(es...)}
}

// memoryOf is a memory holding es.
func memoryOf(es ...store.Entry) *store.Memory {
	return store.NewMemoryWith(&store.File{Entries: es, NextID: uint64(len(es)) + 10}, store.IndexNow)
}

func (s *screen) Ctx() *part.Context {
	return &part.Context{Width: 80, Height: 24, Keys: &s.keys, Snap: snap{s.mem}}
}

func (s *screen) Selected() (store.Entry, bool) {
	e, ok := s.mem.Lookup(s.selected)
	return e, ok
}

func (s *screen) Writer() Writer      { return db{s.mem} }
func (s *screen) FileGone() bool      { return false }
func (s *screen) ReadOnlyWhy() string { return "read-only" }

func (s *screen) Marked() []store.Entry {
	var es []store.Entry
	for _, n := range s.marked {
		e, _ := s.mem.Lookup(n)
		es = append(es, e)
	}
	return es
}

func (s *screen) DeleteMarkedQuestion(es []store.Entry, more string) (string, string) {
	return "delete marked?", more
}
func (s *screen) ResumeWarning([]store.Entry) string { return "" }
func (s *screen) SessionsNaming(store.Entry) int     { return 0 }
func (s *screen) ErrText(err error) string           { return err.Error() }
func (s *screen) RestoreOps(history.History, history.Version, *store.Entry) ([]store.Op, error) {
	return nil, errors.New("no history")
}

// db is the memory's writer as the part reads it.
type db struct{ m *store.Memory }

func (d db) Memory() *store.Memory { return d.m }

// snap is the memory as a part.Snapshot.
type snap struct{ m *store.Memory }

func (s snap) Entries() []store.Entry            { return s.m.Entries() }
func (s snap) Get(id uint64) (store.Entry, bool) { return s.m.Get(id) }

// press gives the part the key called name with the keys enabled as the
// root would (the dialog's, or the list's with editing on), and returns
// its requests.
func (s *screen) press(t *testing.T, p *Part, name string) []part.Request {
	t.Helper()
	if d := p.Dialog(); d != nil {
		d.SetKeys(&s.keys)
	} else {
		s.keys.Pane(false, s.keys.ListKeys(true, false)...)
	}
	k := tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
	if name == "esc" {
		k = tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	handled, reqs, _ := p.Key(s, k)
	if !handled {
		t.Fatalf("%s was not the part's", name)
	}
	return reqs
}

// written is the one write reqs ask for.
func written(t *testing.T, reqs []part.Request) part.Write {
	t.Helper()
	for _, r := range reqs {
		if w, ok := r.(part.Write); ok {
			return w
		}
	}
	t.Fatalf("no write among %#v", reqs)
	return part.Write{}
}

// TestDialogs_CarryWhatTheyConfirm: what a dialog's answer will do is data
// on the dialog, readable before the answer: d's question carries the
// removal of exactly the entry it names, D's the marked entries, the undo
// whose name was taken its three answers, the rename prompt the entry it
// renames. (Before, each was a closure: what y would delete could not be
// read, only run.) The part answers with the write as a request and
// takes its outcome back (Wrote), with no root.
func TestDialogs_CarryWhatTheyConfirm(t *testing.T) {
	s := newScreen(
		store.Entry{ID: 1, Name: "commit-format", Kind: store.Note, Content: "Use conventional commits."},
		store.Entry{ID: 2, Name: "scratch", Kind: store.Note, Content: "scratch pad"},
	)
	p := New(editor.Options{}, "", nil)
	scratch, _ := s.mem.Lookup("scratch")
	s.selected = "scratch"
	s.press(t, p, "d")
	c, ok := p.Dialog().(*dialog.Confirm)
	if !ok {
		t.Fatalf("d opened %T, want a question", p.Dialog())
	}
	if r, ok := c.Yes.(reqRemove); !ok || len(r.es) != 1 || r.es[0].ID != scratch.ID || r.label != "delete scratch" {
		t.Fatalf("y would carry out %#v, want the removal of scratch", c.Yes)
	}
	s.press(t, p, "n")

	s.press(t, p, "r")
	pr, ok := p.Dialog().(*dialog.Prompt)
	if !ok {
		t.Fatalf("r opened %T, want a prompt", p.Dialog())
	}
	if r, ok := pr.Submit.WithValue("scratch-2").(reqRename); !ok || r.e.ID != scratch.ID || r.to != "scratch-2" {
		t.Fatalf("enter would carry out %#v, want scratch renamed", pr.Submit.WithValue("scratch-2"))
	}
	s.press(t, p, "esc")

	s.marked = []string{"commit-format", "scratch"}
	s.press(t, p, "D")
	c, ok = p.Dialog().(*dialog.Confirm)
	if !ok {
		t.Fatalf("D opened %T, want a question", p.Dialog())
	}
	r, ok := c.Yes.(reqRemove)
	var names []string
	for _, e := range r.es {
		names = append(names, e.Name)
	}
	slices.Sort(names)
	if !ok || !slices.Equal(names, []string{"commit-format", "scratch"}) {
		t.Fatalf("y would carry out %#v, want the two marked removed", c.Yes)
	}
	w := written(t, s.press(t, p, "y"))
	if len(w.Ops) != 2 || w.Undo || !p.Busy() {
		t.Fatalf("y asked for %#v (busy %v), want the two removals", w, p.Busy())
	}
	var changes []store.Change
	for _, e := range r.es {
		changes = append(changes, store.Change{Before: &e})
	}
	p.Wrote(s, Written{Label: w.Label, Changes: changes, For: w.For})
	if p.Busy() || p.UndoLen() != 1 {
		t.Fatalf("after the write: busy %v, %d undo steps, want 1", p.Busy(), p.UndoLen())
	}

	// Someone else takes the name meanwhile: the undo asks.
	s.mem = memoryOf(store.Entry{ID: 3, Name: "scratch", Kind: store.Note, Content: "someone else's scratch"})
	u := written(t, s.press(t, p, "u"))
	if !u.Undo || p.UndoLen() != 0 {
		t.Fatalf("u asked for %#v with %d steps left, want an undo", u, p.UndoLen())
	}
	p.Wrote(s, Written{Label: u.Label, Undo: true, Err: store.ErrNameTaken, For: u.For})
	ch, ok := p.Dialog().(*dialog.Choice)
	if !ok || len(ch.Options) != 3 {
		t.Fatalf("u on a taken name opened %#v, want the three answers", p.Dialog())
	}
	if _, ok := ch.Options[0].Pick.(reqRestoreRenamed); !ok {
		t.Fatalf("the first answer carries %#v, want the renamed restore", ch.Options[0].Pick)
	}
	if _, ok := ch.Cancel.(reqKeepUndo); !ok {
		t.Fatalf("esc carries %#v, want the step kept in the undo list", ch.Cancel)
	}
	if p.UndoLen() != 1 {
		t.Fatalf("the step that could not be undone left the undo list")
	}
}
