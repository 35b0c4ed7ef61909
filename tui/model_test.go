package tui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/list"
)

// fixtureQuery is one line of search/small.jsonl.
type fixtureQuery struct {
	Query string `json:"query"`
	Hits  []struct {
		Name  string  `json:"name"`
		Score float64 `json:"score"`
	} `json:"hits"`
}

func readQueries(t *testing.T) map[string]fixtureQuery {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "reference", "search", "small.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]fixtureQuery{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q fixtureQuery
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		out[q.Query] = q
	}
	return out
}

func TestSearch_BestHitSelectedAndRecallOrder(t *testing.T) {
	queries := readQueries(t)
	tests := []struct {
		query string // typed; a trailing space means the last word is finished
		want  string // fixture query whose hits are the recall section
	}{
		{"connection pool deadlock ", "connection pool deadlock"},
		{"canary rollback promote ", "canary rollback promote"},
		{"ΣΟΦΟΣ ", "ΣΟΦΟΣ"},
		{"pool timeout ", "pool timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
			press(m, "/")
			typeText(m, tt.query)
			press(m, "enter")
			want := queries[tt.want].Hits
			var recall []string
			for _, r := range m.list.Rows() {
				if r.Header == "" && r.Hit == hitExact {
					recall = append(recall, m.c.snap.entries[r.Idx].Name)
				}
			}
			var names []string
			for _, h := range want {
				names = append(names, h.Name)
			}
			if !slices.Equal(recall, names) {
				t.Errorf("recall section %v, want %v", recall, names)
			}
			if got := selectedName(m); got != listNames(m)[0] {
				t.Errorf("selected %q, want the best hit %q", got, listNames(m)[0])
			}
			if m.bar.Typing() {
				t.Error("enter did not return to the list")
			}
		})
	}
}

func TestSearch_NameMatchesFirstAndPrefixLabelled(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "/")
	typeText(m, "deplo")
	if got := selectedName(m); got != "deploy-steps" {
		t.Errorf("selected %q, want the name match deploy-steps", got)
	}
	if h := headers(m); len(h) < 2 || !strings.HasPrefix(h[0], "name matches") || !strings.HasPrefix(h[len(h)-1], "prefix matches") {
		t.Errorf("section headers %v, want name matches … prefix matches", h)
	}
	if !slices.Contains(m.result.expansions, "deploy") {
		t.Errorf("expansions %v lack deploy", m.result.expansions)
	}
	for _, r := range m.list.Rows() {
		if r.Header == "" && r.Hit == hitPrefix && m.c.snap.entries[r.Idx].Name == "long-note" {
			return
		}
	}
	t.Errorf("long-note not listed as a prefix match: %v", listNames(m))
}

func TestSearch_FinishedWordIsNotExpanded(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "/")
	typeText(m, "deplo ")
	if len(m.result.expansions) != 0 || m.result.PrefixOnly != 0 {
		t.Errorf("expanded a finished word: %v", m.result.expansions)
	}
}

func TestSearch_StaleResultDropped(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "/")
	m.bar.Input.Insert("alice")
	old := m.querySet() // search #1, not yet delivered
	m.bar.Input.Insert(" ")
	m.bar.Input.Reset()
	m.bar.Input.Insert("istanbul ")
	drive(m, m.querySet()) // search #2 lands first
	drive(m, old)          // then #1 arrives late
	if m.applied != "istanbul " || selectedName(m) != "turkish-istanbul" {
		t.Errorf("after a stale result: query %q, selected %q", m.applied, selectedName(m))
	}
}

// Typing back to the query already shown must still drop the search the
// intermediate keystroke started.
func TestSearch_BackToAppliedQueryDropsTheSearchInFlight(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "/")
	typeText(m, "istanbul") // applied
	m.bar.Input.Insert(" alice")
	inFlight := m.querySet() // "istanbul alice", not yet delivered
	m.bar.Input.Reset()
	m.bar.Input.Insert("istanbul") // back to the applied query
	drive(m, m.querySet())
	drive(m, inFlight)
	if m.applied != "istanbul" || selectedName(m) != "turkish-istanbul" {
		t.Errorf("a search for an abandoned query landed: applied %q, selected %q", m.applied, selectedName(m))
	}
}

func TestSearch_EscClearsAndRestoresOrder(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "s", "s") // name order
	press(m, "/")
	typeText(m, "alice")
	if m.list.Order != sortRelevance {
		t.Fatalf("order while searching %v", m.list.Order)
	}
	press(m, "esc")
	if m.list.Order != sortName || m.result != nil || m.bar.Input.Value() != "" || m.bar.Typing() {
		t.Errorf("after esc: order %v, result %v, input %q, typing %v", m.list.Order, m.result != nil, m.bar.Input.Value(), m.bar.Typing())
	}
	if len(listNames(m)) != 26 {
		t.Errorf("list has %d entries after esc, want 26", len(listNames(m)))
	}
}

