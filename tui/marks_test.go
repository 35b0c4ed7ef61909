package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

// agedMemory writes a memory with two notes and ten archives created 10,
// 20, …, 100 days before testNow, and returns its path and entries.
func agedMemory(t *testing.T) (string, []store.Entry) {
	t.Helper()
	var es []store.Entry
	day := uint64(24 * 3600)
	now := uint64(testNow.Unix())
	es = append(es, store.Entry{ID: 1, Name: "note-a", Kind: store.Note, CreatedAt: now - 200*day, Content: "old note", Aliases: []string{"a"}})
	es = append(es, store.Entry{ID: 2, Name: "note-b", Kind: store.Note, CreatedAt: now - day, Content: "new note"})
	for i := 1; i <= 10; i++ {
		es = append(es, store.Entry{ID: uint64(2 + i), Name: fmt.Sprintf("archive-%02d", i), Kind: store.Archive,
			CreatedAt: now - uint64(i*10)*day, Content: strings.Repeat("x", 100*i)})
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, es)
	return path, es
}

// writeSession writes a session whose last marker names archive.
func writeSession(t *testing.T, dir, name, archive string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	step := fmt.Sprintf(`{"archive_name":%q,"archived_at":"2026-01-01T00:00:00Z"}`, archive)
	if err := os.WriteFile(filepath.Join(p, "step-000000"), []byte(step), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMarks_SpaceTogglesAndStatusShowsCountAndSize(t *testing.T) {
	path, _ := agedMemory(t)
	h := newEditHarnessIn(t, path, t.TempDir())
	h.sel("archive-03")
	press(h.m, "space")
	if selectedName(h.m) == "archive-03" {
		t.Fatal("space did not move down")
	}
	id := h.sel("archive-03").ID
	if !h.m.marks.Has(id) || !strings.Contains(statusText(h.m), "● 1 marked · 300B") {
		t.Fatalf("marked %v, status %q", h.m.marks.Has(id), statusText(h.m))
	}
	press(h.m, "space")
	if h.m.marks.Has(id) || strings.Contains(statusText(h.m), "marked") {
		t.Fatalf("second space did not unmark: status %q", statusText(h.m))
	}
}

func TestMarks_StarMarksSearchHits(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	press(h.m, "/")
	typeText(h.m, "deploy ")
	press(h.m, "enter")
	hits := listNames(h.m)
	if len(hits) < 2 {
		t.Fatalf("want several hits, got %v", hits)
	}
	press(h.m, "*")
	h.wantStatus(fmt.Sprintf("marked %d listed entries", len(hits)))
	var marked []string
	for _, e := range h.m.markedEntries() {
		marked = append(marked, e.Name)
	}
	slices.Sort(marked)
	slices.Sort(hits)
	if !slices.Equal(marked, hits) {
		t.Fatalf("marked %v, want the hits %v", marked, hits)
	}
	press(h.m, "*")
	if len(h.m.marks.IDs()) != 0 {
		t.Fatal("* on all-marked hits did not unmark them")
	}
}

func TestMarks_OlderThanDeleteAllAndUndo(t *testing.T) {
	path, before := agedMemory(t)
	sess := t.TempDir()
	writeSession(t, sess, "old-chat", "archive-05")
	writeSession(t, sess, "new-chat", "archive-01")
	h := newEditHarnessIn(t, path, sess)
	press(h.m, "O")
	h.wantOverlay("mark archives older than")
	typeText(h.m, "soon")
	press(h.m, "enter")
	h.wantOverlay("write a span like 45m, 12h, 30d")
	press(h.m, "ctrl+u")
	typeText(h.m, "30d")
	press(h.m, "enter")
	h.wantStatus("marked 7 archives older than 30d (created before 2025-12-04 12:00)")
	var names []string
	for _, e := range h.m.markedEntries() {
		names = append(names, e.Name)
	}
	want := []string{"archive-04", "archive-05", "archive-06", "archive-07", "archive-08", "archive-09", "archive-10"}
	if !slices.Equal(names, want) {
		t.Fatalf("marked %v, want %v (30 days exactly is not older)", names, want)
	}
	press(h.m, "space", "U") // space marks one more; U clears every mark
	h.wantStatus("unmarked 8 entries")
	if len(h.m.marks.IDs()) != 0 {
		t.Fatal("U left marks")
	}
	press(h.m, "O")
	typeText(h.m, "30d")
	press(h.m, "enter")
	press(h.m, "D")
	h.wantOverlay("delete 7 entries marked (4.8K)", "1 session loses its resume point: old-chat", "[y/n]")
	press(h.m, "D", "enter")
	h.wantOverlay("delete 7 entries")
	press(h.m, "y")
	h.wantStatus("deleted 7 entries")
	if disk := h.onDisk(); len(disk) != 5 || len(h.m.marks.IDs()) != 0 {
		t.Fatalf("%d entries left on disk, %d marks", len(disk), len(h.m.marks.IDs()))
	}
	press(h.m, "u")
	h.wantStatus("undone: delete 7 entries")
	disk := h.onDisk()
	for _, e := range before {
		if !entriesEqual(disk[e.Name], e) {
			t.Errorf("%s after undo: %+v, want %+v", e.Name, disk[e.Name], e)
		}
	}
}

// An archive whose created_at is beyond int64 (the reader accepts any u64)
// is not "older than 30d": it must never be swept into a bulk delete.
func TestMarks_OlderThanSkipsTimestampsBeyondInt64(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	now := uint64(testNow.Unix())
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "old", Kind: store.Archive, CreatedAt: now - 90*24*3600, Content: "x"},
		{ID: 2, Name: "far-future", Kind: store.Archive, CreatedAt: 1<<63 + 5, Content: "y"},
	})
	h := newEditHarnessIn(t, path, t.TempDir())
	press(h.m, "O")
	typeText(h.m, "30d")
	press(h.m, "enter")
	if !h.m.marks.Has(1) || h.m.marks.Has(2) {
		t.Fatalf("marked old=%v far-future=%v; want only old", h.m.marks.Has(1), h.m.marks.Has(2))
	}
}

