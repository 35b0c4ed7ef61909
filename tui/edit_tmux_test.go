package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
)

// editSession is crmem running in a private tmux server with the scripted
// editor testdata/editor.sh, which runs whatever the test last wrote to its
// plan. (Self-contained: it shares no helpers with the core's tmux tests.)
type editSession struct {
	t       *testing.T
	socket  string
	bin, db string
	plan    string
	tmp     string // TMPDIR of crmem: where its temp files go
}

// buildEditBinary is crmem as buildBinary builds it, once for the package.
func buildEditBinary(t *testing.T) string {
	t.Helper()
	return buildBinary(t)
}

// tmux runs a tmux command on the session's private server.
func (s *editSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// startEdit starts crmem on db (with the sessions folder sess) in tmux.
func startEdit(t *testing.T, bin, db, sess string) *editSession {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "editor.sh"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir() // however long: the status line wraps a path rather than cut it
	s := &editSession{t: t, socket: tmuxSocket(t),
		bin: bin, db: db, plan: filepath.Join(t.TempDir(), "plan.sh"), tmp: tmp}
	t.Cleanup(func() { exec.Command("tmux", "-S", s.socket, "kill-server").Run() })
	s.setPlan("true")
	cmd := fmt.Sprintf("EDITOR=%s VISUAL= EDIT_PLAN=%s TMPDIR=%s CRMEM=%s %s --sessions %s %s; sleep 60",
		shellQuote(script), shellQuote(s.plan), shellQuote(tmp), shellQuote(bin), shellQuote(bin), shellQuote(sess), shellQuote(db))
	s.tmux("-f", "/dev/null", "new-session", "-d", "-s", "ed", "-x", "120", "-y", "40",
		"env", "HOME="+t.TempDir(), "TERM=xterm-256color", "NO_COLOR=", "sh", "-c", cmd)
	s.wait(15*time.Second, "first screen", contains("notes ·", "archives"))
	return s
}

// setPlan sets what the editor does next ($1 is the temp file, $CRMEM the
// binary).
func (s *editSession) setPlan(sh string) {
	s.t.Helper()
	if err := os.WriteFile(s.plan, []byte(sh+"\n"), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// wait polls the screen until ok holds, failing after within.
func (s *editSession) wait(within time.Duration, what string, ok func(string) bool) {
	s.t.Helper()
	deadline := time.Now().Add(within)
	for {
		screen := s.tmux("capture-pane", "-p", "-t", "ed")
		if ok(screen) {
			return
		}
		if time.Now().After(deadline) {
			// The processes in the pane tell a hung TUI from a slow one.
			procs := s.tmux("list-panes", "-t", "ed", "-F", "#{pane_current_command} #{pane_pid}")
			s.t.Fatalf("%s: not seen within %v; pane runs %q; screen:\n%s", what, within, procs, screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// press sends tmux key names; typ sends literal text.
func (s *editSession) press(keys ...string) {
	s.tmux(append([]string{"send-keys", "-t", "ed"}, keys...)...)
}
func (s *editSession) typ(text string) { s.tmux("send-keys", "-t", "ed", "-l", text) }

// search selects the best hit for query.
func (s *editSession) search(query, want string) {
	s.t.Helper()
	s.press("/")
	s.typ(query)
	s.press("Enter")
	s.wait(15*time.Second, "select "+want, func(sc string) bool { return cardTitle(sc) == want })
}

// show reads one entry through `crmem show --json`.
func (s *editSession) show(name string) store.Entry {
	s.t.Helper()
	out, err := exec.Command(s.bin, "show", "--json", "--db", s.db, name).Output()
	if err != nil {
		s.t.Fatalf("crmem show %s: %v", name, err)
	}
	var e store.Entry
	if err := json.Unmarshal(out, &e); err != nil {
		s.t.Fatalf("show --json: %v\n%s", err, out)
	}
	return e
}

// decodeFile decodes the memory file as crmem left it.
func decodeFile(t *testing.T, path string) []store.Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		t.Fatalf("crmem wrote a file that does not decode: %v", err)
	}
	return f.Entries
}

// byNameMap indexes entries by name.
func byNameMap(es []store.Entry) map[string]store.Entry {
	out := make(map[string]store.Entry, len(es))
	for _, e := range es {
		out[e.Name] = e
	}
	return out
}

// sameExcept reports the entries of a and b that differ, other than names.
func sameExcept(a, b []store.Entry, names ...string) []string {
	am, bm := byNameMap(a), byNameMap(b)
	var diff []string
	for n, e := range am {
		if !slices.Contains(names, n) && !entriesEqual(e, bm[n]) {
			diff = append(diff, n)
		}
	}
	for n := range bm {
		if _, ok := am[n]; !ok && !slices.Contains(names, n) {
			diff = append(diff, n)
		}
	}
	return diff
}

func TestTmux_Editing(t *testing.T) {
	requireTmux(t)
	bin := buildEditBinary(t)
	t.Run("content and aliases", func(t *testing.T) { tmuxEditContent(t, bin) })
	t.Run("external writes while editing", func(t *testing.T) { tmuxExternalWrites(t, bin) })
	t.Run("failing editor keeps the text", func(t *testing.T) { tmuxFailingEditor(t, bin) })
	t.Run("bulk delete by age and undo", func(t *testing.T) { tmuxBulkDelete(t, bin) })
	t.Run("crabtalk's store: edit, bulk delete, undo", func(t *testing.T) { tmuxStoreWrites(t, bin) })
}

func tmuxEditContent(t *testing.T, bin string) {
	db := copyFixture(t, "crmem/small.db")
	before := decodeFile(t, db)
	s := startEdit(t, bin, db, fixtureSessions)
	s.search("conventional commits", "commit-format")
	s.setPlan(`sed -i -e 's|<li>commits</li>|<li>commits</li><li>cc</li>|' -e 's|^Use |Always use |' "$1"; printf 'Sign off.\n' >> "$1"`)
	s.press("e")
	s.wait(15*time.Second, "saved and redrawn", contains("saved commit-format", "aliases commits, cc, conventional", "/ "))
	e := s.show("commit-format")
	if !slices.Equal(e.Aliases, []string{"commits", "cc", "conventional"}) || !strings.HasSuffix(e.Content, "\nSign off.") {
		t.Fatalf("after edit: %+v", e)
	}
	after := decodeFile(t, db)
	if d := sameExcept(before, after, "commit-format"); len(d) != 0 {
		t.Fatalf("entries changed besides the edited one: %v", d)
	}
	if left, _ := filepath.Glob(filepath.Join(s.tmp, "crmem-edit-*")); len(left) != 0 {
		t.Fatalf("temp files left after a save: %v", left)
	}
}

func tmuxExternalWrites(t *testing.T, bin string) {
	db := copyFixture(t, "crmem/small.db")
	s := startEdit(t, bin, db, fixtureSessions)
	s.search("conventional commits", "commit-format")
	// Another entry changes while the editor is open: saved without asking.
	s.setPlan(fmt.Sprintf(`"$CRMEM" write --db %s scratch 'written by the agent'; sleep 0.3; printf 'Mine one.\n' >> "$1"`, shellQuote(db)))
	s.press("e")
	s.wait(15*time.Second, "saved beside the other write", contains("saved commit-format"))
	if got := s.show("scratch").Content; got != "written by the agent" {
		t.Fatalf("the other writer's change was lost: %q", got)
	}
	// The edited entry itself changes: the user chooses; save as new keeps both.
	s.setPlan(fmt.Sprintf(`"$CRMEM" write --db %s commit-format 'rewritten by the agent'; sleep 0.3; printf 'Mine two.\n' >> "$1"`, shellQuote(db)))
	s.press("e")
	s.wait(15*time.Second, "conflict dialog", contains("commit-format changed on disk while you were editing", "[m] keep mine", "[t] keep theirs", "[n] save mine as a new note"))
	s.press("n")
	s.wait(15*time.Second, "saved as new", contains("saved your text as the new note commit-format-mine"))
	if got := s.show("commit-format").Content; got != "rewritten by the agent" {
		t.Fatalf("theirs: %q", got)
	}
	mine := s.show("commit-format-mine")
	if !strings.Contains(mine.Content, "Mine one.\nMine two.") {
		t.Fatalf("mine: %q", mine.Content)
	}
	es := byNameMap(decodeFile(t, db))
	if es["scratch"].Content != "written by the agent" || es["commit-format-mine"].ID != 29 {
		t.Fatalf("file: scratch %+v, mine %+v", es["scratch"], es["commit-format-mine"])
	}
}

func tmuxFailingEditor(t *testing.T, bin string) {
	db := copyFixture(t, "crmem/small.db")
	before, _ := os.ReadFile(db)
	s := startEdit(t, bin, db, fixtureSessions)
	s.search("conventional commits", "commit-format")
	s.setPlan(`printf 'Half-written thought.\n' >> "$1"; exit 3`)
	s.press("e")
	s.wait(15*time.Second, "failure reported", func(sc string) bool {
		return strings.Contains(squeeze(sc), squeeze("editor failed (exit status 3); your text is kept in "+s.tmp))
	})
	kept, _ := filepath.Glob(filepath.Join(s.tmp, "crmem-edit-*", "commit-format.md"))
	if len(kept) != 1 {
		t.Fatalf("kept files %v", kept)
	}
	if text, _ := os.ReadFile(kept[0]); !strings.Contains(string(text), "Half-written thought.") {
		t.Fatalf("kept text: %q", text)
	}
	if after, _ := os.ReadFile(db); string(after) != string(before) {
		t.Fatal("a failed edit changed the file")
	}
}

// ageCorpus writes 100 archives created 40 to 139 days ago, 5 recent ones
// and 3 notes, and returns the file's path.
func ageCorpus(t *testing.T, now time.Time) string {
	t.Helper()
	day := uint64(24 * 3600)
	ts := uint64(now.Unix())
	var es []store.Entry
	id := uint64(1)
	add := func(name string, kind store.Kind, created uint64, content string, aliases ...string) {
		es = append(es, store.Entry{ID: id, Name: name, Kind: kind, CreatedAt: created, Content: content, Aliases: aliases})
		id += 2 // gaps, so undo must put back the exact ids
	}
	for i := range 100 {
		add(fmt.Sprintf("archive-old-%03d", i), store.Archive, ts-uint64(40+i)*day, fmt.Sprintf("Summary %d of an old session.", i))
	}
	for i := range 5 {
		add(fmt.Sprintf("archive-new-%d", i), store.Archive, ts-uint64(i+1)*day, "A recent summary.")
	}
	for i := range 3 {
		add(fmt.Sprintf("note-%d", i), store.Note, ts-uint64(400)*day, "An old note is not an archive.", "n"+fmt.Sprint(i))
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, es)
	return path
}

func tmuxBulkDelete(t *testing.T, bin string) {
	db := ageCorpus(t, time.Now())
	before := decodeFile(t, db)
	sess := t.TempDir()
	writeSession(t, sess, "chat-7", "archive-old-007")
	s := startEdit(t, bin, db, sess)
	s.press("O")
	s.wait(15*time.Second, "age prompt", contains("mark archives older than"))
	s.typ("30d")
	s.press("Enter")
	s.wait(15*time.Second, "marked", contains("marked 100 archives older than 30d", "● 100 marked"))
	s.press("D")
	s.wait(15*time.Second, "confirmation", contains("delete 100 entries marked", "1 session loses its resume point: chat-7", "[y/n]"))
	s.press("Enter")
	s.press("y")
	s.wait(15*time.Second, "deleted", contains("deleted 100 entries"))
	mid := byNameMap(decodeFile(t, db))
	if len(mid) != 8 {
		t.Fatalf("%d entries after the bulk delete, want 8", len(mid))
	}
	s.press("u")
	s.wait(15*time.Second, "undone", contains("undone: delete 100 entries"))
	after := decodeFile(t, db)
	if len(after) != len(before) {
		t.Fatalf("%d entries after undo, want %d", len(after), len(before))
	}
	for i := range before {
		if !entriesEqual(after[i], before[i]) {
			t.Fatalf("entry %d after undo %+v, want %+v", i, after[i], before[i])
		}
	}
}

// storeEntries reads crabtalk's store at path: every entry's stored JSON
// by name, and whether the store's own index agrees with its entries.
func storeEntries(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := crabdb.Read(data)
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	es, problems := st.Entries()
	if len(problems) != 0 {
		t.Fatalf("the store reads with problems: %v", problems)
	}
	out := map[string]string{}
	for _, e := range es {
		out[e.Name] = string(e.Raw)
	}
	return out
}

// tmuxStoreWrites: on crabtalk's store (issue 31), an $EDITOR edit, a bulk
// delete of the marked archives and its undo, in a real terminal; the
// store then holds what it held, byte for byte, but the one edit.
func tmuxStoreWrites(t *testing.T, bin string) {
	path := copyStore(t, "small.crmem")
	before := storeEntries(t, path)
	s := startEdit(t, bin, path, t.TempDir())
	s.search("deploy-steps", "deploy-steps")
	s.setPlan(`printf 'Edited in a real terminal.\n' >> "$1"`)
	s.press("e")
	s.wait(15*time.Second, "saved", contains("saved deploy-steps"))
	edited := storeEntries(t, path)
	if got := edited["deploy-steps"]; !strings.Contains(got, `\nEdited in a real terminal.",`) {
		t.Fatalf("deploy-steps after the edit: %s", got)
	}
	s.press("Escape") // out of the search
	s.wait(15*time.Second, "search closed", func(sc string) bool { return !strings.Contains(sc, "store recall") })
	s.press("3") // archives
	s.wait(15*time.Second, "archives listed", contains("archives · ", "1/3"))
	s.press("*") // mark every listed one
	s.wait(15*time.Second, "marked", contains("● 3 marked"))
	s.press("D")
	s.wait(15*time.Second, "confirmation", contains("delete 3 entries marked", "[y/n]"))
	s.press("y")
	s.wait(15*time.Second, "deleted", contains("deleted 3 entries"))
	mid := storeEntries(t, path)
	if len(mid) != len(before)-3 {
		t.Fatalf("%d entries after deleting 3 of %d", len(mid), len(before))
	}
	s.press("u")
	s.wait(15*time.Second, "undone", contains("undone: delete 3 entries"))
	after := storeEntries(t, path)
	if len(after) != len(edited) {
		t.Fatalf("%d entries after undo, want %d", len(after), len(edited))
	}
	for name, raw := range edited {
		if after[name] != raw {
			t.Errorf("%s after undo:\n%s\nwant, as stored before the delete:\n%s", name, after[name], raw)
		}
	}
	for name, raw := range before {
		if changed := after[name] != raw; changed != (name == "deploy-steps") {
			t.Errorf("%s: changed %v after the edit, the delete and the undo", name, changed)
		}
	}
}