func TestFilters(t *testing.T) {
	tests := []struct {
		key  string
		want int
		kind store.Kind
	}{
		{"2", 22, store.Note},
		{"3", 4, store.Archive},
		{"4", 0, store.Topic},
		{"1", 26, 0},
	}
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "G") // the oldest note: not an archive, so "3" must select the first archive
	for _, tt := range tests {
		press(m, tt.key)
		first := slices.IndexFunc(m.list.Rows(), list.Row.IsEntry)
		if first >= 0 && tt.key == "3" && m.list.Cursor() != first {
			t.Errorf("key 3 left the cursor on row %d, want the first archive (row %d)", m.list.Cursor(), first)
		}
		got := m.listedEntries()
		if len(got) != tt.want {
			t.Errorf("key %s: %d entries, want %d", tt.key, len(got), tt.want)
		}
		for _, e := range got {
			if tt.key != "1" && e.Kind != tt.kind {
				t.Errorf("key %s lists %s of kind %s", tt.key, e.Name, e.Kind)
			}
		}
	}
}

func TestSortOrdersAndDateGroups(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	names := listNames(m)
	if names[0] != "final-note" || names[len(names)-1] != "deploy-steps" {
		t.Errorf("newest first: %v", names)
	}
	if h := headers(m); !slices.Equal(h[:2], []string{"January 2026", "Fri 2 Jan"}) || !slices.Contains(h, "Thu 1 Jan") {
		t.Errorf("date headers %v", h)
	}
	press(m, "s") // oldest
	if names := listNames(m); names[0] != "deploy-steps" {
		t.Errorf("oldest first: %v", names)
	}
	press(m, "s") // name
	names = listNames(m)
	if !slices.IsSorted(names) || len(headers(m)) != 0 {
		t.Errorf("by name: %v, headers %v", names, headers(m))
	}
	press(m, "s") // size
	es := m.listedEntries()
	if !slices.IsSortedFunc(es, func(a, b store.Entry) int { return len(b.Content) - len(a.Content) }) || es[0].Name != "long-note" {
		t.Errorf("by size: %v", listNames(m))
	}
	press(m, "s") // back to newest (no relevance without a query)
	if m.list.Order != sortNewest {
		t.Errorf("cycle without a query went to %v", m.list.Order)
	}
}

func TestNavigationSkipsHeaders(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "G")
	if selectedName(m) != "deploy-steps" {
		t.Errorf("G selected %q", selectedName(m))
	}
	press(m, "g")
	if selectedName(m) != "final-note" {
		t.Errorf("g selected %q", selectedName(m))
	}
	for range 30 {
		press(m, "j")
		if _, ok := m.list.Selected(); !ok {
			t.Fatal("cursor on a header")
		}
	}
}

func TestReload_KeepsSelectionMarksAndSearch(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	press(m, "/")
	typeText(m, "pool ")
	press(m, "enter")
	press(m, "j")
	sel := selectedName(m)
	keep, _ := m.writer().Memory().Lookup("alice-preferences")
	gone, _ := m.writer().Memory().Lookup("scratch")
	m.setMarked(keep.ID, true)
	m.setMarked(gone.ID, true)
	apply(t, path,
		store.Add{Name: "pool-notes", Content: "pool sizing for the connection pool"},
		store.Remove{Name: "scratch"},
		store.Write{Name: "long-note", Content: "pool pool pool"},
	)
	reload(m)
	if got := selectedName(m); got != sel {
		t.Errorf("selection %q after reload, want %q", got, sel)
	}
	if !m.marks.Has(keep.ID) || m.marks.Has(gone.ID) {
		t.Errorf("marks after reload: kept %v, removed %v", m.marks.Has(keep.ID), m.marks.Has(gone.ID))
	}
	if m.applied != "pool " || !slices.Contains(listNames(m), "pool-notes") {
		t.Errorf("search not re-run: query %q, list %v", m.applied, listNames(m))
	}
	if !strings.Contains(m.st.msg, "reloaded: +1 pool-notes · −1 scratch · ~1 long-note") {
		t.Errorf("status message %q", m.st.msg)
	}
}

