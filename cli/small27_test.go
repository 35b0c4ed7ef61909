package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestCheckReportNames: check quotes a missing archive's name once (an
// escape sequence shows as \x1b, not \\x1b) and caps a name of a megabyte
// at a line's worth, with its size.
func TestCheckReportNames(t *testing.T) {
	home := t.TempDir()
	db := filepath.Join(home, "memory.db")
	if err := os.WriteFile(db, store.Encode(1, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("x", 1<<20)
	for i, name := range []string{"evil\x1b]0;t\x07", huge} {
		dir := filepath.Join(home, "sessions", "s"+string(rune('a'+i)))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		step := `{"archive_name":` + jsonString(name) + `,"archived_at":"2026-01-01T00:00:00Z"}`
		if err := os.WriteFile(filepath.Join(dir, "step-000000"), []byte(step), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runIn(nil, "", "check", "--db", db)
	if code != 0 {
		t.Fatalf("check: exit %d %s", code, errOut)
	}
	if !strings.Contains(out, `missing archive "evil\x1b]0;t\a" referenced by session sa`) {
		t.Errorf("the escaped name is not quoted once:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 400 {
			t.Errorf("a report line of %d bytes", len(line))
		}
	}
	if !strings.Contains(out, "… (1,048,576 bytes) referenced by session sb") {
		t.Errorf("the long name is not cut with its size:\n%.2000s", out)
	}
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r < 0x20:
			b.WriteString(`\u00` + "0123456789abcdef"[r>>4:r>>4+1] + "0123456789abcdef"[r&15:r&15+1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String() + `"`
}

// TestRecallsReadFailureIsNotOutput: a sessions folder that cannot be
// read is said so, not labelled a failure to write the output, and the
// folder is named once.
func TestRecallsReadFailureIsNotOutput(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"recalls"}, {"recalls", "--json"}} {
		_, errOut, code := runIn(nil, "", append([]string{"--demo"}, append(args, "--sessions", notDir)...)...)
		if code != 1 || strings.Contains(errOut, "write output") || strings.Count(errOut, notDir) != 1 || !strings.Contains(errOut, "not a directory") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestShowMarksEscapes: plain show prints an escape sequence in content
// inert and visible, ⟨U+001B⟩, as --json shows it escaped; never raw,
// never dropped silently.
func TestShowMarksEscapes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	e := store.Entry{ID: 1, Name: "n", Kind: store.Note, CreatedAt: 1767225600, Content: "before\x1b]0;pwned\x07after \x1b[31mred"}
	if err := os.WriteFile(db, store.Encode(2, []store.Entry{e}), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runIn(nil, "", "show", "n", "--db", db)
	if code != 0 {
		t.Fatalf("show: exit %d %s", code, errOut)
	}
	if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x07) {
		t.Fatalf("raw control characters in %q", out)
	}
	if !strings.Contains(out, "before⟨U+001B⟩]0;pwned⟨U+0007⟩after ⟨U+001B⟩[31mred") {
		t.Errorf("the escape sequences are not shown marked: %q", out)
	}
}
