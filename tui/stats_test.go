package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
	"github.com/crmem/crmem/tui/statspanel"
)

// TestStats_PanelOpensScrollsCloses checks i opens the picture of the
// memory in place of the panes, the movement keys scroll it and each
// closing key closes it.
func TestStats_PanelOpensScrollsCloses(t *testing.T) {
	for _, closeKey := range []string{"esc", "q", "i"} {
		t.Run(closeKey, func(t *testing.T) {
			m := openModel(t, copyFixture(t, "crmem/medium.db"), 100, 20)
			n := len(m.c.snap.entries)
			press(m, "i")
			scr := plainScreen(m)
			for _, want := range []string{"Memory stats", humanize.Plural(n, "entry") + " · ", "added per month", "kind     entries"} {
				if !strings.Contains(scr, want) {
					t.Errorf("panel lacks %q:\n%s", want, scr)
				}
			}
			if m.partHelp()[0].Help().Key == "" || !m.sp.Open() {
				t.Fatalf("panel not open")
			}
			before := m.sp.Top()
			press(m, "j", "j")
			if m.sp.Top() != before+2 {
				t.Errorf("j j scrolled from %d to %d, want %d", before, m.sp.Top(), before+2)
			}
			press(m, "G")
			if m.sp.Top() != part.MaxTop(len(m.sp.Lines(m.c.styles.part, m.c.width)), m.bodyHeight()) || part.MaxTop(len(m.sp.Lines(m.c.styles.part, m.c.width)), m.bodyHeight()) == 0 {
				t.Errorf("G went to %d, want the end %d (> 0 at this height)", m.sp.Top(), part.MaxTop(len(m.sp.Lines(m.c.styles.part, m.c.width)), m.bodyHeight()))
			}
			press(m, closeKey)
			if m.sp.Open() || strings.Contains(plainScreen(m), "Memory stats") {
				t.Errorf("%s did not close the panel:\n%s", closeKey, plainScreen(m))
			}
		})
	}
}

// TestStats_FollowsReloads checks an open panel shows the memory as it is
// after another writer added entries, and after crmem's own write.
func TestStats_FollowsReloads(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 100, 40)
	n := len(m.c.snap.entries)
	press(m, "i")
	if !strings.Contains(plainScreen(m), humanize.Plural(n, "entry")+" · ") {
		t.Fatalf("panel before the reload:\n%s", plainScreen(m))
	}
	apply(t, path, store.Add{Name: "zz-one", Content: "x"}, store.Add{Name: "zz-two", Kind: store.Archive, Content: "y"})
	reload(m)
	if !strings.Contains(plainScreen(m), humanize.Plural(n+2, "entry")+" · ") {
		t.Errorf("panel after another writer added 2:\n%s", plainScreen(m))
	}
}

// TestStats_DropsStaleFigures checks figures computed for a snapshot that
// was replaced meanwhile are not shown.
func TestStats_DropsStaleFigures(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 100, 40)
	old := m.c.snap
	cmd := m.sp.Show(m.ctx(), m.statsOfNow())
	if cmd == nil {
		t.Fatal("opening computes nothing")
	}
	msg := cmd().(statspanel.DoneMsg)
	apply(t, path, store.Add{Name: "zz-one", Content: "x"})
	reload(m) // the new snapshot's figures are computed and shown
	shown := m.sp.Shown().Snap
	if shown == old || shown != m.c.snap {
		t.Fatalf("after the reload the panel shows %p, want the current snapshot %p", shown, m.c.snap)
	}
	m.Update(msg) // the old figures arrive late
	if m.sp.Shown().Snap != m.c.snap || m.sp.Stats().Total.Entries != len(m.c.snap.entries) {
		t.Errorf("late figures of a replaced snapshot shown: %d entries, want %d", m.sp.Stats().Total.Entries, len(m.c.snap.entries))
	}
}

