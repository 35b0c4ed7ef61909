package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/editing"
)

const fixtureSessions = "../testdata/reference/sessions"

// editHarness is a model with the editing feature, an $EDITOR and a hook
// that runs while the editor is "open" (another writer, say).
type editHarness struct {
	t       *testing.T
	m       *Model
	f       *editing.Part
	path    string
	tempDir string // the editor's temporary files' folder
	editor  string
	during  func()        // runs after the editor process, before its exit is reported
	step    time.Duration // how long each editor run seems to take
}

// newEditHarness opens path with the editing feature and the fixture's
// sessions folder.
func newEditHarness(t *testing.T, path string) *editHarness {
	t.Helper()
	return newEditHarnessIn(t, path, fixtureSessions)
}

// newEditHarnessHome opens path with home as the environment's HOME.
func newEditHarnessHome(t *testing.T, path, home string) *editHarness {
	t.Helper()
	return newEditHarnessEnv(t, path, fixtureSessions, map[string]string{"HOME": home})
}

// newEditHarnessIn opens path with the given sessions folder.
func newEditHarnessIn(t *testing.T, path, sessionsDir string) *editHarness {
	t.Helper()
	return newEditHarnessEnv(t, path, sessionsDir, nil)
}

// newEditHarnessEnv opens path with the given sessions folder and
// environment (EDITOR aside, which the harness sets).
func newEditHarnessEnv(t *testing.T, path, sessionsDir string, env map[string]string) *editHarness {
	t.Helper()
	return newEditHarnessSized(t, path, sessionsDir, env, 120, 40)
}

// newEditHarnessSized opens path on a w×h screen with the given sessions
// folder and environment (EDITOR aside, which the harness sets).
func newEditHarnessSized(t *testing.T, path, sessionsDir string, env map[string]string, w, ht int) *editHarness {
	t.Helper()
	return newEditHarnessTemp(t, path, sessionsDir, env, w, ht, t.TempDir())
}

// newEditHarnessTemp is newEditHarnessSized with the editor's temporary
// files in tempDir.
func newEditHarnessTemp(t *testing.T, path, sessionsDir string, env map[string]string, w, ht int, tempDir string) *editHarness {
	t.Helper()
	h := &editHarness{t: t, path: path, editor: "true", step: time.Minute, tempDir: tempDir}
	var tick time.Duration
	ed := editor.Options{
		Getenv:  func(k string) string { return map[string]string{"EDITOR": h.editor}[k] },
		TempDir: h.tempDir,
		Now:     func() time.Time { tick += h.step; return testNow.Add(tick) },
	}
	var getenv func(string) string
	if env != nil {
		getenv = func(k string) string { return env[k] }
	}
	h.f = newEditing(Options{Path: path, SessionsDir: sessionsDir, Getenv: getenv}, ed, h.exec)
	h.m = newModel(config{path: path, sessions: sessionsDir, style: "dark", noColor: true, now: func() time.Time { return testNow },
		loc: time.UTC, after: noTimer, ed: h.f})
	drive(h.m, resizeCmd(w, ht))
	drive(h.m, openCmd(path, sessionsDir))
	if h.m.c.db == nil {
		t.Fatalf("open %s: %s", path, h.m.st.fileWarning)
	}
	return h
}

// exec runs the editor synchronously in place of tea.ExecProcess.
func (h *editHarness) exec(c *exec.Cmd, cb tea.ExecCallback) tea.Cmd {
	return func() tea.Msg {
		err := c.Run()
		if h.during != nil {
			h.during()
		}
		return cb(err)
	}
}

// sel selects the entry called name.
func (h *editHarness) sel(name string) store.Entry {
	h.t.Helper()
	e, ok := h.m.writer().Memory().Lookup(name)
	if !ok || !h.m.list.SelectID(h.m.c.snap, e.ID) {
		h.t.Fatalf("%s is not listed", name)
	}
	drive(h.m, h.m.showSelected())
	return e
}

// onDisk decodes the memory file as it is now.
func (h *editHarness) onDisk() map[string]store.Entry {
	h.t.Helper()
	data, err := os.ReadFile(h.path)
	if err != nil {
		h.t.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]store.Entry{}
	for _, e := range f.Entries {
		out[e.Name] = e
	}
	return out
}

