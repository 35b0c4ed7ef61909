package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// Tests for issue 10 (the TUI as power users drive it), one per finding;
// each names the item it pins.

// Item 1: enter keeps the row the user moved to while typing.
func TestSearch_EnterKeepsTheRowTheUserPicked(t *testing.T) {
	tests := []struct {
		name string
		move []string
	}{
		{"arrows", []string{"down"}},
		{"ctrl+n", []string{"ctrl+n"}},
		{"ctrl+j", []string{"ctrl+j"}},
		{"pgdown", []string{"pgdown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
			m := h.m
			press(m, "/")
			typeText(m, "canary")
			best := selectedName(m)
			press(m, tt.move...)
			picked := selectedName(m)
			if picked == best || picked == "" {
				t.Fatalf("moving did not change the selection from %q", best)
			}
			press(m, "enter")
			if got := selectedName(m); got != picked {
				t.Fatalf("after enter %q is selected, want the picked %q", got, picked)
			}
			press(m, "d") // the next action acts on the picked entry
			if o := plainOverlay(m); !strings.Contains(o, picked) {
				t.Fatalf("delete asks about %q, want %q", o, picked)
			}
		})
	}
	// Unmoved, enter keeps the best hit; a changed query follows the best
	// hit again.
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "/")
	typeText(m, "canary")
	best := selectedName(m)
	press(m, "down")
	typeText(m, " ")
	typeText(m, "r")
	press(m, "backspace", "backspace")
	if got := selectedName(m); got != best {
		t.Fatalf("after the query changed the selection is %q, want the best hit %q", got, best)
	}
	press(m, "enter")
	if got := selectedName(m); got != best {
		t.Fatalf("enter without moving selected %q, want %q", got, best)
	}
}

// Item 2: q (and esc, ?) closes the help; only ctrl+c quits from it
// (issue 17 item 3: TestInterrupt_CtrlCQuitsInEveryMode).
func TestHelp_QClosesInsteadOfQuitting(t *testing.T) {
	for _, k := range []string{"q", "esc", "?", "x"} {
		m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
		press(m, "?")
		if !m.hp.Open() {
			t.Fatal("? did not open the help")
		}
		_, cmd := m.Update(keyMsg(k))
		if m.hp.Open() {
			t.Errorf("%s did not close the help", k)
		}
		if cmdQuits(cmd) {
			t.Errorf("%s on the help screen quits", k)
		}
	}
}

// Item 9: one-pane mode opens the preview with enter l → and goes back with
// esc h ← backspace; a help that does not fit scrolls to its last line.
func TestOnePane_OpenAndBackKeys(t *testing.T) {
	for _, open := range []string{"enter", "l", "right"} {
		for _, back := range []string{"esc", "h", "left", "backspace"} {
			m := openModel(t, copyFixture(t, "crmem/small.db"), 60, 20)
			sel := selectedName(m)
			press(m, open)
			if m.focus != focusPreview || !strings.Contains(plainScreen(m), "created ") {
				t.Fatalf("%s did not open the preview:\n%s", open, plainScreen(m))
			}
			press(m, back)
			if m.focus != focusList {
				t.Fatalf("%s did not go back to the list", back)
			}
			if got := selectedName(m); got != sel {
				t.Fatalf("the selection moved from %q to %q", sel, got)
			}
		}
	}
}

func TestHelp_ScrollsWhenItDoesNotFit(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	m := h.m
	drive(m, resizeCmd(60, 20))
	press(m, "?")
	screen := plainScreen(m)
	if strings.Contains(screen, "delete marked") {
		t.Fatalf("the whole help fits at 60×20; the test needs a longer one:\n%s", screen)
	}
	for range 200 { // to the end: the last group is the dialogs' keys
		press(m, "j")
	}
	screen = plainScreen(m)
	for _, want := range []string{"keep theirs", "undo: drop it from the list"} {
		if !strings.Contains(screen, want) {
			t.Errorf("after scrolling the help lacks %q:\n%s", want, screen)
		}
	}
	if !m.hp.Open() {
		t.Fatal("scrolling closed the help")
	}
	for range 200 { // back to the top
		press(m, "k")
	}
	if s := plainScreen(m); !strings.Contains(s, "half page up") || !strings.Contains(s, "close)") {
		t.Errorf("scrolled back, the help lacks its top or its close hint:\n%s", s)
	}
}