// TestStats_FitsEveryWidth draws the panel at widths 20–250 over a memory
// with wide names and several years of months: no line is wider than the
// terminal, and every height from 3 rows up shows its title (at 3 rows in
// place of the search line: the frame is no taller than the terminal).
func TestStats_FitsEveryWidth(t *testing.T) {
	t.Parallel() // every width on a model of its own: beside the other long tests
	var entries []store.Entry
	start := time.Date(2022, 1, 10, 0, 0, 0, 0, time.UTC)
	for i := range 60 {
		entries = append(entries, store.Entry{
			ID: uint64(i + 1), Name: fmt.Sprintf("%d-日本語の名前の長いメモのタイトル-👨‍👩‍👧‍👦", i), Kind: store.Kinds[i%3],
			CreatedAt: uint64(start.AddDate(0, i/2*(1+i%3), 0).Unix()), Content: strings.Repeat("word ", i*40),
		})
	}
	entries = append(entries, store.Entry{ID: 99, Name: "undated", Kind: store.Note, Content: "x"})
	path := copyFixture(t, "crmem/small.db")
	writeEntries(t, path, entries)
	m := openModel(t, path, 80, 24)
	// Behind the panel the preview renders its entry again at every
	// width: the one-word entry, not one of the longest.
	if !m.list.SelectID(m.c.snap, 99) {
		t.Fatal("undated is not listed")
	}
	drive(m, m.showSelected())
	press(m, "i")
	for w := 20; w <= 250; w++ {
		for _, h := range []int{3, 8, 24, 60} {
			drive(m, resizeCmd(w, h))
			screen := ansi.Strip(checkScreenFits(t, m, w, fmt.Sprintf("stats panel at %dx%d", w, h)))
			lines := strings.Split(screen, "\n")
			title := 1 // below the search line, or first when 3 rows leave the search line out
			if h < 4 {
				title = 0
			}
			if len(lines) > h || !strings.HasPrefix(lines[title], "Memory stats") {
				t.Fatalf("at %dx%d the panel's title is not on line %d of %d:\n%s", w, h, title+1, h, screen)
			}
		}
	}
}