func TestReload_InvalidFileKeepsLastGoodState(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	press(m, "j", "j")
	sel := selectedName(m)
	bad, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "bad", "truncated-mid-entry.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	reload(m)
	if !strings.Contains(m.st.fileWarning, "truncated body") || len(listNames(m)) != 26 || selectedName(m) != sel {
		t.Errorf("after a bad write: warning %q, %d entries, selected %q", m.st.fileWarning, len(listNames(m)), selectedName(m))
	}
	if !strings.Contains(plainScreen(m), "truncated body") {
		t.Error("warning not on screen")
	}
	good, _ := os.ReadFile(filepath.Join("..", "testdata", "reference", "crmem", "small.db"))
	os.WriteFile(path, good, 0o600)
	apply(t, path, store.Write{Name: "scratch", Content: "back"})
	reload(m)
	if m.st.fileWarning != "" || selectedName(m) != sel {
		t.Errorf("after a good write: warning %q, selected %q", m.st.fileWarning, selectedName(m))
	}
}

func TestReload_DeletedFileWarnsAndRecovers(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	data, _ := os.ReadFile(path)
	os.Remove(path)
	reload(m)
	if !strings.Contains(m.st.fileWarning, "deleted") || len(listNames(m)) != 26 {
		t.Errorf("after delete: warning %q, %d entries", m.st.fileWarning, len(listNames(m)))
	}
	os.WriteFile(path, data, 0o600)
	apply(t, path, store.Add{Name: "new", Content: "x"})
	reload(m)
	if m.st.fileWarning != "" || len(listNames(m)) != 27 {
		t.Errorf("after it reappeared: warning %q, %d entries", m.st.fileWarning, len(listNames(m)))
	}
}

func TestResize_OnePaneBelow80Columns(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	if !strings.Contains(plainScreen(m), "┃") {
		t.Fatal("no pane separator (heavy: the list has the focus) at 120 columns")
	}
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 70, Height: 24} })
	screen := plainScreen(m)
	lines := strings.Split(screen, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines at height 24", len(lines))
	}
	if !strings.Contains(screen, "final-note") || strings.Contains(screen, "╭") {
		t.Errorf("one-pane list screen:\n%s", screen)
	}
	press(m, "tab")
	if screen := plainScreen(m); !strings.Contains(screen, "┏") || strings.Contains(lines[2], "final-note") && strings.Contains(screen, "deploy-steps  ") {
		t.Errorf("one-pane preview screen:\n%s", screen)
	}
	for _, l := range strings.Split(plainScreen(m), "\n") {
		if w := len([]rune(l)); w > 70 {
			t.Errorf("line wider than 70: %q", l)
		}
	}
}

func TestExplain_TotalEqualsSearchScore(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "/")
	typeText(m, "deploy pool")
	press(m, "enter")
	ix := m.index()
	checked := 0
	for _, r := range m.list.Rows() {
		if !r.IsEntry() {
			continue
		}
		q, _ := explainQuery(m.result, r)
		ex := ix.Explain(q, m.c.snap.entries[r.Idx].ID)
		if math.Abs(ex.Score-r.Score) > 1e-9*math.Max(1, r.Score) {
			t.Errorf("%s: explain total %v, search score %v", m.c.snap.entries[r.Idx].Name, ex.Score, r.Score)
		}
		checked++
	}
	if checked < 2 {
		t.Fatalf("only %d hits checked", checked)
	}
	press(m, "x")
	if !strings.Contains(plainScreen(m), "total = ") {
		t.Errorf("explain view not shown:\n%s", plainScreen(m))
	}
}

func TestSanitizedScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "evil\x1b]2;pwned\x07name", CreatedAt: 1767265200, Aliases: []string{"a\x1b[2Jb"},
			Content: "# Title\n\x1b]52;c;ZXZpbA==\x07clip &#27;]2;pwned&#7; and \u009b31m\rhidden"},
	})
	m := openModel(t, path, 120, 40)
	m.pv.ForgetRenderings()
	drive(m, m.showSelected()) // rendered afresh, as shown
	screen := m.screen()
	rest := sgr.ReplaceAllString(screen, "")
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u009b"} {
		if strings.Contains(rest, bad) {
			t.Errorf("screen keeps %q:\n%q", bad, rest)
		}
	}
	// marked, what the escapes held shown (issue 10 item 14, issue 29 items 3, 4)
	for _, want := range []string{"evil⟨U+001B⟩]2;pwned⟨U+0007⟩name", "a⟨U+001B⟩[2Jb", "⟨U+001B⟩]52;c;ZXZpbA==⟨U+0007⟩clip", "⟨U+009B⟩31m⟨U+000D⟩hidden"} {
		if !strings.Contains(squeeze(plainScreen(m)), squeeze(want)) {
			t.Errorf("screen lacks %q:\n%s", want, plainScreen(m))
		}
	}
}