// Item 7: bulk delete names the entries and says when the filter hides them.
func TestDeleteMarked_SaysWhatTheFilterHides(t *testing.T) {
	path, _ := agedMemory(t)
	h := newEditHarnessIn(t, path, t.TempDir())
	m := h.m
	press(m, "O")
	typeText(m, "75d")
	press(m, "enter") // archives 08, 09, 10
	press(m, "2")     // notes only: every marked archive is hidden
	press(m, "D")
	o := plainOverlay(m)
	for _, want := range []string{"delete 3 entries marked", "archive-08", "archive-09", "archive-10", "all 3 hidden"} {
		if !strings.Contains(o, want) {
			t.Errorf("confirmation %q lacks %q", o, want)
		}
	}
	press(m, "n")
	press(m, "1") // all listed again: nothing hidden
	press(m, "D")
	if o := plainOverlay(m); strings.Contains(o, "hidden") || strings.Contains(o, "not listed") {
		t.Errorf("confirmation %q speaks of hidden entries when all are listed", o)
	}
}

// Item 8: an undo that cannot put an entry back under its name offers
// another name and keeps the step until it is restored or dropped.
func TestUndo_NameTakenOffersAnotherName(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	before := h.sel("scratch")
	press(h.m, "d", "y")
	if _, ok := h.onDisk()["scratch"]; ok {
		t.Fatal("scratch not deleted")
	}
	apply(t, h.path, store.Add{Name: "scratch", Content: "someone else's scratch"})
	reload(h.m)
	press(h.m, "u")
	if o := plainOverlay(h.m); !strings.Contains(o, "scratch taken meanwhile") || !strings.Contains(o, "restore as scratch-restored") {
		t.Fatalf("no offer to restore under another name: %q (status %q)", o, h.status())
	}
	press(h.m, "k") // keep it in the undo list
	if h.f.UndoLen() != 1 {
		t.Fatalf("undo list has %d steps, want the failed one kept", h.f.UndoLen())
	}
	press(h.m, "u")
	press(h.m, "r")
	disk := h.onDisk()
	got, ok := disk["scratch-restored"]
	if !ok || got.ID != before.ID || got.CreatedAt != before.CreatedAt || got.Content != before.Content {
		t.Fatalf("restored %+v, want %+v under scratch-restored", got, before)
	}
	if disk["scratch"].Content != "someone else's scratch" {
		t.Fatalf("the other scratch changed: %+v", disk["scratch"])
	}
	if h.f.UndoLen() != 0 {
		t.Fatalf("undo list still has %d steps after the restore", h.f.UndoLen())
	}
}

// Item 12: a file that cannot be read at start is not an empty memory.
func TestUnreadableAtStart_SaysCannotRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, []byte("CRMEM\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
	drive(m, resizeCmd(120, 40))
	drive(m, openCmd(path, ""))
	screen := plainScreen(m)
	for _, bad := range []string{"empty", "0 notes"} {
		if strings.Contains(screen, bad) {
			t.Errorf("screen says %q for an unreadable file:\n%s", bad, screen)
		}
	}
	for _, want := range []string{"cannot read", "unsupported version"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
}

// Item 14: after "save mine as a new note" the new note is selected, even
// when the search that found the original does not list it.
func TestConflict_SaveAsNewSelectsTheNewNote(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	press(h.m, "/")
	typeText(h.m, "conventional commits ")
	press(h.m, "enter")
	if selectedName(h.m) != "commit-format" {
		t.Fatalf("search selected %q", selectedName(h.m))
	}
	h.editor = `sh -c 'printf "Zebra giraffe.\n" > "$1.x"; head -c 0 "$1"; sed -n "1,/<\/div>/p" "$1" > "$1.y"; cat "$1.y" "$1.x" > "$1"' sh`
	h.during = func() { apply(t, h.path, store.Write{Name: "commit-format", Content: "Theirs."}) }
	press(h.m, "e")
	press(h.m, "n")
	h.wantStatus("saved your text as the new note commit-format-mine")
	if got := selectedName(h.m); got != "commit-format-mine" {
		t.Fatalf("selected %q after save as new, want commit-format-mine", got)
	}
}

// Item 14: the focused pane is marked by its border, not only by colour.
func TestFocusedPaneIsMarked(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	if s := plainScreen(m); !strings.Contains(s, "┃") || strings.Contains(s, "┏") {
		t.Fatalf("list focused: want the heavy list edge and a thin card:\n%s", s)
	}
	press(m, "tab")
	if s := plainScreen(m); strings.Contains(s, "┃ N note") == false && !strings.Contains(s, "┏") {
		t.Fatalf("preview focused: want the thick card border:\n%s", s)
	}
	if s := plainScreen(m); strings.Contains(strings.Split(s, "\n")[5], "┃ A") {
		t.Fatalf("the list edge stayed heavy with the preview focused:\n%s", s)
	}
}

// Item 14: a name starting with the query comes before one containing it;
// the card's token count is the document recall indexes (content and
// aliases), as the explain view counts it.
func TestNameMatches_PrefixFirstAndTokensAgree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "deploy-steps", CreatedAt: 1_767_000_000, Content: "ship it", Aliases: []string{"release notes", "rollout"}},
		{ID: 2, Name: "ext-added", CreatedAt: 1_767_100_000, Content: "newer, contains de"},
	})
	m := openModel(t, path, 120, 40)
	press(m, "/")
	typeText(m, "de")
	if names := listNames(m); len(names) < 2 || names[0] != "deploy-steps" {
		t.Fatalf("/de lists %v, want deploy-steps first", names)
	}
	if got := selectedName(m); got != "deploy-steps" {
		t.Fatalf("selected %q", got)
	}
	ex := m.index().Explain("ship", 1)
	if !strings.Contains(plainScreen(m), fmt.Sprintf("· %d tokens", ex.DocLen)) {
		t.Fatalf("card token count differs from recall's document length %d:\n%s", ex.DocLen, plainScreen(m))
	}
	if strings.Contains(plainScreen(m), "1 tokens") {
		t.Fatal("1 tokens")
	}
}

