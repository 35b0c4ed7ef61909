package editor

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"vi", []string{"vi"}},
		{"code -w", []string{"code", "-w"}},
		{"emacsclient -t", []string{"emacsclient", "-t"}},
		{"  nvim   -u NONE ", []string{"nvim", "-u", "NONE"}},
		{`"/opt/My Editor/ed" --wait`, []string{"/opt/My Editor/ed", "--wait"}},
		{`'/opt/My Editor/ed' -n`, []string{"/opt/My Editor/ed", "-n"}},
		{`/opt/My\ Editor/ed`, []string{"/opt/My Editor/ed"}},
		{`ed "a \"q\" \x" 'it''s'`, []string{"ed", `a "q" \x`, "its"}},
		{`sh -c 'printf "%s\n" x >> "$1"' sh`, []string{"sh", "-c", `printf "%s\n" x >> "$1"`, "sh"}},
		{`ed ""`, []string{"ed", ""}},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`ed "open`, `ed 'open`, `ed \`, "", "   "} {
		if got, err := Split(bad); err == nil {
			t.Errorf("Split(%q) = %q; want an error", bad, got)
		}
	}
}

// env is a getenv over a map.
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	spaced := filepath.Join(dir, "My Editor")
	if err := os.WriteFile(spaced, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"visual wins", map[string]string{"VISUAL": "code -w", "EDITOR": "nano"}, []string{"code", "-w"}},
		{"editor", map[string]string{"EDITOR": "nvim -u NONE"}, []string{"nvim", "-u", "NONE"}},
		{"blank visual ignored", map[string]string{"VISUAL": "  ", "EDITOR": "emacsclient -t"}, []string{"emacsclient", "-t"}},
		{"fallback", map[string]string{}, []string{"vi"}},
		{"existing path with a space is not split", map[string]string{"EDITOR": spaced}, []string{spaced}},
		{"missing path with a space is split", map[string]string{"EDITOR": filepath.Join(dir, "No Such")}, []string{filepath.Join(dir, "No"), "Such"}},
		{"quoted path with arguments", map[string]string{"EDITOR": `"` + spaced + `" -w`}, []string{spaced, "-w"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Command(env(tt.env))
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Command = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := Command(env(map[string]string{"EDITOR": `vim "x`})); err == nil || !strings.Contains(err.Error(), "$EDITOR") {
		t.Fatalf("unterminated quote: err = %v; want one naming $EDITOR", err)
	}
}

// fakeClock advances by step on every call.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Unix(1_800_000_000, 0)
	return func() time.Time { t = t.Add(step); return t }
}

var deploy = store.Entry{ID: 7, Name: "deploy-steps", Kind: store.Note, CreatedAt: 1767265200,
	Aliases: []string{"ship", "release"}, Content: "Tag, release, canary.\n\nThen promote."}

