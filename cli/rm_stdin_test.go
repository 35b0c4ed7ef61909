package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// names lists the entry names of db through `crmem ls --json`.
func names(t *testing.T, db string) []string {
	t.Helper()
	var out []string
	for _, e := range lsJSON(t, db) {
		out = append(out, e.Name)
	}
	return out
}

// TestRm_Stdin pins `crmem rm -`: names one per line, spaces kept, empty
// lines and CRLF line ends tolerated, nothing to do on empty input (exit 0,
// a note on stderr, the file untouched), all-or-none on a missing name.
func TestRm_Stdin(t *testing.T) {
	cases := []struct {
		name, stdin string
		args        []string
		code        int
		left        []string // entries left afterwards
		stderr      string   // substring of stderr ("" = empty stderr)
	}{
		{"spaces", "old idea\nscratch\n", []string{"rm", "-"}, 0, []string{"keep me", "deploy"}, ""},
		{"crlf and blank lines", "\r\nold idea\r\n\r\n", []string{"rm", "-"}, 0, []string{"keep me", "scratch", "deploy"}, ""},
		{"no final newline", "scratch", []string{"rm", "-"}, 0, []string{"keep me", "old idea", "deploy"}, ""},
		{"by alias", "ship\n", []string{"rm", "-"}, 0, []string{"keep me", "old idea", "scratch"}, ""},
		{"empty input", "", []string{"rm", "-"}, 0, []string{"keep me", "old idea", "scratch", "deploy"}, "no names on standard input; nothing removed"},
		{"blank lines only", "\n\n", []string{"rm", "-"}, 0, []string{"keep me", "old idea", "scratch", "deploy"}, "no names on standard input"},
		{"one missing", "scratch\nnope\n", []string{"rm", "-"}, 1, []string{"keep me", "old idea", "scratch", "deploy"}, `no such entry "nope"; nothing removed`},
		{"space is not a separator", "old\n", []string{"rm", "-"}, 1, []string{"keep me", "old idea", "scratch", "deploy"}, `no such entry "old"`},
		{"dash with other names", "", []string{"rm", "scratch", "-"}, 2, []string{"keep me", "old idea", "scratch", "deploy"}, "must be the only argument"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "memory.db")
			mustRun(t, "", "add", "keep me", "k", "--db", db)
			mustRun(t, "", "add", "old idea", "o", "--db", db)
			mustRun(t, "", "add", "scratch", "s", "--db", db)
			mustRun(t, "", "add", "deploy", "d", "--alias", "ship", "--db", db)
			before, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			r := crmem(t, c.stdin, append(c.args, "--db", db)...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", r.code, c.code, r.stderr)
			}
			if c.stderr == "" && r.stderr != "" || !strings.Contains(r.stderr, c.stderr) {
				t.Errorf("stderr %q, want %q", r.stderr, c.stderr)
			}
			if got := names(t, db); !slices.Equal(got, c.left) {
				t.Errorf("left %q, want %q", got, c.left)
			}
			if len(c.left) == 4 {
				after, err := os.ReadFile(db)
				if err != nil {
					t.Fatal(err)
				}
				if string(after) != string(before) {
					t.Error("the file changed although nothing was removed")
				}
			}
		})
	}
}

// TestRm_StdinMissingFile: empty input does not need (or create) the file.
func TestRm_StdinMissingFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	if r := crmem(t, "", "rm", "-", "--db", db); r.code != 0 {
		t.Fatalf("exit %d: %q", r.code, r.stderr)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("rm - with no names touched %s: %v", db, err)
	}
}
