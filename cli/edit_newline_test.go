package cli

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestEdit_KeepsWhatWasSaved (issue 38 §5): `crmem edit` stores what the
// user saved, blank lines and spaces at either end included; only the one
// newline ending the file, which an editor adds to a last line that has
// none, is not content.
func TestEdit_KeepsWhatWasSaved(t *testing.T) {
	cases := []struct {
		name, content, editor, want string
	}{
		{"trailing blank lines kept", "line one\n\n", `sed -i 's|line one|line ONE|'`, "line ONE\n\n"},
		{"no final newline stays none", "line one", `sed -i 's|line one|line ONE|'`, "line ONE"},
		{"one final newline stays one", "line one\n", `sed -i 's|line one|line ONE|'`, "line ONE\n"},
		{"leading spaces kept", "    indented\nnext", `sed -i 's|next|NEXT|'`, "    indented\nNEXT"},
		{"blank lines the user added", "line one", `sh -c 'printf "\n\n" >> "$1"' sh`, "line one\n\n"},
		{"an editor that drops the final newline", "line one\n\n", `sh -c 'printf %s "$(cat "$1")" > "$1.x"; sed -i "s|line one|line ONE|" "$1.x"; mv "$1.x" "$1"' sh`, "line ONE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "memory.db")
			line, _ := json.Marshal(map[string]any{"name": "n", "kind": "note", "content": c.content})
			mustRun(t, string(line)+"\n", "import", "--db", db, "-")
			if got := showEntry(t, db, "n").Content; got != c.content {
				t.Fatalf("imported content %q, want %q", got, c.content)
			}
			r := editRun(t, db, c.editor, "n")
			if r.code != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			if got := showEntry(t, db, "n").Content; got != c.want {
				t.Errorf("after the edit %q, want %q", got, c.want)
			}
		})
	}
}
