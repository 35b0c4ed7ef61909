package tui

import (
	"bytes"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/open"
)

// openStoreWritable opens the store at path in the harness through a
// store.DB whose guard lets writes through (no daemon runs in a test; the
// real guard is open.DaemonGuard's).
func openStoreWritable(h *editHarness, path string) {
	h.t.Helper()
	drive(h.m, func() tea.Msg {
		db, err := open.DB(path, open.Options{Store: store.Options{Guard: func(string) (string, error) { return "test", nil }, Index: store.IndexBackground}})
		if err != nil {
			return loadedMsg{err: err}
		}
		return loadedMsg{db: db, snap: listedSnapshot(db.Memory(), nil)}
	})
	if h.m.readOnly() {
		h.t.Fatal("the store opened read-only")
	}
}

// storeEntry is the stored value of the entry name in the store at path.
func storeEntry(t *testing.T, path, name string) ([]byte, bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := crabdb.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if w := st.Warnings(); len(w) > 0 {
		t.Fatalf("the store reads with warnings: %q", w)
	}
	return st.Get(crabdb.ColMemory, crabdb.MemoryKey(name))
}

// TestStore_EditDeleteUndo: with Features().Writer set for a store, the
// screen's edit in $EDITOR, delete and undo work on it unchanged: each
// appends (the file before is a prefix of the file after), and undo of
// the delete puts the entry back byte for byte as crabtalk stored it.
func TestStore_EditDeleteUndo(t *testing.T) {
	path := copyStore(t, "small.crmem")
	h := newEditHarnessIn(t, path, t.TempDir())
	openStoreWritable(h, path)
	appended := func(before []byte) []byte {
		t.Helper()
		after, _ := os.ReadFile(path)
		if len(after) <= len(before) || !bytes.HasPrefix(after, before) {
			t.Fatalf("not an append: %d → %d bytes", len(before), len(after))
		}
		return after
	}
	data, _ := os.ReadFile(path)
	h.sel("deploy-steps")
	h.editor = `sed -i -e '$a Mine.'`
	press(h.m, "e")
	h.wantStatus("saved deploy-steps")
	data = appended(data)
	if v, _ := storeEntry(t, path, "deploy-steps"); !bytes.Contains(v, []byte(`Mine."`)) {
		t.Errorf("stored %s", v)
	}
	raw, _ := storeEntry(t, path, "scratch")
	h.sel("scratch")
	press(h.m, "d", "y")
	h.wantStatus("deleted scratch")
	data = appended(data)
	if _, ok := storeEntry(t, path, "scratch"); ok {
		t.Fatal("scratch is still stored")
	}
	press(h.m, "u")
	appended(data)
	if v, ok := storeEntry(t, path, "scratch"); !ok || !bytes.Equal(v, raw) {
		t.Errorf("undo stored %s, want %s", v, raw)
	}
}

// TestStore_ReadOnlyWhileCrabtalkRuns: while crabtalk's daemon answers on
// its socket, the screen says a store is read-only (its writes are refused
// until the daemon stops), not that the daemon will overwrite edits.
func TestStore_ReadOnlyWhileCrabtalkRuns(t *testing.T) {
	path := copyStore(t, "small.crmem")
	h := newEditHarnessIn(t, path, t.TempDir())
	openStoreWritable(h, path)
	drive(h.m, func() tea.Msg { return daemonMsg{up: true} })
	if s := plainScreen(h.m); !strings.Contains(s, "read-only while crabtalk runs") || strings.Contains(s, "overwrite") {
		t.Errorf("status with the daemon up:\n%s", s)
	}
	drive(h.m, func() tea.Msg { return daemonMsg{up: false} })
	if s := plainScreen(h.m); strings.Contains(s, "read-only") {
		t.Errorf("status with the daemon stopped:\n%s", s)
	}
}