// session starts an edit of e with the given $EDITOR.
func session(t *testing.T, e store.Entry, editor string, isNew bool, step time.Duration) *Session {
	t.Helper()
	opts := Options{Getenv: env(map[string]string{"EDITOR": editor}), TempDir: t.TempDir(), Now: fakeClock(step)}
	var s *Session
	var err error
	if isNew {
		s, err = NewNote(e.Name, opts)
	} else {
		s, err = Edit(e, opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func runEditor(t *testing.T, s *Session) Result {
	t.Helper()
	return s.Finish(s.Cmd().Run())
}

func TestEdit_TempFileIsPrivateMarkdown(t *testing.T) {
	s := session(t, deploy, "true", false, time.Second)
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.Stat(filepath.Dir(s.Path()))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v, folder %v; want 0600, 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
	if filepath.Base(s.Path()) != "deploy-steps.md" {
		t.Errorf("file name %q, want deploy-steps.md", filepath.Base(s.Path()))
	}
	data, _ := os.ReadFile(s.Path())
	if string(data) != string(formatEntry(deploy)) {
		t.Errorf("temp file:\n%s\nwant the dump format:\n%s", data, formatEntry(deploy))
	}
	if got := s.Argv(); !reflect.DeepEqual(got, []string{"true", s.Path()}) {
		t.Errorf("Argv = %q", got)
	}
}

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{"a/b\x1b[2J": "a_b_[2J.md", "..": "entry.md", "": "entry.md", "螃蟹": "螃蟹.md"} {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFinish(t *testing.T) {
	const appendLine = `sh -c 'printf "More.\n" >> "$1"' sh`
	tests := []struct {
		name    string
		editor  string
		isNew   bool
		step    time.Duration // fake time between starting the editor and its exit
		outcome Outcome
		op      store.Op
		quick   bool
		message string // substring of Message()
	}{
		{name: "content edited", editor: appendLine, step: 5 * time.Second, outcome: Changed,
			op: store.Update{Name: deploy.Name, Content: deploy.Content + "\nMore.", Aliases: deploy.Aliases, Expect: &deploy}},
		{name: "aliases edited", editor: `sed -i -e 's|<li>ship</li>|<li>boat</li>|' -e '/<li>release/d'`, step: 5 * time.Second, outcome: Changed,
			op: store.Update{Name: deploy.Name, Content: deploy.Content, Aliases: []string{"boat"}, Expect: &deploy}},
		{name: "saved without change", editor: `sh -c 'cat "$1" > "$1.x"; mv "$1.x" "$1"' sh`, step: 5 * time.Second,
			outcome: Unchanged, message: "no changes to deploy-steps"},
		// issue 38 §5: what the user saved is what is stored; only the one
		// newline ending the file is not content.
		{name: "saved without the final newline", editor: `sh -c 'printf %s "$(cat "$1")" > "$1.x"; mv "$1.x" "$1"' sh`, step: 5 * time.Second,
			outcome: Unchanged, message: "no changes to deploy-steps"},
		{name: "blank lines added at the end are kept", editor: `sh -c 'printf "\n\n" >> "$1"' sh`, step: 5 * time.Second, outcome: Changed,
			op: store.Update{Name: deploy.Name, Content: deploy.Content + "\n\n", Aliases: deploy.Aliases, Expect: &deploy}},
		{name: "forking editor returns at once", editor: "GUI/code", step: 200 * time.Millisecond, outcome: Unchanged, quick: true,
			message: "code -w"},
		{name: "GUI editor with its wait flag gives no hint", editor: "GUI/code -w", step: 200 * time.Millisecond, outcome: Unchanged},
		// issue 10 item 11: vi and :q within a second is no reason for the GUI hint
		{name: "terminal editor quit at once gives no hint", editor: "true", step: 200 * time.Millisecond, outcome: Unchanged,
			message: "no changes to deploy-steps"},
		{name: "Created changed", editor: `sed -i 's|datetime="[^"]*"|datetime="2025-06-01T10:00:00Z"|'`, step: 5 * time.Second, outcome: Changed,
			op: store.Remove{Name: deploy.Name, Expect: &deploy}},
		{name: "Created unparsable keeps the text", editor: `sed -i 's|datetime="[^"]*"|datetime="last tuesday"|'`, step: 5 * time.Second,
			outcome: Unreadable, message: "does not parse"},
		{name: "slow quit without change gives no hint", editor: "true", step: 3 * time.Second, outcome: Unchanged},
		{name: "non-zero exit keeps the text", editor: `sh -c 'printf "Half done.\n" >> "$1"; exit 3' sh`, step: time.Second,
			outcome: EditorFailed, message: "exit status 3"},
		{name: "editor not found", editor: "/nonexistent/editor -w", step: time.Second, outcome: EditorFailed,
			message: "cannot run the editor (fork/exec /nonexistent/editor: no such file or directory); set $VISUAL or $EDITOR"},
		{name: "unparsable file keeps the text", editor: `sed -i 's|</div>||'`, step: time.Second, outcome: Unreadable,
			message: "cannot read the edited file back"},
		{name: "meta block removed", editor: `sed -i '1,/<\/div>/d'`, step: time.Second, outcome: Unreadable,
			message: "meta"},
		{name: "invalid UTF-8", editor: `sh -c 'printf "\377\n" >> "$1"' sh`, step: time.Second, outcome: Unreadable},
		{name: "deleted file", editor: `rm`, step: time.Second, outcome: Unreadable},
		{name: "new note", editor: appendLine, isNew: true, step: 5 * time.Second, outcome: Changed,
			op: store.Add{Name: deploy.Name, Content: "More.", Kind: store.Note}},
		{name: "new note left empty", editor: "true", isNew: true, step: 5 * time.Second, outcome: Unchanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := session(t, deploy, strings.Replace(tt.editor, "GUI/", fakeGUIDir(t)+"/", 1), tt.isNew, tt.step)
			r := runEditor(t, s)
			if r.Outcome != tt.outcome {
				t.Fatalf("outcome %v (%v), want %v", r.Outcome, r.Err, tt.outcome)
			}
			if r.Quick != tt.quick {
				t.Errorf("Quick = %v, want %v", r.Quick, tt.quick)
			}
			if tt.op != nil && !reflect.DeepEqual(r.Op, tt.op) {
				t.Errorf("Op = %#v\nwant %#v", r.Op, tt.op)
			}
			if !strings.Contains(r.Message(), tt.message) {
				t.Errorf("Message() = %q, want it to contain %q", r.Message(), tt.message)
			}
			checkKept(t, s, r)
		})
	}
}

// fakeGUIDir holds an executable named code that returns at once, as a
// GUI editor without its wait flag does.
func fakeGUIDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "code"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkKept: an unchanged edit leaves nothing behind; every other outcome
// keeps the file (when it still exists), and the message names it unless it
// is about to be saved.
func checkKept(t *testing.T, s *Session, r Result) {
	t.Helper()
	_, err := os.Stat(s.Path())
	if r.Outcome == Unchanged || r.Path == "" {
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("nothing edited: temp file still there (%v)", err)
		}
		return
	}
	if r.Outcome == EditorFailed || r.Outcome == Unreadable {
		if !strings.Contains(r.Message(), s.Path()) {
			t.Errorf("Message() = %q does not name %s", r.Message(), s.Path())
		}
	}
	if r.Outcome != Unreadable && err != nil {
		t.Errorf("temp file removed before a save: %v", err)
	}
	if r.Outcome == EditorFailed {
		data, _ := os.ReadFile(s.Path())
		if strings.Contains(r.Message(), "exit status") && !strings.Contains(string(data), "Half done.") {
			t.Errorf("kept file lost the text: %q", data)
		}
	}
	if err := s.Cleanup(); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Dir(s.Path())); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Cleanup left the folder: %v", err)
	}
}