func TestMarks_DeleteMarkedWithNothingMarked(t *testing.T) {
	path, _ := agedMemory(t)
	h := newEditHarnessIn(t, path, t.TempDir())
	press(h.m, "D")
	if h.overlay() != "" {
		t.Fatalf("a confirmation with nothing marked: %q", h.overlay())
	}
	h.wantStatus("nothing marked")
}

func TestMarks_SurviveReloadByID(t *testing.T) {
	path, _ := agedMemory(t)
	h := newEditHarnessIn(t, path, t.TempDir())
	keep := h.sel("archive-02")
	press(h.m, "space")
	gone := h.sel("archive-09")
	press(h.m, "space")
	apply(t, path, store.Remove{Name: "archive-09"}, store.Add{Name: "new", Content: "x"}, store.Rename{Name: "archive-02", New: "renamed-02"})
	reload(h.m)
	if !h.m.marks.Has(keep.ID) || h.m.marks.Has(gone.ID) || len(h.m.marks.IDs()) != 1 {
		t.Fatalf("marks after reload: %v", h.m.marks.IDs())
	}
}

// Issue 17 item 6: marks follow ids under a live writer. Of three marked
// entries the agent renames one, replaces one (rm + add, same name) and
// rewrites one: the reload says the replaced one lost its mark, and D
// names the two that changed since they were marked.
func TestMarks_LiveWriterChangesAreReported(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	for _, n := range []string{"deploy-steps", "commit-format", "rust-style"} {
		h.sel(n)
		press(h.m, "space")
	}
	if n := len(h.m.marks.IDs()); n != 3 {
		t.Fatalf("%d marked", n)
	}
	apply(t, h.path,
		store.Rename{Name: "deploy-steps", New: "ship-steps"},
		store.Remove{Name: "commit-format"}, store.Add{Name: "commit-format", Content: "the agent's new one"},
		store.Write{Name: "rust-style", Content: "rewritten by the agent"})
	reload(h.m)
	h.wantStatus("⚠ unmarked commit-format: another writer replaced it (the new commit-format is not marked)")
	if n := len(h.m.marks.IDs()); n != 2 {
		t.Fatalf("%d marked after the reload, want 2", n)
	}
	press(h.m, "D")
	h.wantOverlay("delete 2 entries marked", "⚠ changed since you marked them:", "ship-steps (was deploy-steps)", "rust-style")
	press(h.m, "n")

	// Marked again in its new state, it is no longer reported as changed.
	h.sel("rust-style")
	press(h.m, "space") // unmark, …
	h.sel("rust-style")
	press(h.m, "space") // … and mark as it is now
	press(h.m, "D")
	if strings.Contains(ansi.Strip(h.overlay()), "rust-style,") || strings.Contains(ansi.Strip(h.overlay()), "them:") {
		t.Errorf("dialog %q names rust-style as changed", ansi.Strip(h.overlay()))
	}
	h.wantOverlay("changed since you marked it: ship-steps (was deploy-steps)")
	press(h.m, "esc")

	// A marked entry removed outright is named too.
	apply(t, h.path, store.Remove{Name: "ship-steps"})
	reload(h.m)
	h.wantStatus("⚠ unmarked deploy-steps: another writer removed it")
}

// TestMarks_StarUnmarksOnlyWhatIsListed: `*` on a list whose entries are
// all marked unmarks them at once, and keeps a mark the filter hides (the
// wholesale unmark applies only when every mark is listed).
func TestMarks_StarUnmarksOnlyWhatIsListed(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	press(h.m, "3", "*") // every archive
	archives := h.m.marks.Len()
	if archives == 0 || archives != h.m.listedCount() {
		t.Fatalf("* marked %d of %d archives", archives, h.m.listedCount())
	}
	press(h.m, "*") // all listed are marked: unmark them
	if h.m.marks.Len() != 0 || h.m.marks.Bytes() != 0 {
		t.Fatalf("* again left %d marks, %d bytes", h.m.marks.Len(), h.m.marks.Bytes())
	}
	press(h.m, "1")
	note := h.sel("commit-format")
	press(h.m, "space", "3", "*", "*") // a note marked, then the archives marked and unmarked
	if h.m.marks.Len() != 1 || !h.m.marks.Has(note.ID) || h.m.marks.Bytes() != len(note.Content) {
		t.Fatalf("the hidden note's mark did not survive: %d marks, %d bytes", h.m.marks.Len(), h.m.marks.Bytes())
	}
}
