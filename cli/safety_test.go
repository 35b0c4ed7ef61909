//go:build unix

package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

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

// TestCLI_NotARegularFile: a FIFO, a character device, a folder or a socket
// at the path fails at once with "not a regular file", for reads and
// writes alike, and nothing is read (a FIFO without a writer would hang the
// open; /dev/zero would be read until memory runs out).
func TestCLI_NotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{"fifo": fifo, "folder": dir}
	if fi, err := os.Stat("/dev/zero"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		paths["character device"] = "/dev/zero"
	} else {
		t.Log("no /dev/zero here: the character device case is left out")
	}
	if sock := filepath.Join(dir, "s.db"); len(sock) < 100 { // sun_path holds 108 bytes
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		paths["socket"] = sock
	} else {
		t.Logf("temp folder path too long for a unix socket: the socket case is left out")
	}
	for what, p := range paths {
		for _, args := range [][]string{{"ls"}, {"show", "x"}, {"search", "x"}, {"add", "x", "y"}, {"rm", "x"}, {"export"}} {
			r := crmemGuarded(t, append([]string{"--db", p}, args...)...)
			if r.code != 1 || !strings.Contains(r.stderr, "not a regular file") {
				t.Errorf("%s, %v: exit %d, stderr %q; want 1 and \"not a regular file\"", what, args, r.code, r.stderr)
			}
		}
	}
}

// crmemGuarded runs the binary like crmemProcess, killing it if it has not ended
// after a generous two minutes (a hang fails the test instead of the run).
func crmemGuarded(t *testing.T, args ...string) result {
	t.Helper()
	return crmemGuardedEnv(t, nil, args...)
}

// crmemGuardedEnv is crmemGuarded with variables added to the environment
// ("CRMEM_CONFIG=/dev/zero").
func crmemGuardedEnv(t *testing.T, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, crmemBin, args...)
	cmd.Env = append(testEnv(), env...)
	r := runCommand(t, cmd)
	if ctx.Err() != nil {
		t.Fatalf("crmem %q did not end (killed)", args)
	}
	return r
}

