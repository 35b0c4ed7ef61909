package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// load and import replace or merge the whole memory: they open it without
// building the bm25 index, which a write never uses (at 100k entries the
// build cost more than the import itself).
func TestLoadImport_OpenWithoutIndex(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "memory.db")
	entries := []store.Entry{
		{ID: 1, Name: "alpha", Kind: store.Note, CreatedAt: 1767265200, Content: "deploy steps", Aliases: []string{}},
		{ID: 2, Name: "beta", Kind: store.Archive, CreatedAt: 1767265201, Content: "rollback plan", Aliases: []string{}},
	}
	if err := os.WriteFile(db, store.Encode(3, entries), 0o600); err != nil {
		t.Fatal(err)
	}
	var opened []*store.DB
	hook := func(path string) (*store.DB, error) {
		d, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
		if err == nil {
			opened = append(opened, d)
		}
		return d, err
	}
	runOK := func(stdin string, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		a := newApp(strings.NewReader(stdin), &out, &errb, func(string) string { return "" })
		a.opener.openHook = hook
		if code := a.execute(args); code != 0 {
			t.Fatalf("crmem %q: exit %d, %s", args, code, errb.String())
		}
		return out.String()
	}
	jsonl := runOK("", "export", "--db", db)
	tree := filepath.Join(dir, "tree")
	runOK("", "dump", tree, "--db", db)
	for _, args := range [][]string{
		{"import", "-", "--db", db},
		{"import", "-", "--merge", "--db", db},
		{"load", tree, "--db", db},
		{"load", tree, "--merge", "--db", db},
	} {
		opened = nil
		runOK(jsonl, args...)
		if len(opened) != 1 {
			t.Fatalf("crmem %q opened the file for a write %d times through openForWrite, want 1", args, len(opened))
		}
		if opened[0].Memory().IndexReady() {
			t.Errorf("crmem %q built the bm25 index", args)
		}
	}
}