// status is the transient status message.
func (h *editHarness) status() string { return h.m.st.msg }

// overlay is the open dialog's text.
func (h *editHarness) overlay() string { return h.m.overlay() }

func (h *editHarness) wantStatus(sub string) {
	h.t.Helper()
	if !strings.Contains(h.status(), sub) {
		h.t.Fatalf("status %q, want it to contain %q", h.status(), sub)
	}
}

func (h *editHarness) wantOverlay(subs ...string) {
	h.t.Helper()
	for _, s := range subs {
		if !strings.Contains(squeeze(ansi.Strip(h.overlay())), squeeze(s)) {
			h.t.Fatalf("dialog %q, want it to contain %q", h.overlay(), s)
		}
	}
}

var keptPathRE = regexp.MustCompile(`kept in (\S+\.md)`)

// keptText returns the text of the temp file the status names.
func (h *editHarness) keptText() string {
	h.t.Helper()
	g := keptPathRE.FindStringSubmatch(h.status())
	if g == nil {
		h.t.Fatalf("status names no kept file: %q", h.status())
	}
	data, err := os.ReadFile(g[1])
	if err != nil {
		h.t.Fatal(err)
	}
	return string(data)
}

const appendMine = `sh -c 'printf "Mine.\n" >> "$1"' sh`

func TestEdit_SavesAndUndoes(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	before := h.sel("commit-format")
	h.editor = `sed -i -e 's|<li>commits</li>|<li>commits</li><li>cc</li>|' -e '$a Mine.'`
	press(h.m, "e")
	h.wantStatus("saved commit-format")
	got := h.onDisk()["commit-format"]
	if !strings.HasSuffix(got.Content, "\nMine.") || !slices.Equal(got.Aliases, []string{"commits", "cc", "conventional"}) {
		t.Fatalf("on disk: %+v", got)
	}
	if selectedName(h.m) != "commit-format" || !strings.Contains(plainScreen(h.m), "cc") {
		t.Fatalf("the edited entry is not shown fresh: selected %q", selectedName(h.m))
	}
	press(h.m, "u")
	h.wantStatus("undone: edit commit-format")
	if got := h.onDisk()["commit-format"]; !entriesEqual(got, before) {
		t.Fatalf("after undo %+v, want %+v", got, before)
	}
}

func TestEdit_NoChangesAndFailures(t *testing.T) {
	tests := []struct{ name, editor, status string }{
		{"unchanged", "true", "no changes to commit-format"},
		{"editor fails", `sh -c 'printf "Mine.\n" >> "$1"; exit 2' sh`, "editor failed (exit status 2); your text is kept in"},
		{"meta block broken", `sh -c 'sed -i "s|</div>||" "$1"; printf "Mine.\n" >> "$1"' sh`, "cannot read the edited file back"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
			before, _ := os.ReadFile(h.path)
			h.sel("commit-format")
			h.editor = tt.editor
			press(h.m, "e")
			h.wantStatus(tt.status)
			if tt.name != "unchanged" && !strings.Contains(h.keptText(), "Mine.") {
				t.Fatal("the kept file lost the text")
			}
			if after, _ := os.ReadFile(h.path); string(after) != string(before) {
				t.Fatal("the file changed")
			}
			press(h.m, "u")
			h.wantStatus("nothing to undo")
		})
	}
}

