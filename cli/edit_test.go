package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
)

// editRun runs `crmem edit --no-terminal NAME` in-process with EDITOR set
// to editor and standard input not a terminal.
func editRun(t *testing.T, db, editor, name string) result {
	t.Helper()
	env := map[string]string{"EDITOR": editor, "HOME": testHome, "TMPDIR": t.TempDir()} // kept texts stay in the test's folder
	var out, errb bytes.Buffer
	code := run([]string{"edit", "--no-terminal", "--db", db, name}, strings.NewReader(""), &out, &errb,
		func(k string) string { return env[k] })
	return result{out.String(), errb.String(), code}
}

// editFixture is a memory with one note and one other entry.
func editFixture(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "--db", db, "deploy-steps", "Tag and push.", "--alias", "ship")
	mustRun(t, "", "add", "--db", db, "other", "Other text.")
	return db
}

// showEntry reads one entry through `crmem show --json`.
func showEntry(t *testing.T, db, name string) jsonEntry {
	t.Helper()
	var e jsonEntry
	mustJSON(t, mustRun(t, "", "show", "--json", "--db", db, name), &e)
	return e
}

var keptRE = regexp.MustCompile(`kept in (\S+\.md)`)

// keptFile returns the temp file a message names, and its text.
func keptFile(t *testing.T, msg string) (string, string) {
	t.Helper()
	m := keptRE.FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("message names no kept file: %q", msg)
	}
	data, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatalf("kept file: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(m[1])) })
	return m[1], string(data)
}

const appendMine = `sh -c 'printf "Mine.\n" >> "$1"' sh`

func TestEdit_SavesContentAndAliases(t *testing.T) {
	db := editFixture(t)
	r := editRun(t, db, `sed -i -e 's|<li>ship</li>|<li>ship</li><li>release</li>|' -e 's|Tag and push.|Tag, push, watch.|'`, "ship")
	if r.code != 0 || !strings.Contains(r.stdout, "saved deploy-steps") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	e := showEntry(t, db, "deploy-steps")
	if e.Content != "Tag, push, watch." || !slices.Equal(e.Aliases, []string{"ship", "release"}) || e.ID != 1 {
		t.Fatalf("after edit: %+v", e)
	}
}

func TestEdit_NoChanges(t *testing.T) {
	db := editFixture(t)
	before, _ := os.ReadFile(db)
	r := editRun(t, db, "true", "deploy-steps")
	if r.code != 0 || !strings.Contains(r.stdout, "no changes to deploy-steps") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Fatal("an edit without changes rewrote the file")
	}
}

func TestEdit_FailuresKeepTheText(t *testing.T) {
	tests := []struct{ name, editor, reason string }{
		{"editor exits non-zero", `sh -c 'printf "Mine.\n" >> "$1"; exit 4' sh`, "editor failed (exit status 4)"},
		{"meta block broken", `sh -c 'sed -i "s|</div>||" "$1"; printf "Mine.\n" >> "$1"' sh`, "cannot read the edited file back"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := editFixture(t)
			r := editRun(t, db, tt.editor, "deploy-steps")
			if r.code != 1 || !strings.HasPrefix(r.stderr, "crmem: "+db+": "+tt.reason) {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			if _, text := keptFile(t, r.stderr); !strings.Contains(text, "Mine.") {
				t.Fatalf("kept file lost the text: %q", text)
			}
			if e := showEntry(t, db, "deploy-steps"); e.Content != "Tag and push." {
				t.Fatalf("entry changed: %+v", e)
			}
		})
	}
}

// externalWrite is an editor that first runs crmem to write entry, as an
// agent would meanwhile, then appends "Mine." to the temp file.
func externalWrite(db, entry string) string {
	return fmt.Sprintf(`sh -c '%s write --db %s %s "Theirs." && printf "Mine.\n" >> "$1"' sh`, crmemBin, db, entry)
}

func TestEdit_UnrelatedExternalWriteIsKept(t *testing.T) {
	db := editFixture(t)
	r := editRun(t, db, externalWrite(db, "other"), "deploy-steps")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if e := showEntry(t, db, "other"); e.Content != "Theirs." {
		t.Fatalf("external write lost: %+v", e)
	}
	if e := showEntry(t, db, "deploy-steps"); e.Content != "Tag and push.\nMine." {
		t.Fatalf("edit lost: %+v", e)
	}
}

func TestEdit_ConflictWithoutTerminalFails(t *testing.T) {
	db := editFixture(t)
	r := editRun(t, db, externalWrite(db, "deploy-steps"), "deploy-steps")
	if r.code != 1 || !strings.Contains(r.stderr, "deploy-steps changed on disk while you were editing") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if _, text := keptFile(t, r.stderr); !strings.Contains(text, "Mine.") {
		t.Fatalf("kept file: %q", text)
	}
	if e := showEntry(t, db, "deploy-steps"); e.Content != "Theirs." {
		t.Fatalf("their write must stand: %+v", e)
	}
}

