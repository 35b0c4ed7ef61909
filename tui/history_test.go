package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/store/sessions"
)

// fakeHistory is a hand-made index: the histories by name, the forgotten
// entries, and the summaries derived from them as history.Index does.
type fakeHistory struct {
	hs        map[string]history.History
	forgotten []history.Forgotten
}

func (f *fakeHistory) History(name string) history.History {
	if h, ok := f.hs[name]; ok {
		return h
	}
	return history.History{Name: name}
}

func (f *fakeHistory) Forgotten() []history.Forgotten { return f.forgotten }

func (f *fakeHistory) Summary(name string) history.Summary {
	h := f.History(name)
	s := history.Summary{Versions: len(h.Versions)}
	for _, v := range h.Versions {
		if v.Call != nil && s.First == nil {
			s.First = v.Call
		}
		if v.Current {
			s.Last = v.Call
		}
	}
	return s
}

const (
	deployV1 = "Build the image.\nShip it."
	deployV2 = "Build the image.\nRun migrations.\nShip it."
	deployV3 = "Build the image.\nRun the migrations first.\nShip it."
)

// deployHistory is deploy-steps' story: written by a session, rewritten by
// hand (no session), rewritten by the session again.
func deployHistory() history.History {
	pipeline := func(step string, at time.Duration, from string) *history.Call {
		return &history.Call{Tool: "remember", Session: "2026-deploy", Title: "deploy pipeline", Agent: "crab",
			Step: step, Time: testNow.Add(-at), TimeFrom: from, Result: "remembered: deploy-steps"}
	}
	return history.History{Name: "deploy-steps", Exists: true, Versions: []history.Version{
		{N: 1, Action: history.Write, Name: "deploy-steps", Content: deployV1, Origin: history.FromSession,
			Call: pipeline("step-000003", 72*time.Hour, sessions.TimeEvent)},
		{N: 2, Action: history.Write, Name: "deploy-steps", Content: deployV2, Origin: history.FromMemory},
		{N: 3, Action: history.Write, Name: "deploy-steps", Content: deployV3, Aliases: []string{"ship"},
			Origin: history.FromMemoryAndSession, Call: pipeline("step-000012", 5*time.Hour, sessions.TimeStep), Current: true},
	}}
}

// runbookForgotten is an entry a session removed two hours ago.
func runbookForgotten() (history.History, history.Forgotten) {
	cleanup := &history.Call{Tool: "forget", Session: "2026-cleanup", Title: "cleanup", Time: testNow.Add(-2 * time.Hour), TimeFrom: sessions.TimeEvent}
	last := history.Version{N: 1, Action: history.Write, Name: "old-runbook", Kind: "note", Content: "Runbook v1\nsecond line", Origin: history.FromSession}
	removed := history.Version{N: 2, Action: history.Delete, Name: "old-runbook", Origin: history.FromSession, Call: cleanup}
	h := history.History{Name: "old-runbook", Versions: []history.Version{last, removed}}
	return h, history.Forgotten{Name: "old-runbook", Last: last, Removed: &removed, Versions: 2}
}

// historyHarness opens a memory holding deploy-steps (as version #3) and
// scratch, with the fake index installed and built.
func historyHarness(t *testing.T) (*editHarness, *fakeHistory) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "deploy-steps", Kind: store.Note, Content: deployV3, Aliases: []string{"ship"}, CreatedAt: uint64(testNow.Add(-72 * time.Hour).Unix())},
		{ID: 2, Name: "scratch", Kind: store.Note, Content: "notes", CreatedAt: uint64(testNow.Add(-time.Hour).Unix())},
	})
	h := newEditHarnessIn(t, path, t.TempDir())
	rh, fg := runbookForgotten()
	ix := &fakeHistory{hs: map[string]history.History{"deploy-steps": deployHistory(), "old-runbook": rh},
		forgotten: []history.Forgotten{fg}}
	installHistory(h, ix)
	return h, ix
}

// installHistory makes ix what every build returns, and builds it.
func installHistory(h *editHarness, ix historyIndex) {
	h.m.hist.build = func(store.Source) (historyIndex, error) { return ix, nil }
	drive(h.m, h.m.hist.rebuild(h.m.c.db))
}

