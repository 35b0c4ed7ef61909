package cli

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// subSecondStore copies crabdb-writes/after.crmem, a store whose entries
// Straße café ☕, oncall-rota and 日本語メモ have created_at with a fraction
// of a second, as crabtalk wrote them.
func subSecondStore(t *testing.T) string {
	t.Helper()
	data := mustRead(t, filepath.Join("..", "testdata", "reference", "crabdb-writes", "after.crmem"))
	path := filepath.Join(t.TempDir(), "store.crmem")
	must(t, os.WriteFile(path, data, 0o600))
	return path
}

// createdAts are the created_at strings of the memory at db, by name.
func createdAts(t *testing.T, db string) map[string]string {
	t.Helper()
	out, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "ls", "--json")
	if code != 0 {
		t.Fatalf("ls: exit %d: %s", code, errs)
	}
	var es []struct {
		Name      string `json:"name"`
		CreatedAt any    `json:"created_at"`
	}
	must(t, json.Unmarshal([]byte(out), &es))
	m := map[string]string{}
	for _, e := range es {
		b, _ := json.Marshal(e.CreatedAt)
		m[e.Name] = string(b)
	}
	return m
}

// TestLoad_UnchangedDumpWritesNothing (issue 38 §5): `crmem load DIR` of
// an unedited dump writes nothing, on crabtalk's store (no record
// appended, no created_at cut to seconds) and on a memory.db (the file is
// not saved again).
func TestLoad_UnchangedDumpWritesNothing(t *testing.T) {
	for name, db := range map[string]string{"store": subSecondStore(t), "memory.db": copyFixture(t, "crmem/small.db")} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "book")
			if _, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "dump", dir); code != 0 {
				t.Fatalf("dump: exit %d: %s", code, errs)
			}
			before := mustRead(t, db)
			out, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "load", dir)
			if code != 0 || !strings.Contains(out, "nothing written") {
				t.Fatalf("load: exit %d, stdout %q, stderr %q", code, out, errs)
			}
			if !bytes.Equal(before, mustRead(t, db)) {
				t.Error("the load of an unedited dump changed the file")
			}
		})
	}
}

// TestLoad_MergeUnchangedDumpWritesNothing: `load --merge` of an unedited
// dump of entries whose content the dump trims (blank lines at the end)
// counts them unchanged and writes nothing.
func TestLoad_MergeUnchangedDumpWritesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, `{"name":"n","kind":"note","content":"line one\n\n"}`+"\n", "import", "--db", db, "-")
	dir := filepath.Join(t.TempDir(), "book")
	mustRun(t, "", "dump", "--db", db, dir)
	before := mustRead(t, db)
	out := mustRun(t, "", "load", "--merge", "--db", db, dir)
	if !strings.Contains(out, "0 replaced, 0 added, 1 unchanged") || !bytes.Equal(before, mustRead(t, db)) {
		t.Errorf("load --merge of an unedited dump: %q, file changed %v", out, !bytes.Equal(before, mustRead(t, db)))
	}
	if got := showEntry(t, db, "n").Content; got != "line one\n\n" {
		t.Errorf("content %q after the load", got)
	}
}

// TestLoad_EditedDumpWritesOnlyTheEdit (issue 38 §5): a dump with one
// entry edited, loaded back into crabtalk's store, appends that entry
// alone (what `crmem update` of it appends), and every other entry keeps
// its created_at to the fraction of a second.
func TestLoad_EditedDumpWritesOnlyTheEdit(t *testing.T) {
	db, twin := subSecondStore(t), subSecondStore(t)
	want := createdAts(t, db)
	dir := filepath.Join(t.TempDir(), "book")
	if _, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "dump", dir); code != 0 {
		t.Fatalf("dump: exit %d: %s", code, errs)
	}
	page := filepath.Join(dir, "notes", "oncall-rota.md")
	text := string(mustRead(t, page))
	i := strings.Index(text, "</div>\n\n")
	must(t, os.WriteFile(page, []byte(text[:i]+"</div>\n\nEdited rota.\n"), 0o600))
	if out, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "load", dir); code != 0 || !strings.Contains(out, "replacing the memory") {
		t.Fatalf("load: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, errs, code := runGuarded(noDaemon, nil, "", "--db", twin, "write", "oncall-rota", "Edited rota."); code != 0 {
		t.Fatalf("write: exit %d: %s", code, errs)
	}
	if got := createdAts(t, db); !maps.Equal(got, want) {
		t.Errorf("created_at after the load:\n got %v\nwant %v", got, want)
	}
	if a, b := len(mustRead(t, db)), len(mustRead(t, twin)); a != b {
		t.Errorf("the load appended to %d bytes, a write of the one edited entry to %d: more than the edit was written", a, b)
	}
}

// TestRestore_KeepsSubSecondCreatedAt (issue 38 §5): a forgotten entry
// restored from its history gets its created_at back as stored, fraction
// of a second included.
func TestRestore_KeepsSubSecondCreatedAt(t *testing.T) {
	db := subSecondStore(t)
	want := createdAts(t, db)["oncall-rota"]
	if !strings.Contains(want, ".250") {
		t.Fatalf("fixture: oncall-rota's created_at is %s", want)
	}
	for _, args := range [][]string{{"rm", "oncall-rota"}, {"restore", "oncall-rota", "1"}} {
		if _, errs, code := runGuarded(noDaemon, nil, "", append([]string{"--db", db}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	if got := createdAts(t, db)["oncall-rota"]; got != want {
		t.Errorf("restored created_at %s, want %s", got, want)
	}
}
