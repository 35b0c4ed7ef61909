package tui

import (
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
)

// TestDialogs_CarryWhatTheyConfirm: what a dialog's answer will do is data
// on the dialog, readable before the answer: d's question carries the
// removal of exactly the entry it names, D's the marked entries, the undo
// whose name was taken its three answers, the rename prompt the entry it
// renames. (Before, each was a closure: what y would delete could not be
// read, only run.)
func TestDialogs_CarryWhatTheyConfirm(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	scratch := h.sel("scratch")
	press(h.m, "d")
	c, ok := h.f.dlg.(*dialog.Confirm)
	if !ok {
		t.Fatalf("d opened %T, want a question", h.f.dlg)
	}
	if r, ok := c.Yes.(reqRemove); !ok || len(r.es) != 1 || r.es[0].ID != scratch.ID || r.label != "delete scratch" {
		t.Fatalf("y would carry out %#v, want the removal of scratch", c.Yes)
	}
	press(h.m, "n")

	press(h.m, "r")
	p, ok := h.f.dlg.(*dialog.Prompt)
	if !ok {
		t.Fatalf("r opened %T, want a prompt", h.f.dlg)
	}
	if r, ok := p.Submit.WithValue("scratch-2").(reqRename); !ok || r.e.ID != scratch.ID || r.to != "scratch-2" {
		t.Fatalf("enter would carry out %#v, want scratch renamed", p.Submit.WithValue("scratch-2"))
	}
	press(h.m, "esc")

	h.sel("commit-format")
	press(h.m, "space")
	h.sel("scratch")
	press(h.m, "space", "D")
	c, ok = h.f.dlg.(*dialog.Confirm)
	if !ok {
		t.Fatalf("D opened %T, want a question", h.f.dlg)
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
	press(h.m, "y")

	apply(t, h.path, store.Add{Name: "scratch", Content: "someone else's scratch"})
	reload(h.m)
	press(h.m, "u")
	ch, ok := h.f.dlg.(*dialog.Choice)
	if !ok || len(ch.Options) != 3 {
		t.Fatalf("u on a taken name opened %#v, want the three answers", h.f.dlg)
	}
	if _, ok := ch.Options[0].Pick.(reqRestoreRenamed); !ok {
		t.Fatalf("the first answer carries %#v, want the renamed restore", ch.Options[0].Pick)
	}
	if _, ok := ch.Cancel.(reqKeepUndo); !ok {
		t.Fatalf("esc carries %#v, want the step kept in the undo list", ch.Cancel)
	}
}