// TestHistoryView_OpensOnTheCurrentVersionAndMoves: H opens the selected
// entry's history with its current (last) version selected and its diff
// against the one before; ↑ moves to the version before, whose diff is
// shown, and g to the first, shown whole.
func TestHistoryView_OpensOnTheCurrentVersionAndMoves(t *testing.T) {
	h, _ := historyHarness(t)
	h.sel("deploy-steps")
	press(h.m, "H")
	if h.m.top() != layerHistory {
		t.Fatalf("top %v after H, want the history view", h.m.top())
	}
	screen := plainScreen(h.m)
	for _, want := range []string{"History of deploy-steps", "3 versions", "#3 write ● current", "#2 → #3",
		"- Run migrations.", "+ Run the migrations first.", "  Build the image.", "step-000012", "(step file time)",
		"5h ago (step file) · «deplo…", "unknown source"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	changed := false // textdiff's changed words, in reverse
	for _, l := range strings.Split(h.m.screen(), "\n") {
		if strings.Contains(ansi.Strip(l), "+ Run the migrations first.") && strings.Contains(l, "\x1b[7m") {
			changed = true
		}
	}
	if !changed {
		t.Errorf("the words changed in %q are not set apart:\n%q", "Run the migrations first.", h.m.screen())
	}
	press(h.m, "up")
	screen = plainScreen(h.m)
	for _, want := range []string{"#1 → #2", "+ Run migrations.", "unknown source: the entry as memory holds it"} {
		if !strings.Contains(screen, want) {
			t.Errorf("after ↑, screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "- Run migrations.") {
		t.Errorf("after ↑, the diff of #2 → #3 is still shown:\n%s", screen)
	}
	press(h.m, "g")
	screen = plainScreen(h.m)
	if !strings.Contains(screen, "#1 · write · its whole content") || !strings.Contains(screen, "+ Ship it.") {
		t.Errorf("the first version is not shown whole:\n%s", screen)
	}
	press(h.m, "esc")
	if h.m.top() != layerPanes {
		t.Fatalf("top %v after esc, want the list", h.m.top())
	}
}

// TestHistoryView_RestoreConfirmsWritesAndUndoes: enter on an older
// version asks first; n writes nothing; y writes it through the one
// write path and says so; u undoes it exactly.
func TestHistoryView_RestoreConfirmsWritesAndUndoes(t *testing.T) {
	h, _ := historyHarness(t)
	before := h.sel("deploy-steps")
	press(h.m, "H", "up", "up", "enter")
	h.wantOverlay("restore deploy-steps to version #1 (write)?", "[y/n]")
	press(h.m, "n")
	if got := h.onDisk()["deploy-steps"]; !entriesEqual(got, before) {
		t.Fatalf("n wrote %+v", got)
	}
	press(h.m, "r")
	h.wantOverlay("version #1")
	press(h.m, "y")
	h.wantStatus("restored deploy-steps to version #1")
	got := h.onDisk()["deploy-steps"]
	if got.Content != deployV1 || len(got.Aliases) != 0 || got.ID != before.ID {
		t.Fatalf("after the restore %+v, want version #1's content and aliases under the same id", got)
	}
	if h.m.top() != layerHistory {
		t.Fatalf("top %v after the restore, want the history view still", h.m.top())
	}
	press(h.m, "u")
	h.wantStatus("undone: restore deploy-steps to #1")
	if got := h.onDisk()["deploy-steps"]; !entriesEqual(got, before) {
		t.Fatalf("after undo %+v, want %+v", got, before)
	}
}

// TestHistoryView_CurrentVersionWritesNothing: restoring the current
// version, or one memory holds as it is, says so and asks nothing.
func TestHistoryView_CurrentVersionWritesNothing(t *testing.T) {
	h, ix := historyHarness(t)
	h.sel("deploy-steps")
	press(h.m, "H", "enter")
	if h.m.ed.Dialog() != nil {
		t.Fatalf("a dialog for the current version: %q", h.overlay())
	}
	h.wantStatus("deploy-steps: version #3 is already current; nothing written")
	hs := ix.hs["deploy-steps"]
	hs.Versions = append(hs.Versions, history.Version{N: 4, Action: history.Write, Content: "other", Origin: history.FromSession})
	hs.Versions[2].Current = false // #3 is what memory holds, yet not marked current
	installHistory(h, &fakeHistory{hs: map[string]history.History{"deploy-steps": hs}})
	press(h.m, "H", "H", "up", "r")
	if h.m.ed.Dialog() != nil {
		t.Fatalf("a dialog for the version memory holds: %q", h.overlay())
	}
	h.wantStatus("version #3 is what memory holds now")
}

// TestHistoryView_ReadOnlyRefuses: on a store crmem cannot write the
// view opens and moves, says read-only in its keys, and a restore or an
// undo is refused with the read-only message, nothing asked.
func TestHistoryView_ReadOnlyRefuses(t *testing.T) {
	h := newEditHarnessIn(t, copyStore(t, "torn.crmem"), t.TempDir())
	e, ok := h.m.list.SelectedEntry(h.m.c.snap)
	if !ok {
		t.Fatal("nothing selected")
	}
	hs := deployHistory()
	hs.Name = e.Name
	installHistory(h, &fakeHistory{hs: map[string]history.History{e.Name: hs}})
	press(h.m, "H")
	if h.m.top() != layerHistory || !strings.Contains(plainOverlay(h.m), "read-only") || strings.Contains(plainOverlay(h.m), "restore") {
		t.Fatalf("top %v, keys %q: want the view, read-only, no restore", h.m.top(), plainOverlay(h.m))
	}
	for _, k := range []string{"up", "enter", "r", "u"} {
		h.m.st.msg = ""
		press(h.m, k)
		if k != "up" && h.m.st.msg != h.m.readOnlyMessage() {
			t.Errorf("%s: status %q, want %q", k, h.m.st.msg, h.m.readOnlyMessage())
		}
		if h.m.ed.Dialog() != nil {
			t.Fatalf("%s asked %q on a read-only memory", k, h.overlay())
		}
	}
}

// TestHistoryView_FollowsRebuilds: a new index (a reload, a write) is
// read into the open view, the version selected kept by its number; a
// build under way when the memory changes is followed by another.
func TestHistoryView_FollowsRebuilds(t *testing.T) {
	h, ix := historyHarness(t)
	h.sel("deploy-steps")
	press(h.m, "H", "up") // #2
	hs := ix.hs["deploy-steps"]
	hs.Versions = append(hs.Versions, history.Version{N: 4, Action: history.Write, Name: "deploy-steps", Content: "agent's", Origin: history.FromSession, Current: true})
	hs.Versions[2].Current = false
	installHistory(h, &fakeHistory{hs: map[string]history.History{"deploy-steps": hs}})
	if v, _ := h.m.hv.Selected(); v.N != 2 {
		t.Fatalf("selected #%d after the rebuild, want #2 kept", v.N)
	}
	if screen := plainScreen(h.m); !strings.Contains(screen, "4 versions") || !strings.Contains(screen, "#4 write ● current") {
		t.Fatalf("the view did not follow the new index:\n%s", screen)
	}
	builds := 0
	h.m.hist.build = func(store.Source) (historyIndex, error) { builds++; return ix, nil }
	first := h.m.hist.rebuild(h.m.c.db)
	if h.m.hist.rebuild(h.m.c.db) != nil || !h.m.hist.again {
		t.Fatal("a second build started beside the one under way")
	}
	drive(h.m, first)
	if builds != 2 || h.m.hist.building {
		t.Fatalf("%d builds, building %v: want the one asked meanwhile run after the first", builds, h.m.hist.building)
	}
}

// TestHistoryView_FitsAt80x24: at the screen size every row is
// 80 cells, the versions column 30 cells with the separator in one
// column, and a long name is cut with "…".
func TestHistoryView_FitsAt80x24(t *testing.T) {
	h, ix := historyHarness(t)
	long := strings.Repeat("a-very-long-entry-name-", 6)
	hs := deployHistory()
	hs.Name = long
	hs.Versions[1].Action, hs.Versions[1].From = history.RenameIn, long+"-old"
	ix.hs[long] = hs
	apply(t, h.path, store.Rename{Name: "deploy-steps", New: long})
	reload(h.m)
	drive(h.m, resizeCmd(80, 24))
	h.sel(long)
	press(h.m, "H", "up")
	rows := strings.Split(plainScreen(h.m), "\n")
	if len(rows) != 24 {
		t.Fatalf("%d rows, want 24", len(rows))
	}
	seps := 0
	for i, r := range rows {
		if w := ansi.StringWidth(r); w > 80 {
			t.Errorf("row %d is %d cells: %q", i, w, r)
		}
		if ansi.StringWidth(r) > 31 && ansi.Cut(r, 30, 31) == "│" {
			seps++
		}
	}
	if seps < 10 {
		t.Errorf("the separator is in column 31 on %d rows:\n%s", seps, strings.Join(rows, "\n"))
	}
	screen := strings.Join(rows, "\n")
	if !strings.Contains(screen, "#2 rename from a-very-long-en…") || !regexp.MustCompile(`History of a-very-long-entry-name-.*…`).MatchString(screen) {
		t.Errorf("long names not cut with …:\n%s", screen)
	}
}

// TestCard_ProvenanceLine: the card says who first remembered the entry,
// when, how many versions it has and whether the current one's source
// is known; nothing before the index is built, nothing for an entry
// with no story.
func TestCard_ProvenanceLine(t *testing.T) {
	call := &history.Call{Title: "deploy pipeline", Session: "2026-deploy", Time: testNow.Add(-72 * time.Hour)}
	for _, tt := range []struct {
		sum  history.Summary
		want string
	}{
		{history.Summary{Versions: 4, First: call, Last: call}, "remembered by session «deploy pipeline», 3d ago · 4 versions"},
		{history.Summary{Versions: 1, First: call, Last: call}, "remembered by session «deploy pipeline», 3d ago"},
		{history.Summary{Versions: 3, First: call}, "remembered by session «deploy pipeline», 3d ago · 3 versions · current version: unknown source"},
		{history.Summary{Versions: 2, First: &history.Call{Session: "2026-\x1b[2Jx"}, Last: call}, "remembered by session 2026-⟨U+001B⟩[2Jx · 2 versions"},
		{history.Summary{Versions: 2}, "2 versions · current version: unknown source"},
		{history.Summary{Versions: 1}, ""}, // the entry itself, as history.Build gives every entry of a memory without sessions
		{history.Summary{}, ""},
	} {
		if got := provenance(tt.sum, testNow); got != tt.want {
			t.Errorf("provenance(%+v) = %q, want %q", tt.sum, got, tt.want)
		}
	}

	h, _ := historyHarness(t)
	h.sel("deploy-steps")
	const line = "remembered by session «deploy pipeline», 3d ago · 3 versions"
	if screen := plainScreen(h.m); !strings.Contains(screen, line) {
		t.Fatalf("the card lacks %q:\n%s", line, screen)
	}
	h.sel("scratch")
	if screen := plainScreen(h.m); strings.Contains(screen, "remembered by") || strings.Contains(screen, "version") {
		t.Fatalf("the card of an entry with no story says one:\n%s", screen)
	}
	h.m.hist = historyState{building: true} // a memory just opened, its index being read
	h.sel("deploy-steps")
	if screen := plainScreen(h.m); strings.Contains(screen, "remembered by") {
		t.Fatalf("the card has a provenance line before the index is built:\n%s", screen)
	}
}

// TestForgotten_ListOpenAndRestore: F lists the forgotten entries with
// when and by whom each was removed and its first line; enter opens its
// history above the list (esc returns to the list); r asks, y brings it
// back, u removes it again.
func TestForgotten_ListOpenAndRestore(t *testing.T) {
	h, _ := historyHarness(t)
	press(h.m, "F")
	if h.m.top() != layerForgotten {
		t.Fatalf("top %v after F, want the forgotten list", h.m.top())
	}
	screen := plainScreen(h.m)
	for _, want := range []string{"Forgotten entries", "old-runbook · removed 2h ago by session «cleanup» · 2 versions", "  Runbook v1"} {
		if !strings.Contains(screen, want) {
			t.Errorf("list lacks %q:\n%s", want, screen)
		}
	}
	press(h.m, "enter")
	if h.m.top() != layerHistory || !strings.Contains(plainScreen(h.m), "not in memory now") {
		t.Fatalf("enter: top %v, screen:\n%s", h.m.top(), plainScreen(h.m))
	}
	if v, _ := h.m.hv.Selected(); v.N != 1 { // the delete after it brings nothing back
		t.Fatalf("the history of a forgotten entry opens on #%d, want its last content, #1", v.N)
	}
	press(h.m, "enter")
	h.wantOverlay("bring old-runbook back as version #1 held it (write)?")
	press(h.m, "y")
	h.wantStatus("restored old-runbook to version #1")
	if got, ok := h.onDisk()["old-runbook"]; !ok || got.Content != "Runbook v1\nsecond line" {
		t.Fatalf("old-runbook after the restore: %+v, %v", got, ok)
	}
	press(h.m, "esc")
	if h.m.top() != layerForgotten {
		t.Fatalf("top %v after esc from its history, want the list again", h.m.top())
	}
	press(h.m, "u")
	if _, ok := h.onDisk()["old-runbook"]; ok {
		t.Fatal("undo left old-runbook in memory")
	}
	press(h.m, "r", "y")
	h.wantStatus("restored old-runbook to version #1")
	press(h.m, "esc")
	if h.m.top() != layerPanes || selectedName(h.m) != "old-runbook" {
		t.Fatalf("top %v, selected %q: want the list on the entry brought back", h.m.top(), selectedName(h.m))
	}
}

// TestHistory_KeysAreNamedInTheHelp: the view's and the list's keys are
// named in the help line as configured.
func TestHistory_KeysAreNamedInTheHelp(t *testing.T) {
	h, _ := historyHarness(t)
	h.sel("deploy-steps")
	press(h.m, "H")
	if got := plainOverlay(h.m); !strings.Contains(got, "enter/r restore") || !strings.Contains(got, "u undo") || !strings.Contains(got, "esc/q back") {
		t.Errorf("history keys %q", got)
	}
	press(h.m, "esc", "F")
	if got := plainOverlay(h.m); !strings.Contains(got, "enter history") || !strings.Contains(got, "r restore") {
		t.Errorf("forgotten keys %q", got)
	}
}

// memCall is one remember (content set) or forget call for writeMemSession.
type memCall struct {
	name, content string
	aliases       []string
	forget        bool
	at            time.Time
}

// writeMemSession writes a session folder of crabtalk's released builds
// (testdata/recalls/README.md's shapes) into dir: its meta, and for each
// call the assistant's tool_use, the tool_start event and the tool's
// result ("remembered: NAME", "forgot: NAME").
func writeMemSession(t *testing.T, dir, slug, title string, calls []memCall) {
	t.Helper()
	folder := filepath.Join(dir, slug)
	if err := os.MkdirAll(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name string, v any) {
		t.Helper()
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(folder, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stamp := func(at time.Time) string { return at.UTC().Format("2006-01-02T15:04:05.000+00:00") }
	write("meta", map[string]any{"agent": "crab", "created_by": "alice", "created_at": stamp(calls[0].at), "title": title,
		"updated_at": stamp(calls[len(calls)-1].at), "message_count": 3 * len(calls)})
	step := 0
	next := func() string { step++; return fmt.Sprintf("step-%06d", step-1) }
	for i, c := range calls {
		id := fmt.Sprintf("toolu_%s_%d", slug, i)
		tool, input, result := "remember", map[string]any{"name": c.name, "content": c.content, "aliases": c.aliases}, "remembered: "+c.name
		if c.aliases == nil {
			input["aliases"] = []string{}
		}
		if c.forget {
			tool, input, result = "forget", map[string]any{"name": c.name}, "forgot: "+c.name
		}
		args, _ := json.Marshal(input)
		write(next(), map[string]any{"message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": id, "name": tool, "input": input}}}})
		write(next(), map[string]any{"event": "tool_start", "calls": []any{map[string]any{"id": id, "name": tool, "arguments": string(args)}}, "ts": stamp(c.at)})
		write(next(), map[string]any{"message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "name": tool, "content": result}}}})
	}
}

// storyMemory writes a v1 memory whose deploy-steps is the last of three
// versions two sessions wrote, beside a sessions folder that also
// remembers and then forgets old-runbook; it returns the file's path.
func storyMemory(t *testing.T, now time.Time) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "deploy-steps", Kind: store.Note, Content: deployV3, Aliases: []string{"ship"}, CreatedAt: uint64(now.Add(-72 * time.Hour).Unix())},
		{ID: 2, Name: "scratch", Kind: store.Note, Content: "notes", CreatedAt: uint64(now.Add(-time.Hour).Unix())},
	})
	sess := filepath.Join(dir, "sessions")
	writeMemSession(t, sess, "crab_alice_1", "deploy pipeline", []memCall{
		{name: "deploy-steps", content: deployV1, at: now.Add(-72 * time.Hour)},
		{name: "old-runbook", content: "Runbook v1\nsecond line", at: now.Add(-71 * time.Hour)},
		{name: "deploy-steps", content: deployV2, at: now.Add(-48 * time.Hour)},
	})
	writeMemSession(t, sess, "crab_alice_2", "hotfix", []memCall{
		{name: "deploy-steps", content: deployV3, aliases: []string{"ship"}, at: now.Add(-5 * time.Hour)},
		{name: "old-runbook", forget: true, at: now.Add(-2 * time.Hour)},
	})
	return path
}