func TestEdit_ConflictChoices(t *testing.T) {
	tests := []struct {
		answer string
		check  func(t *testing.T, db string, r result)
	}{
		{"x\nm\n", func(t *testing.T, db string, r result) { // an unknown answer asks again
			if e := showEntry(t, db, "deploy-steps"); e.Content != "Tag and push.\nMine." {
				t.Fatalf("keep mine: %+v", e)
			}
			if strings.Count(r.stderr, "choose [m/t/n]") != 2 {
				t.Fatalf("prompt: %q", r.stderr)
			}
		}},
		{"t\n", func(t *testing.T, db string, r result) {
			if e := showEntry(t, db, "deploy-steps"); e.Content != "Theirs." {
				t.Fatalf("keep theirs: %+v", e)
			}
			if _, text := keptFile(t, r.stdout); !strings.Contains(text, "Mine.") {
				t.Fatalf("kept file: %q", text)
			}
		}},
		{"n\n", func(t *testing.T, db string, r result) {
			if e := showEntry(t, db, "deploy-steps"); e.Content != "Theirs." {
				t.Fatalf("theirs: %+v", e)
			}
			e := showEntry(t, db, "deploy-steps-mine")
			if e.Content != "Tag and push.\nMine." || e.Kind != "note" || !slices.Equal(e.Aliases, []string{"ship"}) {
				t.Fatalf("saved as new: %+v", e)
			}
		}},
		{"", func(t *testing.T, db string, r result) { // end of input chooses nothing
			if r.code != 1 {
				t.Fatalf("exit %d", r.code)
			}
			keptFile(t, r.stderr)
		}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.answer), func(t *testing.T) {
			db := editFixture(t)
			var out, errb bytes.Buffer
			env := map[string]string{"EDITOR": externalWrite(db, "deploy-steps"), "HOME": testHome}
			a := newApp(strings.NewReader(""), &out, &errb, func(k string) string { return env[k] })
			a.opener.cfg = &config.Config{DB: db} // the resolved configuration names the file
			p := prompter{bufio.NewReader(strings.NewReader(tt.answer)), &errb, true}
			code := 0
			if err := edit(&a.opener, a.streams, "deploy-steps", p); err != nil {
				fmt.Fprintf(&errb, "crmem: %v\n", err)
				code = 1
			}
			tt.check(t, db, result{out.String(), errb.String(), code})
		})
	}
}

func TestEdit_Errors(t *testing.T) {
	db := editFixture(t)
	if r := editRun(t, db, "true", "nope"); r.code != 1 || !strings.Contains(r.stderr, `no such entry "nope"`) {
		t.Fatalf("missing entry: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := editRun(t, db, "/nonexistent/editor -w", "other"); r.code != 1 || !strings.Contains(r.stderr, "cannot run the editor") || strings.Contains(r.stderr, "kept in") {
		t.Fatalf("missing editor: exit %d, stderr %q", r.code, r.stderr)
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if r := editRun(t, missing, "true", "x"); r.code != 1 || r.stderr != "crmem: "+missing+": no such file\n" {
		t.Fatalf("missing file: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("edit created the missing file")
	}
	if code := run([]string{"edit", "--db", db}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, os.Getenv); code != 2 {
		t.Fatalf("no NAME: exit %d, want 2", code)
	}
}

func TestEdit_NamesAreSanitized(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	evil := "evil\x1b]0;pwned\x07\x1b[2J"
	if err := os.WriteFile(db, store.Encode(0, []store.Entry{{ID: 1, Name: evil, Content: "x"}}), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, editor := range []string{"true", `sh -c 'exit 1' sh`, appendMine} {
		r := editRun(t, db, editor, evil)
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") {
			t.Fatalf("EDITOR=%s: control characters reach the terminal: %q %q", editor, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout+r.stderr, "evil") {
			t.Fatalf("EDITOR=%s: the entry is not named: %q %q", editor, r.stdout, r.stderr)
		}
	}
}

// TestEdit_RefusesWithoutATerminal: with standard input not a terminal
// (here a pipe, as from /dev/null or a script) edit says so in one line and
// never starts the editor, unless --no-terminal asks for it.
func TestEdit_RefusesWithoutATerminal(t *testing.T) {
	db := editFixture(t)
	marker := filepath.Join(t.TempDir(), "editor-ran")
	env := map[string]string{"EDITOR": "touch " + marker, "HOME": testHome}
	var out, errb bytes.Buffer
	code := run([]string{"edit", "--db", db, "deploy-steps"}, strings.NewReader(""), &out, &errb, func(k string) string { return env[k] })
	want := "crmem: edit: the editor needs a terminal and standard input is not one (--no-terminal for an editor with its own window; scripts use write, update, alias)\n"
	if code != 1 || errb.String() != want || out.String() != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out.String(), errb.String(), want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the editor was started")
	}
	if r := editRun(t, db, "touch "+marker, "deploy-steps"); r.code != 0 {
		t.Fatalf("--no-terminal: exit %d, %q", r.code, r.stderr)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("--no-terminal did not start the editor: %v", err)
	}
}