// Item 4: true counts beyond the list's cap, a short name section with an
// expand row, and the recall view at the agent's limit.
func TestSearch_HonestCountsNameSectionAndRecallView(t *testing.T) {
	var es []store.Entry
	for i := range 1500 {
		es = append(es, store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("postgres-note-%04d", i), CreatedAt: uint64(1_767_000_000 + i),
			Content: fmt.Sprintf("postgres migration number %d", i)})
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, es)
	m := openModel(t, path, 120, 40)
	drive(m, indexReadyCmd())
	press(m, "/")
	typeText(m, "postgres ")
	status := statusText(m)
	if !strings.Contains(status, "1,500 hits") || !strings.Contains(status, "1,500 name") || !strings.Contains(status, "showing") {
		t.Fatalf("status %q, want the true counts and showing", status)
	}
	// The agent's ranking starts within the first screen.
	rows := m.list.Rows()
	recallAt := -1
	for i, r := range rows {
		if strings.HasPrefix(r.Header, "recall") {
			recallAt = i
			break
		}
	}
	if recallAt < 0 || recallAt > 30 {
		t.Fatalf("recall section starts at row %d", recallAt)
	}
	more := rows[recallAt-1]
	if more.More != 1500-20 {
		t.Fatalf("row before recall %+v, want the … 1480 more row", more)
	}
	if !strings.Contains(plainScreen(m), "… 1,480 more name matches") {
		t.Fatalf("no expand row on screen:\n%s", plainScreen(m))
	}
	press(m, "enter") // keep the query; then move to the expand row and open it
	for m.list.Cursor() != recallAt-1 {
		press(m, "j")
	}
	if _, ok := m.list.SelectedEntry(m.c.snap); ok {
		t.Fatal("the expand row counts as an entry: an action there would hit another one")
	}
	press(m, "enter")
	if n := countKind(m, hitName); n != maxHits {
		t.Fatalf("after expanding %d name rows, want %d", n, maxHits)
	}
	press(m, "ctrl+r")
	if n := m.list.Entries(); n != 5 {
		t.Fatalf("recall view lists %d, want the agent's limit 5", n)
	}
	want := m.c.db.Memory().Search("postgres", 5)
	for i, id := range m.list.ListedIDs(m.c.snap) {
		if id != want[i].ID {
			t.Fatalf("recall view row %d is %d, recall returns %d", i, id, want[i].ID)
		}
	}
	if !strings.Contains(statusText(m), "recall view: top 5 of 1,500 hits") {
		t.Fatalf("status %q", statusText(m))
	}
}

func countKind(m *Model, k hitKind) int {
	n := 0
	for _, r := range m.list.Rows() {
		if r.IsEntry() && r.Hit == k {
			n++
		}
	}
	return n
}