// fresh is a memory for Resolve: entries by id, looked up by exact name.
type fresh []store.Entry

func (f fresh) Lookup(name string) (store.Entry, bool) {
	for _, e := range f {
		if e.Name == name {
			return e, true
		}
	}
	return store.Entry{}, false
}

func (f fresh) Get(id uint64) (store.Entry, bool) {
	for _, e := range f {
		if e.ID == id {
			return e, true
		}
	}
	return store.Entry{}, false
}

func TestResolve(t *testing.T) {
	mine := Result{Outcome: Changed, Name: deploy.Name, Content: "mine", Aliases: []string{"m"}}
	theirs := deploy
	theirs.Content = "theirs"
	renamed := theirs
	renamed.Name = "ship-steps"
	replacement := store.Entry{ID: 12, Name: deploy.Name, Content: "a new one"}
	present := fresh{theirs, {ID: 99, Name: "deploy-steps-mine"}}
	restored := deploy
	restored.Content, restored.Aliases = "mine", []string{"m"}
	tests := []struct {
		name     string
		isNew    bool
		choice   Choice
		fresh    fresh
		want     store.Op
		happened string
	}{
		{"keep mine over theirs", false, KeepMine, present, store.Update{Name: deploy.Name, Content: "mine", Aliases: []string{"m"}}, "changed on disk"},
		// Issue 17 item 10: a rename kept the id; mine goes to that id
		// under its new name (a Restore failed with "id already taken").
		{"keep mine after they renamed it", false, KeepMine, fresh{renamed}, store.Update{Name: "ship-steps", Content: "mine", Aliases: []string{"m"}}, "was renamed to ship-steps"},
		{"keep mine after they removed it", false, KeepMine, fresh{}, store.Restore{Entry: restored}, "was removed"},
		{"keep mine after they replaced it", false, KeepMine, fresh{replacement}, store.Update{Name: deploy.Name, Content: "mine", Aliases: []string{"m"}}, "was removed and a new entry took its name"},
		{"keep theirs", false, KeepTheirs, present, nil, "changed on disk"},
		{"save as new skips a taken name", false, SaveAsNew, present, store.Add{Name: "deploy-steps-mine-2", Content: "mine", Aliases: []string{"m"}, Kind: store.Note}, "changed on disk"},
		{"save as new", false, SaveAsNew, fresh{}, store.Add{Name: "deploy-steps-mine", Content: "mine", Aliases: []string{"m"}, Kind: store.Note}, "was removed"},
		{"new note saved as new", true, SaveAsNew, present, store.Add{Name: "deploy-steps-mine-2", Content: "mine", Aliases: []string{"m"}, Kind: store.Note}, "was taken by another entry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := session(t, deploy, "true", tt.isNew, time.Second)
			got, err := s.Resolve(mine, tt.choice, tt.fresh)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Resolve = %#v, %v\nwant %#v", got, err, tt.want)
			}
			if h := s.Happened(tt.fresh).String(); h != tt.happened {
				t.Errorf("Happened = %q, want %q", h, tt.happened)
			}
		})
	}
	s := session(t, deploy, "true", true, time.Second)
	if _, err := s.Resolve(mine, KeepMine, present); err == nil {
		t.Error("a new note's keep mine must be refused (it would overwrite the other note)")
	}
	if got := s.Choices(); !reflect.DeepEqual(got, []Choice{SaveAsNew, KeepTheirs}) {
		t.Errorf("new note Choices = %v", got)
	}
}

