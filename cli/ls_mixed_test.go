package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestLs_MarksMixedScriptNames: ls says which letter of "dеploy-steps"
// (Cyrillic е) and "rοllback" (Greek ο) only looks Latin, so neither
// reads as the name it imitates; --json is unchanged (issue 42 item 4).
func TestLs_MarksMixedScriptNames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	entries := []store.Entry{
		{ID: 1, Name: "deploy-steps", Content: "a"}, {ID: 2, Name: "dеploy-steps", Content: "b"},
		{ID: 3, Name: "rollback", Content: "c"}, {ID: 4, Name: "rοllback", Content: "d"},
	}
	must(t, os.WriteFile(db, store.Encode(4, entries), 0o600))
	out := mustRun(t, "", "ls", "--db", db)
	want := map[string]string{
		"deploy-steps": "", "dеploy-steps": " (mixes scripts: е U+0435 CYRILLIC)",
		"rollback": "", "rοllback": " (mixes scripts: ο U+03BF GREEK)",
	}
	for _, line := range strings.Split(out, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		name := f[2]
		suffix, ok := want[name]
		if !ok {
			t.Errorf("unexpected row %q", line)
			continue
		}
		if has := strings.Contains(line, "mixes scripts"); has != (suffix != "") || suffix != "" && !strings.Contains(line, name+suffix) {
			t.Errorf("row of %q: %q, want the name followed by %q", name, line, suffix)
		}
	}
	if js := mustRun(t, "", "ls", "--json", "--db", db); strings.Contains(js, "mixes") {
		t.Errorf("ls --json changed: %s", js)
	}
}