func TestEdit_ConflictChoices(t *testing.T) {
	tests := []struct {
		key   string
		check func(h *editHarness, disk map[string]store.Entry)
	}{
		{"m", func(h *editHarness, disk map[string]store.Entry) {
			h.wantStatus("your version replaces theirs")
			if !strings.HasSuffix(disk["commit-format"].Content, "Mine.") {
				h.t.Fatalf("keep mine: %q", disk["commit-format"].Content)
			}
		}},
		{"t", func(h *editHarness, disk map[string]store.Entry) {
			if disk["commit-format"].Content != "Theirs." || !strings.Contains(h.keptText(), "Mine.") {
				h.t.Fatalf("keep theirs: %q, status %q", disk["commit-format"].Content, h.status())
			}
		}},
		{"esc", func(h *editHarness, disk map[string]store.Entry) {
			if disk["commit-format"].Content != "Theirs." || !strings.Contains(h.keptText(), "Mine.") {
				h.t.Fatalf("esc keeps theirs: %q", disk["commit-format"].Content)
			}
		}},
		{"n", func(h *editHarness, disk map[string]store.Entry) {
			h.wantStatus("saved your text as the new note commit-format-mine")
			mine := disk["commit-format-mine"]
			if disk["commit-format"].Content != "Theirs." || !strings.HasSuffix(mine.Content, "Mine.") || mine.Kind != store.Note {
				h.t.Fatalf("save as new: theirs %q, mine %+v", disk["commit-format"].Content, mine)
			}
			if selectedName(h.m) != "commit-format-mine" {
				h.t.Fatalf("selected %q, want the new note", selectedName(h.m))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
			h.sel("commit-format")
			h.editor = appendMine
			h.during = func() {
				apply(t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}, store.Write{Name: "scratch", Content: "Also theirs."})
			}
			press(h.m, "e")
			h.wantOverlay("commit-format changed on disk while you were editing", "[m] keep mine", "[t] keep theirs", "[n] save mine as a new note")
			press(h.m, "enter", "y", "e") // none of these answers
			h.wantOverlay("changed on disk")
			press(h.m, tt.key)
			if h.overlay() != "" {
				t.Fatalf("dialog still open: %q", h.overlay())
			}
			disk := h.onDisk()
			if disk["scratch"].Content != "Also theirs." {
				t.Fatal("the other writer's unrelated change was lost")
			}
			tt.check(h, disk)
		})
	}
}

func TestEdit_UnrelatedExternalWriteSavesWithoutAsking(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	h.editor = appendMine
	h.during = func() { apply(t, h.path, store.Add{Name: "agent-note", Content: "from the agent"}) }
	press(h.m, "e")
	h.wantStatus("saved commit-format")
	disk := h.onDisk()
	if disk["agent-note"].Content != "from the agent" || !strings.HasSuffix(disk["commit-format"].Content, "Mine.") {
		t.Fatalf("both writes must be kept: %+v / %+v", disk["agent-note"], disk["commit-format"])
	}
}

func TestNewNote_PromptValidatesThenEdits(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.editor = appendMine
	press(h.m, "n")
	h.wantOverlay("new note name")
	for _, bad := range []struct{ name, err string }{{"../x", "invalid name"}, {"scratch", `"scratch" is taken`}, {"", "invalid name"}} {
		typeText(h.m, bad.name)
		press(h.m, "enter")
		h.wantOverlay(bad.err)
		press(h.m, "ctrl+u")
	}
	typeText(h.m, "idea")
	press(h.m, "enter")
	h.wantStatus("created note idea")
	if e := h.onDisk()["idea"]; e.Content != "Mine." || e.Kind != store.Note || e.ID != 29 {
		t.Fatalf("new note: %+v", e)
	}
	if selectedName(h.m) != "idea" {
		t.Fatalf("selected %q, want the new note", selectedName(h.m))
	}
	press(h.m, "u")
	if _, ok := h.onDisk()["idea"]; ok {
		t.Fatal("undo did not remove the new note")
	}
}

func TestNewNote_LeftEmptyOrCancelled(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	before, _ := os.ReadFile(h.path)
	press(h.m, "n")
	typeText(h.m, "idea")
	press(h.m, "enter")
	h.wantStatus("note idea not created: it was left empty")
	press(h.m, "n")
	typeText(h.m, "other")
	press(h.m, "esc")
	h.wantStatus("cancelled")
	if after, _ := os.ReadFile(h.path); string(after) != string(before) {
		t.Fatal("the file changed")
	}
}