func TestPreviewScrollsWithTheListKeys(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 20)
	m.list.SelectID(m.c.snap, 19) // long-note: longer than the pane
	drive(m, m.showSelected())
	press(m, "tab", "j", "j")
	if y := m.pv.Offset(); y != 2 {
		t.Errorf("after j j the preview is at line %d, want 2", y)
	}
	press(m, "G")
	if !m.pv.AtBottom() {
		t.Error("G did not scroll the preview to the bottom")
	}
	press(m, "g")
	if m.pv.Offset() != 0 || selectedName(m) != "long-note" {
		t.Errorf("g: offset %d, selected %q", m.pv.Offset(), selectedName(m))
	}
	press(m, "pgdown")
	y := m.pv.Offset()
	apply(t, m.path, store.Write{Name: "scratch", Content: "changed elsewhere"})
	reload(m)
	if m.pv.Offset() != y || y == 0 || selectedName(m) != "long-note" {
		t.Errorf("after a reload the preview is at line %d (was %d), selected %q", m.pv.Offset(), y, selectedName(m))
	}
}

func TestMissingFileIsAnEmptyMemoryUntilWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	m := openModel(t, path, 120, 40)
	reload(m) // as after the watcher starts
	if !strings.Contains(plainScreen(m), "No memory file yet") || m.st.fileWarning != "" {
		t.Errorf("missing file not explained, or warned as deleted (%q):\n%s", m.st.fileWarning, plainScreen(m))
	}
	apply(t, path, store.Add{Name: "first", Content: "hello"})
	reload(m)
	if selectedName(m) != "first" {
		t.Errorf("after the first write: selected %q", selectedName(m))
	}
}

func TestRender_ResizeRendersAtTheNewWidth(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	before := m.pv.RenderKey()
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 100, Height: 40} })
	if m.pv.RenderKey().Width() == before.Width() || m.pv.Pending() {
		t.Errorf("after resize: width %d (was %d), pending %v", m.pv.RenderKey().Width(), before.Width(), m.pv.Pending())
	}
	if !m.pv.Cached(m.pv.RenderKey()) {
		t.Error("no rendering at the new width")
	}
}

func TestReload_EventDuringFirstOpenWaitsAndRunsAfter(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
	m.Init()                     // its open is read below; the rest is not run
	first := openCmd(path, "")() // the open, reading the file as it was
	apply(t, path, store.Add{Name: "written-during-open", Content: "x"})
	reload(m) // the watcher's event arrives while the open is in flight
	drive(m, func() tea.Msg { return first })
	if !slices.Contains(listNames(m), "written-during-open") {
		t.Errorf("the write during the open is lost: %v", listNames(m))
	}
	if m.w.reloading || m.w.again {
		t.Errorf("read still marked in flight: reloading %v, again %v", m.w.reloading, m.w.again)
	}
}

// The word being typed splits and lowercases as the tokenizer does: İ
// lowercases to i̇, so "İst" expands to the index's i̇stanbul.
func TestSearch_PrefixWordLowercasesAsTheTokenizer(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(m, "/")
	typeText(m, "İst")
	if !slices.Contains(m.result.expansions, "i\u0307stanbul") {
		t.Errorf("expansions of İst %q, want i̇stanbul", m.result.expansions)
	}
}

// An old entry named (or aliased) exactly the query is listed first even
// when more than maxHits newer names contain it.
func TestSearch_ExactNameBeyondTheCapListedFirst(t *testing.T) {
	es := []store.Entry{
		{ID: 1, Name: "api", CreatedAt: 1_700_000_000, Content: "the old one"},
		{ID: 2, Name: "gateway", Aliases: []string{"API"}, CreatedAt: 1_700_000_001, Content: "aliased"},
	}
	for i := range maxHits + 50 {
		id := uint64(len(es) + 1)
		es = append(es, store.Entry{ID: id, Name: fmt.Sprintf("rapid-%04d", i), CreatedAt: 1_700_001_000 + id, Content: "newer"})
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, es)
	m := openModel(t, path, 120, 40)
	press(m, "/")
	typeText(m, "API")
	names := listNames(m)
	if len(names) < 2 || !slices.Equal(slices.Sorted(slices.Values(names[:2])), []string{"api", "gateway"}) {
		t.Errorf("first listed %v, want api and gateway", names[:min(len(names), 3)])
	}
	if n := len(m.result.Names); n != maxHits {
		t.Errorf("%d name matches listed, want the cap %d", n, maxHits)
	}
	if n := m.result.NameTotal; n != maxHits+52 {
		t.Errorf("name matches counted %d, want all %d", n, maxHits+52)
	}
}
