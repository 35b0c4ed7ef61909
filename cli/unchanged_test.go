package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite_NothingChanged: a write that finds the entry already as asked
// says so on stdout, exit 0, and leaves the file untouched; it printed
// nothing before, as if it had not run.
func TestWrite_NothingChanged(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	if r := inProcess("--db", db, "add", "a", "hello", "--alias", "x"); r.code != 0 {
		t.Fatalf("add: exit %d, %s", r.code, r.stderr)
	}
	before, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"write", "a", "hello"}, "unchanged: a already has this content (nothing written)\n"},
		{[]string{"update", "a", "hello", "--alias", "x"}, "unchanged: a already has this content and these aliases (nothing written)\n"},
		{[]string{"alias", "a", "x"}, "unchanged: a already has these aliases (nothing written)\n"},
		{[]string{"rename", "a", "a"}, "unchanged: a already has this name (nothing written)\n"},
	} {
		r := inProcess(append([]string{"--db", db}, c.args...)...)
		if r.code != 0 || r.stdout != c.want || r.stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 0 and %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
	after, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Error("a write that changed nothing rewrote the file")
	}
	if r := inProcess("--db", db, "write", "a", "changed"); r.stdout != "wrote a (id 1, note)\n" {
		t.Errorf("a real write: %q", r.stdout)
	}
}
