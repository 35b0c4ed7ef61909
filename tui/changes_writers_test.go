package tui

import (
	"os"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// Issue 17 item 9: an entry deleted here and written back by another
// writer's stale copy is reported as added back (+1), with a warning that
// another writer restored what you deleted, in the status line and the log.
func TestChanges_DeletedHereWrittenBackIsReportedRestored(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	stale, err := os.ReadFile(h.path)
	if err != nil {
		t.Fatal(err)
	}
	h.sel("commit-format")
	press(h.m, "d", "y")
	h.wantStatus("deleted commit-format")
	if err := os.WriteFile(h.path, stale, 0o600); err != nil { // the agent's old copy
		t.Fatal(err)
	}
	reload(h.m)
	h.wantStatus("reloaded: +1 commit-format")
	h.wantStatus("another writer put back what you deleted: commit-format")
	if strings.Contains(h.status(), "~1") {
		t.Errorf("reported as changed: %q", h.status())
	}
	press(h.m, "c")
	if s := plainScreen(h.m); !strings.Contains(s, "+ commit-format  ⚠ you deleted it; another writer put it back") {
		t.Errorf("log:\n%s", s)
	}
	press(h.m, "esc")
	// Reported once: a later reload that adds it again (after an undo
	// here, say) is no longer news of this kind.
	apply(t, h.path, store.Write{Name: "commit-format", Content: "again"})
	reload(h.m)
	if strings.Contains(h.status(), "put back") {
		t.Errorf("warned twice: %q", h.status())
	}
}

// Issue 17 item 9: a rename by another writer names both names, in the
// status line and in the reload log.
func TestChanges_RenameNamesBothNames(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	apply(t, path, store.Rename{Name: "deploy-steps", New: "ship-steps"})
	reload(m)
	if want := "reloaded: ~1 deploy-steps → ship-steps"; m.st.msg != want {
		t.Errorf("status %q, want %q", m.st.msg, want)
	}
	press(m, "c")
	if s := plainScreen(m); !strings.Contains(s, "~ deploy-steps → ship-steps") {
		t.Errorf("log:\n%s", s)
	}
}

// Issue 17 item 6, under a writer that writes twice (rm, then add, as an
// agent's two commands do): the status line naming the dropped mark is
// replaced by the next reload's within a second, so the reload log keeps
// it, on the removed entry's row.
func TestChanges_DroppedMarkStaysInTheLog(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	press(h.m, "space")
	h.sel("deploy-steps")
	apply(t, h.path, store.Remove{Name: "commit-format"})
	reload(h.m)
	h.wantStatus("⚠ unmarked commit-format: another writer removed it")
	apply(t, h.path, store.Add{Name: "commit-format", Content: "the agent's new one"})
	reload(h.m)
	press(h.m, "c")
	if s := plainScreen(h.m); !strings.Contains(s, "− commit-format  (gone) ⚠ was marked: unmarked") {
		t.Errorf("log:\n%s", s)
	}
}

// A write while another writer has deleted the file (D on marked entries
// while the status line says "file deleted — showing the last state")
// writes nothing and keeps the last state on screen and the marks, as the
// README promises until the file is good again; it used to fail with "no
// such entry", show an empty memory ("no file here yet"), drop every mark,
// and report every entry as added when the file came back.
func TestChanges_FailedWriteToDeletedFileKeepsTheLastState(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	press(h.m, "space")
	n := len(h.m.c.snap.entries)
	stale, err := os.ReadFile(h.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(h.path); err != nil {
		t.Fatal(err)
	}
	reload(h.m)
	press(h.m, "D", "y")
	h.wantStatus("nothing written: another writer deleted the file; waiting for it to reappear")
	if got := len(h.m.c.snap.entries); got != n {
		t.Errorf("%d entries on screen after the failed write, want the last state's %d", got, n)
	}
	if len(h.m.marks.IDs()) != 1 {
		t.Errorf("marks after the failed write: %v", h.m.marks.IDs())
	}
	if _, err := os.Stat(h.path); err == nil {
		t.Error("the failed write created the file")
	}
	// Back, it is not news: nothing is reported added.
	if err := os.WriteFile(h.path, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	reload(h.m)
	if strings.Contains(h.status(), "+") {
		t.Errorf("status %q after the file came back unchanged", h.status())
	}
	press(h.m, "D", "y")
	h.wantStatus("deleted commit-format")
}