// TestHistory_RealIndexOfAV1Memory: the index history.Build reads from a
// v1 memory and its sessions drives the card, the view and the forgotten
// list: every version attributed to its session, the restore written and
// undone.
func TestHistory_RealIndexOfAV1Memory(t *testing.T) {
	path := storyMemory(t, testNow)
	h := newEditHarnessIn(t, path, filepath.Join(filepath.Dir(path), "sessions"))
	h.sel("deploy-steps")
	if screen := plainScreen(h.m); !strings.Contains(screen, "remembered by session «deploy pipeline», 3d ago · 3 versions") {
		t.Fatalf("card:\n%s", screen)
	}
	press(h.m, "H")
	screen := plainScreen(h.m)
	for _, want := range []string{"#1 write", "3d ago · «deploy pipeline»", "#3 write ● current", "5h ago · «hotfix»", "#2 → #3"} {
		if !strings.Contains(screen, want) {
			t.Errorf("view lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "sessions only") { // a v1 file keeps no log: every version before is
		t.Errorf("versions of a v1 memory marked as known from the sessions only:\n%s", screen)
	}
	press(h.m, "g")
	if screen := plainScreen(h.m); !strings.Contains(screen, "known from the sessions only: a v1 memory file keeps no history") {
		t.Errorf("the first version's header does not say where it is known from:\n%s", screen)
	}
	press(h.m, "r", "y")
	h.wantStatus("restored deploy-steps to version #1")
	if got := h.onDisk()["deploy-steps"]; got.Content != deployV1 {
		t.Fatalf("after the restore: %q", got.Content)
	}
	if screen := plainScreen(h.m); !strings.Contains(screen, "4 versions") || !strings.Contains(screen, "#4 write ● current") {
		t.Errorf("the view did not follow the write:\n%s", screen)
	}
	press(h.m, "u", "esc")
	h.wantStatus("undone: restore deploy-steps to #1")
	h.sel("scratch") // in memory, in no session
	if screen := plainScreen(h.m); strings.Contains(screen, "unknown source") || strings.Contains(screen, "version") {
		t.Errorf("the card of an entry no session wrote says a story:\n%s", screen)
	}
	press(h.m, "F")
	if screen := plainScreen(h.m); !strings.Contains(screen, "old-runbook · removed 2h ago by session «hotfix» · 2 versions") {
		t.Fatalf("forgotten list:\n%s", screen)
	}
}

// TestHistoryView_ScrollsALongDiff: a diff longer than its column says
// which lines it shows and the keys that scroll it; pgdn brings the
// last hunk into sight; another version starts at its top.
func TestHistoryView_ScrollsALongDiff(t *testing.T) {
	h, ix := historyHarness(t)
	drive(h.m, resizeCmd(80, 24))
	var a, b []string
	for i := range 60 {
		a = append(a, fmt.Sprintf("step %d of the long runbook", i+1))
	}
	b = slices.Clone(a)
	b[4], b[29], b[54] = "step 5 rewritten", "step 30 rewritten", "step 55 rewritten"
	hs := deployHistory()
	hs.Versions[1].Content, hs.Versions[2].Content = strings.Join(a, "\n"), strings.Join(b, "\n")
	ix.hs["deploy-steps"] = hs
	installHistory(h, &fakeHistory{hs: ix.hs})
	h.sel("deploy-steps")
	press(h.m, "H")
	screen := plainScreen(h.m)
	if !strings.Contains(screen, "@@ -2,7 +2,7 @@") || strings.Contains(screen, "@@ -52,7 +52,7 @@") || !regexp.MustCompile(`lines 1–\d+/27 \(pgdn/pgup\)`).MatchString(screen) {
		t.Fatalf("the first window of the diff:\n%s", screen)
	}
	press(h.m, "pgdown")
	screen = plainScreen(h.m)
	if !strings.Contains(screen, "@@ -52,7 +52,7 @@") || !strings.Contains(screen, "+ step 55 rewritten") {
		t.Fatalf("pgdn did not bring the last hunk into sight:\n%s", screen)
	}
	press(h.m, "up", "down")
	if screen := plainScreen(h.m); !regexp.MustCompile(`lines 1–\d+/27`).MatchString(screen) {
		t.Fatalf("another version did not start at its top:\n%s", screen)
	}
}

// TestHistory_CrabtalkStore: on crabtalk's store as its own code wrote it
// (crabdb-writes: upserts, renames, removes), the history follows a
// rename, names each version's log record, says "unknown source" where
// no session wrote it; a forgotten entry and an older version are
// restored through the store's writer and undone.
func TestHistory_CrabtalkStore(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "crabdb-writes", "after.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "store.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	h := newEditHarnessIn(t, path, t.TempDir())
	h.sel("kubernetes upgrade notes")
	press(h.m, "H")
	screen := plainScreen(h.m)
	for _, want := range []string{"History of kubernetes upgrade notes  2 versions", "#1 write as k8s-upgrade", "#2 rename from k8s-… ● current", "content unchanged (1 line)",
		"unknown source: no session's call wrote it", "log record 41 at byte 127,600"} {
		if !strings.Contains(screen, want) {
			t.Errorf("history lacks %q:\n%s", want, screen)
		}
	}
	press(h.m, "esc")
	h.sel("oncall-rota")
	press(h.m, "H", "up", "r", "y")
	h.wantStatus("restored oncall-rota to version #1")
	if got := storeEntries(t, path)["oncall-rota"]; !strings.Contains(got, "Monday at 10:00. Hand over") {
		t.Fatalf("the store after the restore: %s", got)
	}
	press(h.m, "u")
	h.wantStatus("undone: restore oncall-rota to #1")
	if got := storeEntries(t, path)["oncall-rota"]; !strings.Contains(got, "09:00 (was 10:00)") {
		t.Fatalf("the store after the undo: %s", got)
	}
	press(h.m, "esc", "F")
	if screen := plainScreen(h.m); !strings.Contains(screen, "final-note · removed · unknown source") {
		t.Fatalf("forgotten list:\n%s", screen)
	}
	for h.m.fg.Cursor() < len(h.m.fg.Entries()) && h.m.fg.Entries()[h.m.fg.Cursor()].Name != "final-note" {
		press(h.m, "down")
	}
	press(h.m, "r", "y")
	h.wantStatus("restored final-note to version #")
	if _, ok := storeEntries(t, path)["final-note"]; !ok {
		t.Fatal("final-note not brought back to the store")
	}
	press(h.m, "u")
	if _, ok := storeEntries(t, path)["final-note"]; ok {
		t.Fatal("undo left final-note in the store")
	}
}

// TestHistoryView_ReadOnlyWhileCrabtalkRuns: on a store crmem could
// write, a running daemon makes a restore refuse with the read-only
// message, and nothing is written.
func TestHistoryView_ReadOnlyWhileCrabtalkRuns(t *testing.T) {
	path := copyStore(t, "small.crmem")
	before, _ := os.ReadFile(path)
	h := newEditHarnessIn(t, path, t.TempDir())
	e, _ := h.m.list.SelectedEntry(h.m.c.snap)
	hs := deployHistory()
	hs.Name = e.Name
	installHistory(h, &fakeHistory{hs: map[string]history.History{e.Name: hs}})
	h.m.st.daemon, h.m.st.daemonWhy = true, "crabtalkd (pid 4242) has the store open for writing"
	press(h.m, "H", "up", "r")
	if h.m.ed.Dialog() != nil || !strings.Contains(h.status(), "read-only while crabtalk runs: crabtalkd (pid 4242)") {
		t.Fatalf("dialog %v, status %q: want the read-only message and no question", h.m.ed.Dialog() != nil, h.status())
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the store changed")
	}
}

// countingHistory counts the calls made of the index it wraps.
type countingHistory struct {
	historyIndex
	calls int
}

func (c *countingHistory) History(name string) history.History {
	c.calls++
	return c.historyIndex.History(name)
}

func (c *countingHistory) Forgotten() []history.Forgotten {
	c.calls++
	return c.historyIndex.Forgotten()
}

func (c *countingHistory) Summary(name string) history.Summary {
	c.calls++
	return c.historyIndex.Summary(name)
}

// TestHistory_NothingAsksTheIndexOnTheLoop: on a store with a long log one
// entry's history takes seconds to put together (1M records: more than
// 2 s an entry), so the card's summary, the view's history and the
// forgotten list are read in commands, never in Update: a key handled
// calls the index not once; the commands it returns do, and their
// results fill the screen in.
func TestHistory_NothingAsksTheIndexOnTheLoop(t *testing.T) {
	h, ix := historyHarness(t)
	c := &countingHistory{historyIndex: ix}
	installHistory(h, c)
	for _, k := range []string{"j", "k", "H", "up", "esc", "F", "enter", "esc", "esc"} {
		c.calls = 0
		_, cmd := h.m.Update(keyMsg(k))
		if c.calls != 0 {
			t.Fatalf("%s: %d calls of the index in Update", k, c.calls)
		}
		drive(h.m, cmd)
	}
	h.sel("scratch")
	h.sel("deploy-steps")
	if screen := plainScreen(h.m); !strings.Contains(screen, "remembered by session «deploy pipeline», 3d ago · 3 versions") {
		t.Fatalf("the card once its summary is read:\n%s", screen)
	}
}

// TestHistory_SummariesOneAtATime: while one summary is read, moving on
// asks for none but the last entry passed, read next.
func TestHistory_SummariesOneAtATime(t *testing.T) {
	h, _ := historyHarness(t)
	s := &h.m.hist
	s.sums = map[string]history.Summary{}
	first := s.wantSummary("a")
	for _, n := range []string{"b", "c", "d"} {
		if s.wantSummary(n) != nil {
			t.Fatalf("%s read beside a", n)
		}
	}
	msg := first().(summaryMsg)
	_, next := h.m.Update(msg)
	if s.sumAsk != "d" || next == nil {
		t.Fatalf("reading %q after a, want d alone", s.sumAsk)
	}
}

// TestHistory_SlowBuildsCoolDown: after a build that took a second, the
// next waits four seconds from its end (one timer, however many changes
// meanwhile), then runs; after a quick one the next runs at once.
func TestHistory_SlowBuildsCoolDown(t *testing.T) {
	h, ix := historyHarness(t)
	var waits []time.Duration
	h.m.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		waits = append(waits, d)
		return func() tea.Msg { return msg }
	}
	builds := 0
	h.m.hist.build = func(store.Source) (historyIndex, error) { builds++; return ix, nil }
	s := &h.m.hist
	s.took, s.doneAt = time.Second, time.Now()
	first := h.m.rebuildHistory()
	if h.m.rebuildHistory() != nil || builds != 0 || s.building || len(waits) != 1 || waits[0] < 3*time.Second || waits[0] > 4*time.Second {
		t.Fatalf("after a 1 s build: waits %v, %d builds, building %v: want one wait of about 4 s, no build", waits, builds, s.building)
	}
	s.doneAt = time.Now().Add(-5 * time.Second) // the cooldown is over when the timer fires
	drive(h.m, first)
	if builds != 1 || s.deferred {
		t.Fatalf("%d builds once the cooldown ended, deferred %v", builds, s.deferred)
	}
	if s.took >= historySlow { // the fake build was quick
		t.Fatalf("a quick build measured %v", s.took)
	}
	drive(h.m, h.m.rebuildHistory())
	if builds != 2 || len(waits) != 1 {
		t.Fatalf("after a quick build: %d builds, waits %v: want it at once", builds, waits)
	}
}

// TestHistoryViews_FitEverySize: the history view and the forgotten list
// fill exactly the screen at every size from 12×6 up, no row wider.
func TestHistoryViews_FitEverySize(t *testing.T) {
	h, _ := historyHarness(t)
	h.sel("deploy-steps")
	for _, open := range []string{"H", "F"} {
		press(h.m, open)
		for _, w := range []int{12, 20, 33, 47, 80, 121} {
			for _, ht := range []int{1, 2, 6, 9, 24} {
				drive(h.m, resizeCmd(w, ht))
				rows := strings.Split(plainScreen(h.m), "\n")
				if len(rows) != ht {
					t.Errorf("%s at %d×%d: %d rows", open, w, ht, len(rows))
				}
				for i, r := range rows {
					if n := ansi.StringWidth(r); n > w {
						t.Errorf("%s at %d×%d: row %d is %d cells: %q", open, w, ht, i, n, r)
					}
				}
			}
		}
		press(h.m, "esc")
		drive(h.m, resizeCmd(120, 40))
	}
}

// TestHistoryView_Wheel: the wheel over the versions picks another, over
// the diff scrolls it; nothing behind the view moves.
func TestHistoryView_Wheel(t *testing.T) {
	h, _ := historyHarness(t)
	h.sel("deploy-steps")
	press(h.m, "H")
	wheel := func(x int, b tea.MouseButton) {
		drive(h.m, func() tea.Msg { return tea.MouseWheelMsg{X: x, Y: 5, Button: b} })
	}
	wheel(5, tea.MouseWheelUp)
	if v, _ := h.m.hv.Selected(); v.N != 2 || selectedName(h.m) != "deploy-steps" {
		t.Fatalf("the wheel over the versions: #%d selected, list on %q", v.N, selectedName(h.m))
	}
	wheel(60, tea.MouseWheelDown)
	if v, _ := h.m.hv.Selected(); v.N != 2 || h.m.hv.DiffTop() != 3 {
		t.Fatalf("the wheel over the diff: #%d selected, diff at %d", v.N, h.m.hv.DiffTop())
	}
}

// TestPackParts: the card's provenance breaks between its parts, never
// leaving a word of one alone on a line.
func TestPackParts(t *testing.T) {
	parts := []string{"remembered by session «deploy pipeline», 4w ago", "4 versions", "current version: unknown source"}
	for _, tt := range []struct {
		w    int
		want []string
	}{
		{200, []string{strings.Join(parts, " · ")}},
		{55, []string{parts[0], "· 4 versions · current version: unknown source"}},
		{40, []string{"remembered by session «deploy pipeline»,", "4w ago · 4 versions", "· current version: unknown source"}},
	} {
		if got := packParts(parts, " · ", tt.w); !slices.Equal(got, tt.want) {
			t.Errorf("at %d: %q, want %q", tt.w, got, tt.want)
		}
	}
}

// TestHistory_BuiltOnceTheSearchIndexIs: a memory opened before its
// search index was built has its history built when the index is, once.
func TestHistory_BuiltOnceTheSearchIndexIs(t *testing.T) {
	h, ix := historyHarness(t)
	builds := 0
	h.m.hist = historyState{build: func(store.Source) (historyIndex, error) { builds++; return ix, nil }, restore: history.RestoreOps}
	drive(h.m, h.m.indexDone())
	drive(h.m, h.m.indexDone())
	if builds != 1 || h.m.hist.ix == nil {
		t.Fatalf("%d builds once the search index is ready, index %v", builds, h.m.hist.ix)
	}
}

// TestHistory_SlowRebuildLetsTheOldIndexGo: the build after a slow one
// drops the index it replaces before it starts (two of a long log do not
// fit in memory together), while the card keeps its line and the open
// view what it shows; the new index is read once built.
func TestHistory_SlowRebuildLetsTheOldIndexGo(t *testing.T) {
	h, ix := historyHarness(t)
	h.sel("deploy-steps")
	press(h.m, "H")
	s := &h.m.hist
	s.took, s.doneAt = time.Second, time.Now().Add(-time.Hour)
	gen := s.gen
	build := h.m.rebuildHistory()
	if build == nil || s.ix != nil || !s.building {
		t.Fatalf("the slow rebuild: cmd %v, index %v, building %v: want the old index dropped as it starts", build != nil, s.ix, s.building)
	}
	press(h.m, "esc")
	if screen := plainScreen(h.m); !strings.Contains(screen, "remembered by session «deploy pipeline», 3d ago · 3 versions") {
		t.Fatalf("the card lost its line during the rebuild:\n%s", screen)
	}
	press(h.m, "H")
	if screen := plainScreen(h.m); !strings.Contains(screen, "reading the history…") {
		t.Fatalf("the view opened during the rebuild:\n%s", screen)
	}
	drive(h.m, build)
	if s.ix != ix || s.gen != gen+1 {
		t.Fatalf("after the build: index %v, generation %d (was %d)", s.ix, s.gen, gen)
	}
	if screen := plainScreen(h.m); !strings.Contains(screen, "#3 write ● current") {
		t.Fatalf("the view did not fill in once the index was built:\n%s", screen)
	}
}

// TestHistoryView_SeparatorStaysAsTheTerminalDraws: on a terminal that
// draws per code point (tmux; before the mode 2027 answer), versions and
// diff lines holding clusters it draws wider keep the separator in
// column 31 and every row 80 cells, as it measures them.
func TestHistoryView_SeparatorStaysAsTheTerminalDraws(t *testing.T) {
	h, ix := historyHarness(t)
	drive(h.m, resizeCmd(80, 24))
	hs := deployHistory()
	for i := range hs.Versions {
		hs.Versions[i].Content = strings.Join(widerPerCodePoint, "\n") + fmt.Sprintf("\nversion %d", i)
	}
	hs.Versions[1].Action, hs.Versions[1].From = history.RenameIn, widerPerCodePoint[0]
	hs.Versions[0].Name = widerPerCodePoint[0]
	ix.hs["deploy-steps"] = hs
	installHistory(h, &fakeHistory{hs: ix.hs})
	h.sel("deploy-steps")
	press(h.m, "H", "up")
	if h.m.c.cells != ansi.WcWidth {
		t.Fatalf("measure %v, want per code point", h.m.c.cells)
	}
	rows := strings.Split(ansi.Strip(h.m.screen()), "\n")
	for i, r := range rows[2:22] { // the body below the view's title
		if w := ansi.WcWidth.StringWidth(r); w != 80 {
			t.Errorf("row %d is %d cells per code point: %q", i+2, w, r)
		}
		left, _, ok := strings.Cut(r, "│")
		if w := ansi.WcWidth.StringWidth(left); !ok || w != 30 {
			t.Errorf("row %d: the separator after %d cells per code point: %q", i+2, w, r)
		}
	}
}

// TestHistoryView_ManyVersions: an entry rewritten thousands of times
// opens on its last version with the ones before it in sight, and g
// shows the first.
func TestHistoryView_ManyVersions(t *testing.T) {
	h, ix := historyHarness(t)
	drive(h.m, resizeCmd(80, 24))
	hs := history.History{Name: "deploy-steps", Exists: true}
	for i := range 5000 {
		hs.Versions = append(hs.Versions, history.Version{N: i + 1, Action: history.Write, Name: "deploy-steps", Content: fmt.Sprint("v", i+1), Origin: history.FromLog, Current: i == 4999})
	}
	ix.hs["deploy-steps"] = hs
	installHistory(h, &fakeHistory{hs: ix.hs})
	h.sel("deploy-steps")
	press(h.m, "H")
	screen := plainScreen(h.m)
	if !strings.Contains(screen, "#5000 write ● current") || !strings.Contains(screen, "#4992 write") || strings.Contains(screen, "#1 write") {
		t.Fatalf("the last versions:\n%s", screen)
	}
	press(h.m, "g")
	if screen := plainScreen(h.m); !strings.Contains(screen, "#1 write") || !strings.Contains(screen, "#9 write") || strings.Contains(screen, "#5000") {
		t.Fatalf("the first versions:\n%s", screen)
	}
}

// TestForgotten_ManyEntries: a list of thousands keeps the cursor in
// sight as it moves, and G reaches the last.
func TestForgotten_ManyEntries(t *testing.T) {
	h, ix := historyHarness(t)
	drive(h.m, resizeCmd(80, 24))
	var list []history.Forgotten
	for i := range 6000 {
		list = append(list, history.Forgotten{Name: fmt.Sprintf("gone-%04d", i), Last: history.Version{N: 1, Action: history.Write, Content: "c"}, Versions: 1})
	}
	installHistory(h, &fakeHistory{hs: ix.hs, forgotten: list})
	press(h.m, "F")
	if screen := plainScreen(h.m); !strings.Contains(screen, "6,000 entries") || !strings.Contains(screen, "gone-0000 ·") || strings.Contains(screen, "gone-0011") {
		t.Fatalf("the first window:\n%s", screen)
	}
	press(h.m, "G")
	if screen := plainScreen(h.m); !strings.Contains(screen, "gone-5999 ·") || strings.Contains(screen, "gone-0000") {
		t.Fatalf("after G:\n%s", screen)
	}
	press(h.m, "pgup")
	if sel, _ := h.m.fg.Selected(); !strings.Contains(plainScreen(h.m), sel.Name+" ·") {
		t.Fatalf("the cursor's entry %s is out of sight:\n%s", sel.Name, plainScreen(h.m))
	}
}

// TestHistory_RenameAwayIsAnotherEntry: issue 38's sequence on crabtalk's
// store (hist-a written twice, renamed to hist-b, hist-b written and
// removed, a new hist-a): the H view of hist-a shows the old entry up to
// its rename away, marked as an earlier entry, then the new one, never
// hist-b's later versions; restoring an earlier entry's version is
// refused and writes nothing; the first version of the new entry is
// diffed against nothing, not the old entry's last.
func TestHistory_RenameAwayIsAnotherEntry(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "crabdb-writes", "before.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	put := func(name, content, created string) {
		v := fmt.Sprintf(`{"name":%q,"kind":"note","content":%q,"aliases":[],"created_at":%q}`, name, content, created)
		data = append(data, crabdbtest.Record(crabdb.OpPut, crabdb.ColMemory, crabdb.MemoryPrefix+name, v)...)
	}
	del := func(name string) {
		data = append(data, crabdbtest.Record(crabdb.OpDelete, crabdb.ColMemory, crabdb.MemoryPrefix+name, "")...)
	}
	put("hist-a", "first words of a", "2026-03-02T09:00:00+00:00")
	put("hist-a", "second words of a", "2026-03-02T09:00:00+00:00")
	put("hist-b", "second words of a", "2026-03-02T09:00:00+00:00") // the rename
	del("hist-a")
	put("hist-b", "b wrote this", "2026-03-02T09:00:00+00:00")
	del("hist-b")
	put("hist-a", "a new entry named hist-a", "2026-03-02T09:05:00+00:00")
	path := filepath.Join(t.TempDir(), "store.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	h := newEditHarnessIn(t, path, t.TempDir())
	h.sel("hist-a")
	press(h.m, "H")
	screen := plainScreen(h.m)
	for _, want := range []string{"History of hist-a  4 versions · 2 entries had this name", "#1 write · earlier", "#3 renamed to hist-b · earlier",
		"#4 write ● current", "#4 · write · its whole content", "this entry: 2 entries had the name hist-a; this is the last, from #4"} {
		if !strings.Contains(screen, want) {
			t.Errorf("history lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "b wrote this") || strings.Contains(screen, "delete") {
		t.Errorf("hist-a's history shows hist-b's later versions:\n%s", screen)
	}
	before, _ := os.ReadFile(path)
	press(h.m, "up", "up", "up")
	if screen := plainScreen(h.m); !strings.Contains(screen, "an earlier entry named hist-a (#1–#3), renamed to hist-b") {
		t.Errorf("#1 does not say it is an earlier entry's:\n%s", screen)
	}
	press(h.m, "r")
	h.wantStatus(`cannot restore hist-a: version #1 is of an earlier entry named "hist-a", renamed to "hist-b" at #3`)
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a refused restore wrote to the store")
	}
}

// provenance is the card's line for sum at now: "remembered by session
// «deploy pipeline», 3d ago · 4 versions", "" when sum knows nothing
// beyond the entry itself (one version no session wrote: every entry of
// a memory without sessions, which would all say "unknown source").
func provenance(sum history.Summary, now time.Time) string {
	return strings.Join(provenanceParts(sum, now), " · ")
}
