package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store/crabdb"
)

// TestStoreCLI_Writes runs every write subcommand on crabtalk's store
// with the guard letting it through: each succeeds, only appends (the
// file before is a prefix of the file after), leaves a store crmem reads
// whole and clean and writable again, and ls shows the result. The first
// is the move from a memory.db: importing one into the store.
func TestStoreCLI_Writes(t *testing.T) {
	db := copyStore(t, "small.crmem", "store.crmem")
	tree := filepath.Join(t.TempDir(), "tree")
	run := func(args ...string) {
		t.Helper()
		before, _ := os.ReadFile(db)
		_, errs, code := runGuarded(noDaemon, nil, "", append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("crmem %q: exit %d: %s", args, code, errs)
		}
		after, _ := os.ReadFile(db)
		if len(after) <= len(before) || !bytes.HasPrefix(after, before) {
			t.Fatalf("crmem %q: not an append (%d → %d bytes)", args, len(before), len(after))
		}
		// What crmem's writer asks before the next append (File.Writable):
		// the store reads whole, with no warning (a torn tail is one) and
		// its index, and no note of an unfinished append is left.
		st, err := crabdb.Read(after)
		if err != nil {
			t.Fatalf("crmem %q left a store crmem cannot read: %v", args, err)
		}
		_, _, statsErr := st.Stats()
		_, noteErr := os.Stat(crabdb.IntentPath(db))
		if w := st.Warnings(); len(w) > 0 || statsErr != nil || noteErr == nil {
			t.Fatalf("crmem %q: warnings %q, index %v, note left: %v", args, w, statsErr, noteErr == nil)
		}
	}
	type storeEntry struct {
		Name, Content string
		Aliases       []string
	}
	names := func() map[string]storeEntry {
		var es []storeEntry
		mustJSON(t, mustIn(t, "--db", db, "ls", "--json"), &es)
		out := map[string]storeEntry{}
		for _, e := range es {
			out[e.Name] = e
		}
		return out
	}
	run("import", filepath.Join("..", "testdata", "reference", "crmem", "small.db"))
	if n := len(names()); n <= 25 {
		t.Errorf("after importing small.db: %d entries", n)
	}
	run("add", "new-note", "fresh words here", "--alias", "fresh")
	run("update", "new-note", "updated words", "--alias", "upd")
	run("write", "new-note", "written words")
	run("alias", "new-note", "x1", "x2")
	run("rename", "new-note", "renamed note")
	got := names()
	if e, ok := got["renamed note"]; !ok || e.Content != "written words" || strings.Join(e.Aliases, ",") != "x1,x2" {
		t.Errorf("renamed note: %+v (%v)", e, ok)
	}
	if _, ok := got["new-note"]; ok {
		t.Error("new-note is still there after the rename")
	}
	run("rm", "renamed note", "scratch", "empty-note")
	got = names()
	for _, n := range []string{"renamed note", "scratch", "empty-note"} {
		if _, ok := got[n]; ok {
			t.Errorf("%s is still there after rm", n)
		}
	}
	// load replaces the whole memory with a dump of it, changed.
	if _, errs, code := runIn(nil, "", "--db", db, "dump", tree); code != 0 {
		t.Fatalf("dump: %s", errs)
	}
	// Loaded unchanged, the memory writes nothing: no entry is put again.
	same, _ := os.ReadFile(db)
	if _, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "load", tree); code != 0 {
		t.Fatalf("load unchanged: %s", errs)
	}
	if now, _ := os.ReadFile(db); !bytes.Equal(now, same) {
		t.Errorf("loading the store's own dump appended %d bytes", len(now)-len(same))
	}
	must(t, os.WriteFile(filepath.Join(tree, "notes", "deploy-steps.md"), []byte("loaded words\n"), 0o600))
	before, _ := os.ReadFile(db)
	run("load", tree)
	if after, _ := os.ReadFile(db); len(after)-len(before) > 4096 {
		t.Errorf("loading one changed entry appended %d bytes", len(after)-len(before))
	}
	if e := names()["deploy-steps"]; !strings.Contains(e.Content, "loaded words") {
		t.Errorf("after load: %+v", e)
	}
}

// TestStoreCLI_NoNewStore: a write to a missing file named like a store
// is refused: crmem does not create crabtalk's store (a v1 file there is
// what crabtalk would read as an empty store).
func TestStoreCLI_NoNewStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.crmem")
	_, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "add", "x", "y")
	if code != 1 || !strings.Contains(errs, "start crabtalk once") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a file was created")
	}
}

// TestStoreCLI_SaysPartialProof: a write whose guard could look at only
// some processes says so on stderr (how it proved the daemon stopped); a
// full proof is said on a terminal only, so a script's stderr stays quiet.
func TestStoreCLI_SaysPartialProof(t *testing.T) {
	db := copyStore(t, "small.crmem", "store.crmem")
	partial := func(string) (string, error) { return "partial: 3 processes not readable", nil }
	_, errs, code := runGuarded(partial, nil, "", "--db", db, "rm", "scratch")
	if code != 0 || !strings.Contains(errs, "written while crabtalk's daemon is stopped: partial: 3 processes not readable") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	_, errs, code = runGuarded(noDaemon, nil, "", "--db", db, "rm", "empty-note")
	if code != 0 || errs != "" {
		t.Errorf("full proof: exit %d, stderr %q", code, errs)
	}
}

// TestStoreCLI_WriteMessagesShowNoIDs: what the write subcommands print
// on a store names entries, never the internal ids a store's entries get.
func TestStoreCLI_WriteMessagesShowNoIDs(t *testing.T) {
	db := copyStore(t, "small.crmem", "store.crmem")
	for _, args := range [][]string{
		{"add", "new-note", "fresh words"},
		{"update", "new-note", "other words"},
		{"alias", "new-note", "x"},
		{"rename", "new-note", "renamed"},
		{"rm", "renamed", "scratch"},
	} {
		out, errs, code := runGuarded(noDaemon, nil, "", append([]string{"--db", db}, args...)...)
		if code != 0 || strings.Contains(out+errs, "4611686") || strings.Contains(out+errs, "id ") {
			t.Errorf("%q: exit %d, out %q, err %q", args, code, out, errs)
		}
	}
}
