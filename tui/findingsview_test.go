package tui

import (
	"reflect"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/crmem/crmem/tui/part"
)

// TestFindingsView_AsksAsData: the findings view is a part of its own
// (tui/findings). A key that needs a write, the editor, a dialog or the
// list comes back from its Key as a request the root carries out; the
// view itself opens no dialog, runs no editor and writes nothing.
func TestFindingsView_AsksAsData(t *testing.T) {
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	openFindingsView(t, h)
	v, keys := &h.m.fv, &h.m.c.keys
	ask := func(b key.Binding) part.Request {
		t.Helper()
		reqs, _ := v.Key(h.m.ctx(), keyMsg(b.Keys()[0]))
		if h.m.ed.Dialog() != nil {
			t.Fatalf("%s: the view opened a dialog itself", b.Help().Desc)
		}
		if len(reqs) > 1 {
			t.Fatalf("%s: %d requests, want one at most", b.Help().Desc, len(reqs))
		}
		if len(reqs) == 0 {
			return nil
		}
		return reqs[0]
	}
	fd, _ := v.Selected() // the duplicates, first
	if got := ask(keys.Delete); !reflect.DeepEqual(got, part.DeleteFinding{Finding: fd}) {
		t.Errorf("delete asks %#v, want DeleteFinding of %v", got, fd.IDs())
	}
	if got := ask(keys.Undo); got != (part.Undo{}) {
		t.Errorf("undo asks %#v, want Undo", got)
	}
	got := ask(keys.Accept)
	pair, compared := v.Compared()
	if got != nil || !compared {
		t.Fatalf("accept on a duplicate asks %#v, compared %v: want the pair side by side, no request", got, compared)
	}
	first, second := pair[0], pair[1]
	if got := ask(keys.Merge); !reflect.DeepEqual(got, part.Merge{Keep: first, Drop: second}) {
		t.Errorf("merge asks %#v, want to keep %s and drop %s", got, first.Name, second.Name)
	}
	ask(keys.Focus)
	if got := ask(keys.Merge); !reflect.DeepEqual(got, part.Merge{Keep: second, Drop: first}) {
		t.Errorf("merge after focus asks %#v, want to keep %s and drop %s", got, second.Name, first.Name)
	}
	if got := ask(keys.NotDuplicate); got != (part.NotDuplicates{A: first.Name, B: second.Name}) {
		t.Errorf("not-duplicate asks %#v", got)
	}
	ask(keys.Cancel)
	ask(keys.Down) // the secret
	fd, _ = v.Selected()
	if got := ask(keys.Edit); !reflect.DeepEqual(got, part.EditFinding{Finding: fd}) {
		t.Errorf("edit asks %#v, want EditFinding of %v", got, fd.IDs())
	}
	if got := ask(keys.Accept); got != (part.Jump{ID: fd.Entries[0].ID}) || v.Open() {
		t.Errorf("accept on the secret asks %#v, open %v: want to close on entry %d", got, v.Open(), fd.Entries[0].ID)
	}
}