// Item 3: the status line never cuts a message's point: a long message
// gets its own lines, the daemon warning does not shrink it, the path is
// shortened in the middle, and the short help keeps "? help".
func TestStatus_MessagesKeepTheirPoint(t *testing.T) {
	long := "editor failed (exit status 3); your text is kept in /tmp/a-rather-long-temporary-directory-name-for-testing/crmem-edit-1234567890/commit-format.md"
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		for _, daemon := range []bool{false, true} {
			h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
			m := h.m
			m.path = "/home/someone/.crabtalk/some/very/deeply/nested/folder/of/memories/memory.db"
			m.home = "/home/someone"
			drive(m, resizeCmd(size[0], size[1]))
			m.st.daemon = daemon
			m.setMessage(long)
			screen := plainScreen(m)
			lines := strings.Split(screen, "\n")
			if len(lines) != size[1] {
				t.Fatalf("%v: %d lines", size, len(lines))
			}
			for _, l := range lines {
				if w := len([]rune(l)); w > size[0] {
					t.Errorf("%v: line wider than the screen: %q", size, l)
				}
			}
			switch sq := squeeze(screen); {
			case size[0] >= 80 && !strings.Contains(sq, squeeze(long)):
				t.Errorf("%v daemon=%v: the message is cut:\n%s", size, daemon, screen)
			case !strings.Contains(sq, squeeze("editor failed (exit status 3); your text is kept in /tmp/")) ||
				!strings.Contains(sq, "crmem-edit-1234567890/commit-format.md"):
				// narrower than two lines can hold: shortened in the middle
				t.Errorf("%v daemon=%v: the message lost its start or its end:\n%s", size, daemon, screen)
			}
			if daemon && !strings.Contains(screen, "daemon") {
				t.Errorf("%v: the daemon warning is gone:\n%s", size, screen)
			}
			if !strings.Contains(screen, ".db") || !strings.Contains(screen, "~/") {
				t.Errorf("%v: the path lost its end or its ~:\n%s", size, screen)
			}
			if !strings.HasSuffix(strings.TrimRight(lines[len(lines)-1], " "), "? help") {
				t.Errorf("%v: the short help lost ? help: %q", size, lines[len(lines)-1])
			}
		}
	}
}

// Item 10: the explain view says it is on, explains a row found through a
// prefix expansion with that expansion, keeps its footnote, and goes off
// with esc.
func TestExplain_OnOffPrefixRowsAndFootnote(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 100, 30)
	press(m, "/")
	typeText(m, "rol")
	if got := selectedName(m); got != "deploy-steps" {
		t.Fatalf("/rol selected %q, want the alias match deploy-steps", got)
	}
	r, _ := m.list.Selected()
	if r.Hit != hitName || r.Via != hitPrefix || r.Score <= 0 {
		t.Fatalf("deploy-steps row %+v: want a name match scored through the prefix expansion", r)
	}
	press(m, "enter", "x")
	screen := plainScreen(m)
	if !strings.Contains(screen, "explain (x)") || !strings.Contains(screen, "EXPLAIN") {
		t.Fatalf("the explain view does not say it is on:\n%s", screen)
	}
	if !strings.Contains(screen, fmt.Sprintf("scores %.4f", r.Score)) || strings.Contains(screen, "scores 0.0000") {
		t.Fatalf("explained score differs from the row's %.4f:\n%s", r.Score, screen)
	}
	if !strings.Contains(screen, "whole words only.") || !strings.Contains(screen, "name/alias match.") {
		t.Fatalf("the footnote is cut:\n%s", screen)
	}
	press(m, "esc")
	if m.pv.Explaining() || strings.Contains(plainScreen(m), "EXPLAIN") {
		t.Fatalf("esc did not turn explain off:\n%s", plainScreen(m))
	}
	if m.result == nil {
		t.Fatal("esc turned explain off and cleared the search in one go")
	}
}

// Item 14: O reads spans as the rest of the program does: 6m is six
// minutes (the list's 2m), 6mo six months. A span under a day is
// confirmed first (issue 17 item 4).
func TestMarkOlder_UnitsAsEverywhere(t *testing.T) {
	for _, tt := range []struct {
		span string
		want int
	}{{"6m", 10}, {"6mo", 0}, {"45d", 6}} {
		path, _ := agedMemory(t)
		h := newEditHarnessIn(t, path, t.TempDir())
		press(h.m, "O")
		typeText(h.m, tt.span)
		press(h.m, "enter")
		if strings.Contains(plainOverlay(h.m), "did you mean months") {
			press(h.m, "y")
		}
		if n, _ := h.m.markedSize(); n != tt.want {
			t.Errorf("O %s marked %d archives, want %d (status %q)", tt.span, n, tt.want, h.status())
		}
	}
}

// Item 5: at 80×24 the archive names keep the part that tells them apart.
func TestNarrow_ArchiveNamesStayDistinct(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 80, 24)
	press(m, "3") // archives only: neighbours share the long prefix
	seen := map[string]bool{}
	for _, l := range strings.Split(plainScreen(m), "\n")[1:21] {
		_, rest, ok := strings.Cut(l, " A ")
		if !ok {
			continue
		}
		name := strings.Fields(rest)[0]
		if seen[name] {
			t.Errorf("two rows read %q:\n%s", name, plainScreen(m))
		}
		seen[name] = true
		if strings.HasPrefix(name, "archive-sess-000…") {
			t.Errorf("%q is cut where the names differ", name)
		}
	}
	if len(seen) != 4 {
		t.Fatalf("%d archive rows, want 4:\n%s", len(seen), plainScreen(m))
	}
	for _, want := range []string{"0001", "0002", "0004", "0005"} {
		found := false
		for n := range seen {
			found = found || strings.Contains(n, want)
		}
		if !found {
			t.Errorf("no row shows %s: %v", want, seen)
		}
	}
}