func TestRename_PromptAndUndo(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	before := h.sel("scratch")
	press(h.m, "r")
	h.wantOverlay("rename scratch to: scratch")
	press(h.m, "backspace", "backspace")
	typeText(h.m, "-pad")
	press(h.m, "enter")
	h.wantStatus("renamed scratch → scrat-pad")
	disk := h.onDisk()
	if e := disk["scrat-pad"]; e.ID != before.ID || e.CreatedAt != before.CreatedAt || e.Content != before.Content {
		t.Fatalf("renamed entry %+v, want id and content kept from %+v", e, before)
	}
	if selectedName(h.m) != "scrat-pad" {
		t.Fatalf("selection %q did not follow the rename", selectedName(h.m))
	}
	press(h.m, "r", "ctrl+u")
	typeText(h.m, "final-note")
	press(h.m, "enter")
	h.wantOverlay(`"final-note" is taken`)
	press(h.m, "esc", "u")
	if e := h.onDisk()["scratch"]; !entriesEqual(e, before) {
		t.Fatalf("after undo %+v, want %+v", e, before)
	}
}

func TestAliases_PromptPrefilledAndUndo(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	before := h.sel("deploy-steps")
	press(h.m, "a")
	h.wantOverlay("aliases of deploy-steps", "ship, release, rollout")
	press(h.m, "ctrl+u")
	typeText(h.m, " ship ,, deploy, ship")
	press(h.m, "enter")
	h.wantStatus("deploy-steps now has 2 aliases")
	if got := h.onDisk()["deploy-steps"].Aliases; !slices.Equal(got, []string{"ship", "deploy"}) {
		t.Fatalf("aliases %q", got)
	}
	press(h.m, "a", "enter")
	h.wantStatus("no changes")
	press(h.m, "u")
	if e := h.onDisk()["deploy-steps"]; !entriesEqual(e, before) {
		t.Fatalf("after undo %+v, want %+v", e, before)
	}
}

func TestDelete_ConfirmOnlyWithY(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	before := h.sel("scratch")
	press(h.m, "d")
	h.wantOverlay("delete note scratch (9B)?", "[y/n]")
	press(h.m, "d", "enter", "space")
	h.wantOverlay("delete note scratch")
	press(h.m, "n")
	h.wantStatus("cancelled")
	if _, ok := h.onDisk()["scratch"]; !ok {
		t.Fatal("deleted without a y")
	}
	press(h.m, "d", "y")
	h.wantStatus("deleted scratch (9B)")
	if _, ok := h.onDisk()["scratch"]; ok {
		t.Fatal("not deleted")
	}
	press(h.m, "u")
	if e := h.onDisk()["scratch"]; !entriesEqual(e, before) {
		t.Fatalf("undo restored %+v, want %+v exactly", e, before)
	}
}

func TestDelete_ResumePointNamesSessions(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("archive-sess-0004-1767600000000000000")
	press(h.m, "d")
	h.wantOverlay("delete archive archive-sess-0004", "1 session loses its resume point: bob-db")
	press(h.m, "esc")
	h.sel("archive-sess-0002-1767400000000000000") // referenced, but not a resume point
	press(h.m, "d")
	if strings.Contains(h.overlay(), "resume point") {
		t.Fatalf("warning for an archive no session resumes from: %q", h.overlay())
	}
}

func TestDelete_ChangedOnDiskIsNotForced(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("scratch")
	press(h.m, "d")
	apply(t, h.path, store.Write{Name: "scratch", Content: "the agent's new text"})
	press(h.m, "y")
	h.wantStatus("nothing deleted: an entry changed on disk meanwhile")
	if e := h.onDisk()["scratch"]; e.Content != "the agent's new text" {
		t.Fatalf("scratch %+v", e)
	}
}

func TestUndo_ConflictIsReportedNotForced(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	h.editor = appendMine
	press(h.m, "e")
	apply(t, h.path, store.Write{Name: "commit-format", Content: "Theirs."})
	press(h.m, "u")
	h.wantStatus("cannot undo edit commit-format")
	if e := h.onDisk()["commit-format"]; e.Content != "Theirs." {
		t.Fatalf("undo overwrote the other writer: %q", e.Content)
	}
}

// entriesEqual compares every field, aliases as lists.
func entriesEqual(a, b store.Entry) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Kind == b.Kind && a.CreatedAt == b.CreatedAt &&
		a.Content == b.Content && slices.Equal(a.Aliases, b.Aliases)
}