// TestCLI_SymlinkDotDotAfterLinkedFolder: linkdir -> realdir/sub, and
// realdir/sub/m.link -> ../m.db. The kernel resolves the ".." from the
// folder the link really lives in (realdir/sub), so the memory is
// realdir/m.db; a lexical join would write root/m.db instead.
func TestCLI_SymlinkDotDotAfterLinkedFolder(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "realdir", "sub"), 0o700))
	must(t, os.Symlink(filepath.Join("realdir", "sub"), filepath.Join(root, "linkdir")))
	must(t, os.Symlink(filepath.Join("..", "m.db"), filepath.Join(root, "realdir", "sub", "m.link")))
	link := filepath.Join(root, "linkdir", "m.link")
	mustRun(t, "", "--db", link, "add", "x", "y")
	if _, err := os.Stat(filepath.Join(root, "m.db")); err == nil {
		t.Error("a stray m.db was created beside linkdir")
	}
	f, err := store.Decode(mustRead(t, filepath.Join(root, "realdir", "m.db")))
	if err != nil || len(f.Entries) != 1 || f.Entries[0].Name != "x" {
		t.Fatalf("realdir/m.db: %v %+v", err, f)
	}
	// The kernel agrees: reading through the link gives the same file.
	if es := lsJSON(t, link); len(es) != 1 {
		t.Errorf("ls through the link lists %d entries", len(es))
	}
	if fi, err := os.Lstat(filepath.Join(root, "realdir", "sub", "m.link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
}

// TestCLI_FailedWriteLeavesNothing: `--db /new/a/b/m.db rm nothing` fails
// and creates no folder; a successful write leaves the memory file alone in
// its folder (no lock file, no temp file).
func TestCLI_FailedWriteLeavesNothing(t *testing.T) {
	root := t.TempDir()
	db := filepath.Join(root, "a", "b", "m.db")
	if r := crmem(t, "", "--db", db, "rm", "nothing"); r.code != 1 {
		t.Fatalf("rm nothing: exit %d, stderr %q", r.code, r.stderr)
	}
	if des, _ := os.ReadDir(root); len(des) != 0 {
		t.Errorf("a failed rm created %v", des)
	}
	must(t, os.MkdirAll(filepath.Dir(db), 0o755))
	mustRun(t, "", "--db", db, "add", "x", "y")
	mustRun(t, "", "--db", db, "write", "x", "z")
	if r := crmem(t, "", "--db", db, "add", "x", "again"); r.code != 1 {
		t.Fatalf("second add of x: exit %d", r.code)
	}
	des, _ := os.ReadDir(filepath.Dir(db))
	if len(des) != 1 || des[0].Name() != "m.db" {
		t.Errorf("after writes the folder holds %v, want m.db alone", des)
	}
}

// TestCLI_NamesThatLie: names that would not read as what they are cannot
// be created, and such names already in a file are shown quoted, so two
// never look the same.
func TestCLI_NamesThatLie(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	for _, name := range []string{"ok\u202eexe.txt", "nor\u200bmal", strings.Repeat("n", 300), "a\x7fb", "c1\u0085", ".hidden", "a/b"} {
		if r := crmem(t, "", "--db", db, "add", name, "x"); r.code != 1 || !strings.Contains(r.stderr, "invalid name") {
			t.Errorf("add %q: exit %d, stderr %q", name, r.code, r.stderr)
		}
	}
	entries := []store.Entry{
		{ID: 1, Name: "normal", Content: "a"},
		{ID: 2, Name: "nor\u200bmal", Content: "b"},
		{ID: 3, Name: "okexe.txt", Content: "c"},
		{ID: 4, Name: "ok\u202eexe.txt", Content: "d"},
	}
	must(t, os.WriteFile(db, store.Encode(5, entries), 0o600))
	out := mustRun(t, "", "--db", db, "ls")
	for _, want := range []string{` normal `, `"nor\u200bmal"`, ` okexe.txt `, `"ok\u202eexe.txt"`} {
		if !strings.Contains(out, want) {
			t.Errorf("ls does not show %s:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\u200b\u202e") {
		t.Errorf("ls prints a format character raw:\n%q", out)
	}
}

// TestCLI_JSONEscapesInvisibles: JSON output carries DEL, C1 controls and
// format characters as \uXXXX escapes, never raw, and decodes back to the
// same text.
func TestCLI_JSONEscapesInvisibles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	name, content := "c1\u0085name", "del\x7f bidi\u202e zw\u200b tag\U000E0041"
	must(t, os.WriteFile(db, store.Encode(2, []store.Entry{{ID: 1, Name: name, Content: content, Aliases: []string{"al\u2066"}}}), 0o600))
	for _, args := range [][]string{{"ls", "--json"}, {"show", name, "--json"}, {"export"}} {
		out := mustRun(t, "", append([]string{"--db", db}, args...)...)
		for _, esc := range []string{`\u0085`, `\u007f`, `\u202e`, `\u200b`, `\udb40\udc41`, `\u2066`} {
			if !strings.Contains(out, esc) {
				t.Errorf("%v: no %s in %q", args, esc, out)
			}
		}
		for _, raw := range []string{"\u0085", "\x7f", "\u202e", "\u200b", "\U000E0041", "\u2066"} {
			if strings.Contains(out, raw) {
				t.Errorf("%v: raw %q in the output", args, raw)
			}
		}
		var e jsonEntry
		line := strings.Trim(strings.TrimSpace(out), "[]")
		mustJSON(t, strings.TrimSpace(line), &e)
		if e.Name != name || e.Content != content || len(e.Aliases) != 1 || e.Aliases[0] != "al\u2066" {
			t.Errorf("%v: decodes to %+v", args, e)
		}
	}
}

// TestCLI_ErrorShowsControlCharsEscaped: a path with an escape sequence is
// named with the escape shown, not stripped (stripped, it could name a
// different, existing file).
func TestCLI_ErrorShowsControlCharsEscaped(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "me\x1b[31mmory.db")
	must(t, os.WriteFile(filepath.Join(dir, "me[31mmory.db"), nil, 0o600)) // what stripping would name
	r := crmem(t, "", "--db", bad, "ls")
	if r.code != 1 || !strings.Contains(r.stderr, `me\x1b[31mmory.db": no such file`) || strings.Contains(r.stderr, "\x1b") {
		t.Errorf("exit %d, stderr %q; want the path Go-quoted with \\x1b shown", r.code, r.stderr)
	}
}

// TestCLI_EscapedPathsNeverLookAlike: a path holding an escape character
// and a path holding the same escape spelled out (a backslash, "x1b") are
// two files, and their messages must not read the same: a path that needs
// escaping is shown Go-quoted (SPEC §6, "%q style"), in errors and in
// warnings alike.
func TestCLI_EscapedPathsNeverLookAlike(t *testing.T) {
	dir := t.TempDir()
	withESC, spelled := filepath.Join(dir, "a\x1b"), filepath.Join(dir, `a\x1b`)
	store := filepath.Join(dir, "s\x1b.crmem")
	must(t, os.Mkdir(withESC, 0o700))
	must(t, os.Mkdir(spelled, 0o700))
	torn, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "crabdb", "torn.crmem"))
	must(t, err)
	must(t, os.WriteFile(store, torn, 0o600))
	for _, args := range [][]string{{"ls"}, {"add", "n", "x"}} {
		a := crmem(t, "", append([]string{"--db", withESC}, args...)...)
		b := crmem(t, "", append([]string{"--db", spelled}, args...)...)
		if a.code != 1 || b.code != 1 || a.stderr == b.stderr {
			t.Errorf("%s: exit %d and %d, stderr %q and %q; want two failures told apart", args[0], a.code, b.code, a.stderr, b.stderr)
		}
		if want := strconv.Quote(withESC); !strings.Contains(a.stderr, want) {
			t.Errorf("%s: stderr %q does not name %s", args[0], a.stderr, want)
		}
	}
	r := crmem(t, "", "--db", store, "ls")
	if want := strconv.Quote(store) + ": warning: torn record"; !strings.Contains(r.stderr, want) {
		t.Errorf("store warning %q does not name %s", r.stderr, strconv.Quote(store))
	}
}