// TestStats_KeyIsConfigurable checks the panel's key follows the
// configuration's [keys] table (stats = ...) and the help lists it.
func TestStats_KeyIsConfigurable(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	if err := keys.Remap("stats", []string{"ctrl+t"}); err != nil {
		t.Fatal(err)
	}
	path := copyFixture(t, "crmem/small.db")
	m := newModel(config{path: path, keys: keys, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
	drive(m, resizeCmd(100, 40))
	drive(m, openCmd(path, ""))
	press(m, "i")
	if m.sp.Open() {
		t.Errorf("i still opens the panel after stats was remapped")
	}
	press(m, "ctrl+t")
	if !m.sp.Open() {
		t.Errorf("ctrl+t does not open the panel")
	}
	press(m, "esc", "?")
	if !strings.Contains(plainScreen(m), "memory stats") {
		t.Errorf("the help does not list the stats key:\n%s", plainScreen(m))
	}
}

// TestStats_RecallSection checks the panel's recall section comes from
// the recalls the model already read for the N× badges (the same Then,
// not a second read), agrees with the badges, and follows a new read.
func TestStats_RecallSection(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	dir := recallFixtureSessions(t)
	h := newEditHarnessIn(t, path, dir)
	m := h.m
	press(m, "i")
	if m.sp.Shown().History == nil || m.sp.Shown().History != h.m.recalled.History() {
		t.Fatalf("panel shows history %p, the model holds %p", m.sp.Shown().History, h.m.recalled.History())
	}
	recalled := 0
	for _, e := range m.c.snap.entries {
		if !recalledNone(&h.m.recalled, e) {
			recalled++
		}
	}
	r := m.sp.Stats().Recalls
	if r == nil || r.Recalls != h.m.recalled.Recalls() || r.Recalled != recalled || r.Never != len(m.c.snap.entries)-recalled {
		t.Fatalf("section %+v; the badges count %d recalled of %d, %d recalls", r, recalled, len(m.c.snap.entries), h.m.recalled.Recalls())
	}
	drive(m, resizeCmd(120, 200))
	scr := plainScreen(m)
	for _, want := range []string{
		fmt.Sprintf("recall history  %s in %s · %d of %s recalled", humanize.Plural(r.Recalls, "recorded recall"), humanize.Plural(r.Sessions, "session"), recalled, humanize.Plural(len(m.c.snap.entries), "entry")),
		"most recalled  (times returned then, as recorded)",
		"1×  N deploy-steps",
		fmt.Sprintf("never recalled  %s no recorded recall returned", humanize.Plural(r.Never, "entry")),
		"skipped: ",
	} {
		if !strings.Contains(scr, want) {
			t.Errorf("panel lacks %q:\n%s", want, scr)
		}
	}

	// The agent recalls db-migrations three times; a reload reads the
	// sessions again and the open panel follows.
	for i := range 3 {
		writeRecallSession(t, dir, fmt.Sprintf("crab_dana_%d", 90+i), "migrations", "db-migrations")
	}
	apply(t, path, store.Add{Name: "zz-new", Content: "x"})
	reload(m)
	if m.sp.Shown().History != h.m.recalled.History() {
		t.Fatalf("after the reload the panel shows an old history")
	}
	if scr := plainScreen(m); !strings.Contains(scr, "3×  N db-migrations") {
		t.Errorf("panel after new recalls:\n%s", scr)
	}
}

// TestStats_RecallSectionFits draws the panel with a recall history of
// wide names at widths 20–250: no line is wider than the terminal.
func TestStats_RecallSectionFits(t *testing.T) {
	t.Parallel() // every width on a model of its own: beside the other long tests
	var entries []store.Entry
	var names []string
	start := time.Date(2024, 1, 10, 0, 0, 0, 0, time.UTC)
	for i := range 30 {
		name := fmt.Sprintf("%d-日本語の名前の長いメモのタイトル-👨‍👩‍👧‍👦", i)
		entries = append(entries, store.Entry{ID: uint64(i + 1), Name: name, Kind: store.Kinds[i%3],
			CreatedAt: uint64(start.AddDate(0, i, 0).Unix()), Content: strings.Repeat("word ", i*40)})
		if i%6 == 0 { // five: the agent's default limit
			names = append(names, name)
		}
	}
	path := copyFixture(t, "crmem/small.db")
	writeEntries(t, path, entries)
	dir := recallFixtureSessions(t) // with its bad steps: the skipped line wraps
	writeRecallSession(t, dir, "crab_wide_1", "wide", names...)
	h := newEditHarnessIn(t, path, dir)
	h.sel(entries[0].Name) // empty: behind the panel the preview renders it again at every width
	press(h.m, "i")
	if r := h.m.sp.Stats().Recalls; r == nil || r.Recalled != len(names) {
		t.Fatalf("section %+v, want %d recalled", r, len(names))
	}
	for w := 20; w <= 250; w++ {
		drive(h.m, resizeCmd(w, 120))
		screen := ansi.Strip(checkScreenFits(t, h.m, w, fmt.Sprintf("stats panel with recalls at %dx120", w)))
		if !strings.Contains(screen, "never recalled") {
			t.Fatalf("at width %d the section is lost:\n%s", w, screen)
		}
	}
}

// TestStats_TitleKeepsItsCloseKeysWhenNarrow: on a narrow screen the
// panel's title gives up the scroll keys first (the help line names
// them), then the close keys, as the help's title does (seen at 40×12:
// "Memory stats  (↑/k ↓/j scroll · 1–6/59 ·", its close keys cut off).
func TestStats_TitleKeepsItsCloseKeysWhenNarrow(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 40, 12)
	press(m, "i")
	for _, w := range []int{40, 36} {
		drive(m, resizeCmd(w, 12))
		title := strings.Split(plainScreen(m), "\n")[1]
		if !strings.HasPrefix(title, "Memory stats") || !strings.Contains(title, "close)") {
			t.Errorf("at %d columns the title is %q", w, title)
		}
	}
}
