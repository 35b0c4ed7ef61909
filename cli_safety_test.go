package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestCLI_DuplicateIDsKept is the file of issue 9: ids 1 "first", 1
// "second", 2 "third". ls lists all three, an unrelated add keeps them
// all, and check reports the shared id.
func TestCLI_DuplicateIDsKept(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	dup := []store.Entry{
		{ID: 1, Name: "first", Content: "a"},
		{ID: 1, Name: "second", Content: "b"},
		{ID: 2, Name: "third", Content: "c"},
	}
	if err := os.WriteFile(db, store.Encode(3, dup), 0o600); err != nil {
		t.Fatal(err)
	}
	if es := lsJSON(t, db); len(es) != 3 {
		t.Fatalf("ls lists %d entries, want 3", len(es))
	}
	mustRun(t, "", "--db", db, "add", "unrelated", "x")
	es := lsJSON(t, db)
	for _, n := range []string{"first", "second", "third", "unrelated"} {
		if _, ok := byName(es, n); !ok {
			t.Errorf("%s lost by an unrelated add: %+v", n, es)
		}
	}
	out := crmem(t, "", "--db", db, "check")
	if !strings.Contains(out.stdout, `duplicate_id: id 1 is used by 2 entries ("first", "second")`) {
		t.Errorf("check does not report the shared id:\n%s", out.stdout)
	}
}