func TestEditorTempFileIsPrivate(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	var mode, dirMode os.FileMode
	var name string
	h.editor = "true"
	h.during = func() {
		matches, _ := filepath.Glob(filepath.Join(h.tempDir, "crmem-edit-*", "*.md")) // beside it: the sum of what crmem wrote (editor.RemoveStale)
		if len(matches) == 1 {
			fi, _ := os.Stat(matches[0])
			di, _ := os.Stat(filepath.Dir(matches[0]))
			mode, dirMode, name = fi.Mode().Perm(), di.Mode().Perm(), filepath.Base(matches[0])
		}
	}
	press(h.m, "e")
	if mode != 0o600 || dirMode != 0o700 || name != "commit-format.md" {
		t.Fatalf("temp file %q mode %v in folder mode %v", name, mode, dirMode)
	}
	if left, _ := filepath.Glob(filepath.Join(h.tempDir, "crmem-edit-*")); len(left) != 0 {
		t.Fatalf("temp files left after an unchanged edit: %v", left)
	}
}

func TestEdit_KeptPathStaysInStatusLine(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	h.editor = `sh -c 'exit 1' sh`
	press(h.m, "e")
	kept := keptPathRE.FindStringSubmatch(h.status())
	if kept == nil {
		t.Fatalf("status %q", h.status())
	}
	drive(h.m, func() tea.Msg { return clearMessageMsg{seq: h.m.st.msgSeq} }) // the message expires
	if !strings.Contains(squeeze(plainScreen(h.m)), squeeze("unsaved text kept in "+kept[1])) {
		t.Fatalf("the kept file is no longer named:\n%s", plainScreen(h.m))
	}
	press(h.m, "space")
	if strings.Contains(plainScreen(h.m), "unsaved text kept in") {
		t.Fatal("the notice outlived the next editing action")
	}
}

func TestEdit_EditorMissing(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	h.editor = "/nonexistent/editor"
	press(h.m, "e")
	h.wantStatus("cannot run the editor")
	if left, _ := filepath.Glob(filepath.Join(h.tempDir, "crmem-edit-*")); len(left) != 0 {
		t.Fatalf("temp files left when the editor never ran: %v", left)
	}
	if strings.Contains(plainScreen(h.m), "unsaved text kept") {
		t.Fatal("a notice about kept text when nothing was edited")
	}
}

func TestEdit_ForkingEditorHint(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("commit-format")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "code"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.editor = filepath.Join(dir, "code") // a GUI editor without -w forks and returns
	h.step = 100 * time.Millisecond       // at once
	press(h.m, "e")
	h.wantStatus("no changes to commit-format — the editor returned at once; a GUI editor needs its wait flag (e.g. EDITOR=\"code -w\")")
	// Item 11: vi quit at once with :q is told plainly, without the hint.
	h.editor = "true"
	press(h.m, "e")
	if h.status() != "no changes to commit-format" {
		t.Fatalf("status %q, want a plain no changes", h.status())
	}
}

// Item 11: an edit that changes Created applies it (undoably); one that
// makes it unparsable keeps the text.
func TestEdit_CreatedChange(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	before := h.sel("commit-format")
	h.editor = `sed -i 's|datetime="[^"]*"|datetime="2025-06-01T10:00:00Z"|'`
	press(h.m, "e")
	h.wantStatus("saved commit-format")
	got := h.onDisk()["commit-format"]
	if got.CreatedAt != 1748772000 || got.ID != before.ID || got.Content != before.Content {
		t.Fatalf("after the edit %+v, want created 1748772000 with id and content kept", got)
	}
	press(h.m, "u")
	if got := h.onDisk()["commit-format"]; !entriesEqual(got, before) {
		t.Fatalf("after undo %+v, want %+v", got, before)
	}
	h.editor = `sed -i 's|datetime="[^"]*"|datetime="last tuesday"|'`
	press(h.m, "e")
	h.wantStatus("does not parse")
	if !strings.Contains(h.keptText(), "last tuesday") {
		t.Fatal("the text with the bad time was not kept")
	}
}