// TestCLI_LoadSkipsLinksOutOfTheTree: notes/leak.md -> a secret outside the
// tree is not loaded; stderr names it.
func TestCLI_LoadSkipsLinksOutOfTheTree(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "id_ed25519")
	must(t, os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600))
	tree := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(tree, "notes"), 0o700))
	must(t, os.WriteFile(filepath.Join(tree, "notes", "ok.md"), []byte("fine"), 0o600))
	must(t, os.Symlink(secret, filepath.Join(tree, "notes", "leak.md")))
	db := filepath.Join(t.TempDir(), "m.db")
	r := crmem(t, "", "--db", db, "load", tree)
	if r.code != 0 || !strings.Contains(r.stderr, "leak.md: skipped: a symbolic link") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	es := lsJSON(t, db)
	if len(es) != 1 || es[0].Name != "ok" {
		t.Errorf("loaded %+v, want ok alone", es)
	}
}

// TestCLI_LockWaitSaysSoOnATerminal: a write that waits more than a second
// for another crmem writer says so when stderr is a terminal (script(1)
// gives it one), then lands once the lock is free. The test holds the
// lock (a flock on the memory's folder) until the message is seen.
func TestCLI_LockWaitSaysSoOnATerminal(t *testing.T) {
	scriptBin, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) is not installed: no terminal to run crmem on")
	}
	db := filepath.Join(t.TempDir(), "m.db")
	mustRun(t, "", "--db", db, "add", "a", "b")
	dir, err := os.Open(filepath.Dir(db))
	must(t, err)
	defer dir.Close()
	must(t, syscall.Flock(int(dir.Fd()), syscall.LOCK_EX))
	cmd := exec.Command(scriptBin, "-qec", shellQuote(crmemBin)+" --db "+shellQuote(db)+" add c d", "/dev/null")
	cmd.Env = testEnv()
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	must(t, cmd.Start())
	deadline := time.Now().Add(2 * time.Minute) // a guard against a hang, not a timing check
	for !strings.Contains(out.String(), "waiting for another crmem (pid ") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no waiting message; output %q", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	must(t, syscall.Flock(int(dir.Fd()), syscall.LOCK_UN))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("add after the wait: %v; output %q", err, out.String())
	}
	if _, ok := byName(lsJSON(t, db), "c"); !ok {
		t.Error("the waiting add did not land")
	}
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestCLI_PathsInReportsEscaped: the one-line reports of dump, load and
// import name the user's path escaped, like every message (SPEC §6), so a
// folder named with a terminal escape cannot act on the terminal.
func TestCLI_PathsInReportsEscaped(t *testing.T) {
	root := t.TempDir()
	db := filepath.Join(root, "m.db")
	mustRun(t, "", "--db", db, "add", "a", "x")
	dir := filepath.Join(root, "out\x1b]0;owned\a")
	jsonl := filepath.Join(root, "in\x1b[2J.jsonl")
	must(t, os.WriteFile(jsonl, []byte(`{"name":"b","kind":"note","content":"y"}`+"\n"), 0o600))
	for _, args := range [][]string{
		{"dump", dir},
		{"load", dir},
		{"load", "--merge", dir},
		{"import", jsonl},
		{"import", "--replace", jsonl},
	} {
		out := mustRun(t, "", append([]string{"--db", db}, args...)...)
		if strings.ContainsAny(out, "\x1b\a") {
			t.Errorf("%s prints a control character raw: %q", args[0], out)
		}
		if !strings.Contains(out, `\x1b`) {
			t.Errorf("%s does not name the path escaped: %q", args[0], out)
		}
	}
}