func TestIsConflict(t *testing.T) {
	edit := session(t, deploy, "true", false, time.Second)
	note := session(t, deploy, "true", true, time.Second)
	wrapped := func(err error) error { return errors.Join(errors.New("save"), err) }
	if !edit.IsConflict(wrapped(store.ErrConflict)) || edit.IsConflict(errors.New("disk full")) {
		t.Error("edit: ErrConflict is a conflict, other errors are not")
	}
	if !note.IsConflict(wrapped(store.ErrNameTaken)) || note.IsConflict(store.ErrInvalidName) {
		t.Error("new note: ErrNameTaken is a conflict, other errors are not")
	}
}

func TestFreeName(t *testing.T) {
	taken := map[string]bool{"x-mine": true, "x-mine-2": true}
	tests := []struct{ name, want string }{
		{"x", "x-mine-3"},
		{"y", "y-mine"},
		{"a/b", "a-b-mine"},
		{".hidden", "hidden-mine"},
	}
	for _, tt := range tests {
		got, err := FreeName(tt.name, func(n string) bool { return taken[n] })
		if err != nil || got != tt.want {
			t.Errorf("FreeName(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if _, err := FreeName("z", func(string) bool { return true }); err == nil {
		t.Error("FreeName with every name taken succeeded")
	}
}