func TestDialogs_AnswersStayVisibleAt80Columns(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	drive(h.m, func() tea.Msg { return tea.WindowSizeMsg{Width: 80, Height: 24} })
	h.sel("archive-sess-0004-1767600000000000000")
	press(h.m, "d")
	last := func() string {
		lines := strings.Split(plainScreen(h.m), "\n")
		return lines[len(lines)-1]
	}
	if l := last(); !strings.HasSuffix(l, "[y/n]") {
		t.Fatalf("delete confirmation at 80 columns: %q", l)
	}
	if s := squeeze(plainScreen(h.m)); !strings.Contains(s, squeeze("delete archive archive-sess-0004-1767600000000000000 (82B)?")) {
		t.Fatalf("the question is cut at 80 columns:\n%s", plainScreen(h.m))
	}
	press(h.m, "esc")
	h.sel("commit-format")
	h.editor = appendMine
	h.during = func() { apply(t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}) }
	press(h.m, "e")
	if l := last(); !strings.Contains(l, "[m] keep mine") || !strings.Contains(l, "[t] keep theirs") || !strings.HasSuffix(l, "[n] save mine as a new note") {
		t.Fatalf("conflict choices at 80 columns: %q", l)
	}
}

func TestNewNote_NameTakenMeanwhile(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.editor = appendMine
	h.during = func() { apply(t, h.path, store.Add{Name: "idea", Content: "the agent's idea"}) }
	press(h.m, "n")
	typeText(h.m, "idea")
	press(h.m, "enter")
	h.wantOverlay("the name idea was taken meanwhile", "[n] save mine as a new note", "[t] keep theirs")
	if strings.Contains(h.overlay(), "[m]") {
		t.Fatalf("a new note must not offer to overwrite the other: %q", h.overlay())
	}
	press(h.m, "m") // not an answer here
	press(h.m, "n")
	h.wantStatus("saved your text as the new note idea-mine")
	disk := h.onDisk()
	if disk["idea"].Content != "the agent's idea" || disk["idea-mine"].Content != "Mine." {
		t.Fatalf("theirs %+v, mine %+v", disk["idea"], disk["idea-mine"])
	}
}

func TestAliases_ChangedOnDiskIsNotOverwritten(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	h.sel("deploy-steps")
	press(h.m, "a", "ctrl+u")
	typeText(h.m, "mine")
	apply(t, h.path, store.SetAliases{Name: "deploy-steps", Aliases: []string{"theirs"}})
	press(h.m, "enter")
	h.wantStatus("not saved: the entry changed on disk meanwhile")
	if got := h.onDisk()["deploy-steps"].Aliases; !slices.Equal(got, []string{"theirs"}) {
		t.Fatalf("aliases %q", got)
	}
}

// Issue 17 item 10: the agent renames or removes the entry being edited.
// The question says so, shows theirs against yours, and keep mine saves
// the text to the same id under its new name, or puts it back.
func TestEdit_ConflictAfterRenameOrRemove(t *testing.T) {
	tests := []struct {
		name, says, savedAs string
		during              []store.Op
		status              string
	}{
		{"renamed", "commit-format was renamed to commit-style while you were editing", "commit-style",
			[]store.Op{store.Rename{Name: "commit-format", New: "commit-style"}, store.Write{Name: "commit-style", Content: "Theirs."}},
			"saved your text in commit-style (renamed from commit-format meanwhile"},
		{"removed", "commit-format was removed while you were editing", "commit-format",
			[]store.Op{store.Remove{Name: "commit-format"}}, "put back with your text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
			orig := h.sel("commit-format")
			h.editor = appendMine
			h.during = func() { apply(t, h.path, tt.during...) }
			press(h.m, "e")
			h.wantOverlay(tt.says, "[m] keep mine")
			screen := plainScreen(h.m)
			if !strings.Contains(screen, "+ Mine.") || !strings.Contains(screen, "your whole text:") {
				t.Errorf("no diff of theirs against yours on screen:\n%s", screen)
			}
			if tt.name == "renamed" && !strings.Contains(screen, "- Theirs.") {
				t.Errorf("their text is not shown:\n%s", screen)
			}
			press(h.m, "m")
			h.wantStatus(tt.status)
			got := h.onDisk()[tt.savedAs]
			if got.ID != orig.ID || !strings.HasSuffix(got.Content, "Mine.") {
				t.Fatalf("%s on disk: %+v, want id %d with my text", tt.savedAs, got, orig.ID)
			}
			if strings.Contains(plainScreen(h.m), "your whole text:") {
				t.Error("the diff stays on screen after the answer")
			}
		})
	}
}