// TestCLI_ShowMakesInvisiblesVisible (issue 17, item 11): show prints
// zero-width and format characters as markers, with the TUI's policy (one
// implementation), so "zero\u200bwidth" never reads as "zerowidth"; raw
// HTML is printed as written; a name made of an emoji ZWJ sequence reads as
// itself, not quoted.
func TestCLI_ShowMakesInvisiblesVisible(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	family := "\U0001F468\u200d\U0001F469\u200d\U0001F467"
	content := "zero\u200bwidth join\u200der \ufeffbom <script>alert(1)</script> " + family
	must(t, os.WriteFile(db, store.Encode(2, []store.Entry{{ID: 1, Name: "family-" + family, Content: content}}), 0o600))
	out := mustRun(t, "", "--db", db, "show", "family-"+family)
	for _, want := range []string{"zero⟨U+200B⟩width join⟨U+200D⟩er ⟨U+FEFF⟩bom <script>alert(1)</script> " + family, "name     family-" + family + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\u200b\ufeff") {
		t.Errorf("show prints an invisible character raw: %q", out)
	}
	if ls := mustRun(t, "", "--db", db, "ls"); !strings.Contains(ls, " family-"+family) {
		t.Errorf("ls quotes the emoji name:\n%s", ls)
	}
}

// TestCLI_LsTellsSpacesApart (issue 29 item 3): names that differ in a
// space at an end, the kind of space, or that are blank print quoted, so
// "same", "same ", "same\u00a0" and "same\u3000" are four rows that read
// differently, and a blank name is not a blank cell.
func TestCLI_LsTellsSpacesApart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	names := []string{"same", "same ", "same\u00a0", "same\u3000", " same", "", "clip-\x1b]52;c;YQ==\x07-x", "clip-\x1b]52;c;Yg==\x07-x"}
	var entries []store.Entry
	for i, n := range names {
		entries = append(entries, store.Entry{ID: uint64(i + 1), Name: n, Content: "x"})
	}
	must(t, os.WriteFile(db, store.Encode(uint64(len(names)+1), entries), 0o600))
	out := mustRun(t, "", "--db", db, "ls")
	for _, want := range []string{" same ", `"same "`, `"same\u00a0"`, `"same\u3000"`, `" same"`, `""`, `"clip-\x1b]52;c;YQ==\a-x"`, `"clip-\x1b]52;c;Yg==\a-x"`} {
		if !strings.Contains(out, want) {
			t.Errorf("ls does not show %s:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\u00a0\u3000\x1b") {
		t.Errorf("ls prints a space that reads as another, or an ESC, raw:\n%q", out)
	}
}

// TestCLI_ShowNeutralisesEscapes (issue 29 item 4): text inside escape
// sequences in content (an OSC 52 payload, an OSC 8 address, a window
// title) is shown, with the ESC and BEL as markers, not hidden from the
// person reading while recall hands it to the agent.
func TestCLI_ShowNeutralisesEscapes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	content := "copy \x1b]52;c;ZXZpbA==\x07 link \x1b]8;;http://evil.example\x1b\\here\x1b]8;;\x1b\\ title \x1b]2;pwned\x07 end"
	must(t, os.WriteFile(db, store.Encode(2, []store.Entry{{ID: 1, Name: "esc", Content: content}}), 0o600))
	out := mustRun(t, "", "--db", db, "show", "esc")
	for _, want := range []string{"⟨U+001B⟩]52;c;ZXZpbA==⟨U+0007⟩", "⟨U+001B⟩]8;;http://evil.example⟨U+001B⟩\\here", "⟨U+001B⟩]2;pwned⟨U+0007⟩ end"} {
		if !strings.Contains(out, want) {
			t.Errorf("show hides %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("show prints an escape raw: %q", out)
	}
}
