package tui

import (
	"reflect"
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestFindingsView_AsksAsData: the findings view is a sub-model. A key
// that needs a write, the editor, a dialog or the list comes back from
// findingsView.key as a value the editing part carries out; the view
// itself opens no dialog, runs no editor and writes nothing.
func TestFindingsView_AsksAsData(t *testing.T) {
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	openFindingsView(t, h)
	v, keys := &h.m.ed.fv, &h.m.c.keys
	ask := func(b key.Binding) findingsAsk {
		t.Helper()
		_, a := v.key(h.m, keyMsg(b.Keys()[0]))
		if h.m.ed.dlg != nil {
			t.Fatalf("%s: the view opened a dialog itself", b.Help().Desc)
		}
		return a
	}
	fd, _ := v.selected() // the duplicates, first
	if got := ask(keys.Delete); !reflect.DeepEqual(got, askDeleteFinding{fd}) {
		t.Errorf("delete asks %#v, want askDeleteFinding of %v", got, fd.IDs())
	}
	if got := ask(keys.Undo); got != (askUndo{}) {
		t.Errorf("undo asks %#v, want askUndo", got)
	}
	if got := ask(keys.Accept); got != nil || v.cmp == nil {
		t.Fatalf("accept on a duplicate asks %#v, compared %v: want the pair side by side, no ask", got, v.cmp != nil)
	}
	first, second := v.cmp.pair[0], v.cmp.pair[1]
	if got := ask(keys.Merge); !reflect.DeepEqual(got, askMergePair{keep: first, drop: second}) {
		t.Errorf("merge asks %#v, want to keep %s and drop %s", got, first.Name, second.Name)
	}
	ask(keys.Focus)
	if got := ask(keys.Merge); !reflect.DeepEqual(got, askMergePair{keep: second, drop: first}) {
		t.Errorf("merge after focus asks %#v, want to keep %s and drop %s", got, second.Name, first.Name)
	}
	if got := ask(keys.NotDuplicate); got != (askNotDuplicate{a: first.Name, b: second.Name}) {
		t.Errorf("not-duplicate asks %#v", got)
	}
	ask(keys.Cancel)
	ask(keys.Down) // the secret
	fd, _ = v.selected()
	if got := ask(keys.Edit); !reflect.DeepEqual(got, askEditFinding{fd}) {
		t.Errorf("edit asks %#v, want askEditFinding of %v", got, fd.IDs())
	}
	if got := ask(keys.Accept); got != (askJump{id: fd.Entries[0].ID}) || v.open {
		t.Errorf("accept on the secret asks %#v, open %v: want to close on entry %d", got, v.open, fd.Entries[0].ID)
	}
}
