package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
	"github.com/crmem/crmem/store/owner"
)

// copyStore copies a crabdb fixture into a temp dir as store.crmem.
func copyStore(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "crabdb", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "store.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestStore_BrowseSearchExplain(t *testing.T) {
	m := openModel(t, copyStore(t, "small.crmem"), 120, 40)
	if m.readOnly() || len(m.c.snap.entries) != 25 {
		t.Fatalf("read-only %v, %d entries", m.readOnly(), len(m.c.snap.entries))
	}
	if s := plainScreen(m); strings.Contains(s, "· id ") {
		t.Errorf("a store entry shows an id:\n%s", s)
	}
	press(m, "/")
	typeText(m, "depl")
	if got := listNames(m); len(got) < 4 || got[0] != "deploy-steps" {
		t.Fatalf("depl: %v", got)
	}
	// The store's recall of depl*: deploy-steps, long-note,
	// release-checklist, archive-sess-0001 (small.search.jsonl).
	_, parts, err := m.caps().Recall.Recall(m.result.recallQuery, maxHits)
	var got []string
	for _, h := range parts {
		got = append(got, h.Name)
	}
	want := []string{"deploy-steps", "long-note", "release-checklist", "archive-sess-0001-1767300000000000000"}
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") || len(storeHits(m.result)) != 4 {
		t.Errorf("recall of %q: %v %v, want %v", m.result.recallQuery, got, err, want)
	}
	if s := plainScreen(m); !strings.Contains(s, `store recall "depl*"`) {
		t.Errorf("the prefix search is not labelled:\n%s", s)
	}
	press(m, "enter", "x")
	s := plainScreen(m)
	for _, w := range []string{`store recall "depl*": score 4.8706`, "deployment*", "query terms: depl*", "stored stats: 23 documents, 876 tokens", "stored doc length 28 tokens"} {
		if !strings.Contains(s, w) {
			t.Errorf("explain lacks %q:\n%s", w, s)
		}
	}
	// A finished word (trailing space) is searched exactly. (esc backs out
	// one layer at a time: the explain view, then the search.)
	press(m, "esc", "esc", "/")
	typeText(m, "deploy ")
	if m.result.recallQuery != "deploy " || len(storeHits(m.result)) != 3 {
		t.Errorf("deploy: recall %q, %d hits", m.result.recallQuery, len(storeHits(m.result)))
	}
}

// TestStore_WriteActionsRefused: a store crmem cannot write (its tail
// is torn) is read-only: every write key is refused, the store untouched.
func TestStore_WriteActionsRefused(t *testing.T) {
	path := copyStore(t, "torn.crmem")
	before, _ := os.ReadFile(path)
	h := newEditHarnessIn(t, path, t.TempDir())
	selStore(t, h.m, "deploy-steps")
	for _, k := range []string{"e", "n", "r", "a", "d", "u", "D"} {
		h.m.st.msg = ""
		press(h.m, k)
		if h.m.st.msg != h.m.readOnlyMessage() || h.overlay() != "" {
			t.Errorf("%s: status %q, overlay %q", k, h.m.st.msg, ansi.Strip(h.overlay()))
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the store changed")
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("files beside the store: %v", ents)
	}
}

func TestStore_ArchiveReferencesFromColumn1(t *testing.T) {
	h := newEditHarnessIn(t, copyStore(t, "small.crmem"), t.TempDir())
	badges := map[string]string{}
	for _, e := range h.m.c.snap.entries {
		if b := ansi.Strip(h.m.sessionsBadge(e)); b != "" {
			badges[e.Name] = b
		}
	}
	// small.sessions.json: alice-deploy resumes from archive-sess-0004;
	// bob-db and carol-frontend name archives the store lacks.
	if len(badges) != 1 || badges["archive-sess-0004-1767600000000000000"] != " ↺1" {
		t.Errorf("badges %q", badges)
	}
	selStore(t, h.m, "archive-sess-0004-1767600000000000000")
	if s := plainScreen(h.m); !strings.Contains(s, "resume point of alice-deploy") {
		t.Errorf("card:\n%s", s)
	}
	selStore(t, h.m, "archive-sess-0005-1767700000000000000")
	if s := plainScreen(h.m); !strings.Contains(s, "sessions none (orphan") {
		t.Errorf("orphan card:\n%s", s)
	}
}

func TestStore_WatchAppendTornAndCompaction(t *testing.T) {
	path := copyStore(t, "small.crmem")
	m := openModel(t, path, 120, 40)
	src := m.c.db.(*store.DB).Backend().(*crabdb.Source) // the test reads how the reload went
	rec := crabdbtest.Record(crabdb.OpPut, crabdb.ColMemory, "local/memory/zz-new",
		`{"name":"zz-new","kind":"note","content":"appended by the daemon","aliases":[],"created_at":"2026-08-21T10:00:00.5+00:00"}`)

	if s := plainScreen(m); strings.Contains(s, "read-only") || strings.Contains(s, "torn") {
		t.Errorf("status line:\n%s", s)
	}
	// Half a record: nothing shows; the torn tail is said, not an error.
	crabdbtest.Append(t, path, rec[:len(rec)/2])
	reload(m)
	if src.LastReload() != crabdb.Appended || len(m.c.snap.entries) != 25 || m.st.fileWarning != "" {
		t.Fatalf("half record: %v, %d entries, warning %q", src.LastReload(), len(m.c.snap.entries), m.st.fileWarning)
	}
	if s := plainScreen(m); !strings.Contains(s, "⚠ torn record at offset 110751") {
		t.Errorf("torn tail not said:\n%s", s)
	}
	// The rest of it: the entry appears, read from the new bytes only.
	crabdbtest.Append(t, path, rec[len(rec)/2:])
	reload(m)
	if src.LastReload() != crabdb.Appended || len(m.c.snap.entries) != 26 || !strings.Contains(plainScreen(m), "reloaded: +1") {
		t.Fatalf("whole record: %v, %d entries\n%s", src.LastReload(), len(m.c.snap.entries), plainScreen(m))
	}
	// A forget.
	crabdbtest.Append(t, path, crabdbtest.Record(crabdb.OpDelete, crabdb.ColMemory, "local/memory/scratch", ""))
	reload(m)
	if len(m.c.snap.entries) != 25 || !strings.Contains(plainScreen(m), "reloaded: −1 scratch") {
		t.Fatalf("forget: %d entries\n%s", len(m.c.snap.entries), plainScreen(m))
	}
	// A compaction renames another file over the store: read again.
	compacted, _ := os.ReadFile(filepath.Join("..", "testdata", "reference", "crabdb", "compacted.crmem"))
	tmp := filepath.Join(filepath.Dir(path), "store.tmp")
	os.WriteFile(tmp, compacted, 0o600)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	reload(m)
	if src.LastReload() != crabdb.Reread || len(m.c.snap.entries) != 25 {
		t.Fatalf("compaction: %v, %d entries", src.LastReload(), len(m.c.snap.entries))
	}
	names := map[string]bool{}
	for _, e := range m.c.snap.entries {
		names[e.Name] = true
	}
	if names["zz-new"] || !names["scratch"] {
		t.Errorf("after compaction: %v", names)
	}
	// A bad append keeps the last good state with a warning.
	crabdbtest.Append(t, path, []byte{7, 0, 0, 0, 0, 0})
	reload(m)
	if !strings.Contains(m.st.fileWarning, "unknown record op 7") || len(m.c.snap.entries) != 25 {
		t.Errorf("bad append: warning %q, %d entries", m.st.fileWarning, len(m.c.snap.entries))
	}
}

// selStore selects the entry called name in a model on a store.
func selStore(t *testing.T, m *Model, name string) {
	t.Helper()
	e, ok := m.memory().Lookup(name)
	if !ok || !m.list.SelectID(m.c.snap, e.ID) {
		t.Fatalf("%s is not listed", name)
	}
	drive(m, m.showSelected())
}

func TestStoreQuery(t *testing.T) {
	for q, want := range map[string]string{
		"":              "",
		"depl":          "depl*",
		"deploy ":       "deploy ",
		"deploy roll":   "deploy roll*",
		"depl*":         "depl*",
		"deploy,":       "deploy,",
		"σο":            "σο*",
		"東京":            "東京*",
		"resolve_dirs(": "resolve_dirs(",
	} {
		if got := storeQuery(q); got != want {
			t.Errorf("storeQuery(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestExplain_OneViewForBothFormats: the explain view is one view over the
// recall's own parts (store.Part) whatever the format: crabtalk's store's
// says how to leave it and lays its parts out as a v1 file's does (it had
// a view of its own, without the EXPLAIN line), and what differs is only
// what the data says: stored lengths, stats and weights, df counted in
// posting rows. The parameters are bm25's, written once.
func TestExplain_OneViewForBothFormats(t *testing.T) {
	params := fmt.Sprintf("k1 = %.1f, b = %.2f", bm25.K1, bm25.B)
	st := openModel(t, copyStore(t, "small.crmem"), 120, 40)
	press(st, "/")
	typeText(st, "depl")
	press(st, "enter", "x")
	v1 := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	press(v1, "/")
	typeText(v1, "deploy")
	press(v1, "enter", "x")
	for name, c := range map[string]struct {
		m          *Model
		want, lack []string
	}{
		"store": {st, []string{"EXPLAIN (x or esc: back to the content)", "term ", "deployment* ", "stored doc length 28 tokens, weight 1", params + "; df = posting rows"}, []string{"indexed entries"}},
		"v1":    {v1, []string{"EXPLAIN (x or esc: back to the content)", "term ", "indexed entries", params + "\n"}, []string{"stored", "posting rows"}},
	} {
		s := ansi.Strip(c.m.pv.Content()) + "\n"
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: explain lacks %q:\n%s", name, w, s)
			}
		}
		for _, w := range c.lack {
			if strings.Contains(s, w) {
				t.Errorf("%s: explain says %q:\n%s", name, w, s)
			}
		}
	}
}

// TestExplain_StoreTotalsWrapOnANarrowPane: on a narrow preview the
// store's explain view wraps its totals, as the v1 view does, instead of
// cutting them ("stored stats: 23 documents, 876 tokens (average 38.…").
func TestExplain_StoreTotalsWrapOnANarrowPane(t *testing.T) {
	m := openModel(t, copyStore(t, "small.crmem"), 80, 40)
	press(m, "/")
	typeText(m, "depl")
	press(m, "enter", "x")
	s := squeeze(ansi.Strip(m.pv.Content()))
	for _, w := range []string{"storedstats:23documents,876tokens(average38.09)", "k1=1.2,b=0.75;df=postingrows"} {
		if !strings.Contains(s, w) {
			t.Errorf("the totals lack %q:\n%s", w, m.pv.Content())
		}
	}
}

// TestExplain_TermsNeverCut: on a narrow pane the explain view shows
// each term whole, even wider than its column (seen: depl* explained as
// three rows of "deploy…", deployed, deployment and deployments cut
// alike), and its query line wraps rather than ending in "…".
func TestExplain_TermsNeverCut(t *testing.T) {
	m := openModel(t, copyStore(t, "small.crmem"), 80, 40)
	press(m, "/")
	typeText(m, "depl")
	press(m, "enter", "x")
	view := ansi.Strip(m.pv.Content())
	for _, w := range []string{"deployed*", "deployment*", "deployments*"} {
		if !strings.Contains(view, w) {
			t.Errorf("the explain view lacks the term %q whole:\n%s", w, view)
		}
	}
	if strings.Contains(view, "…") {
		t.Errorf("the explain view cuts a line:\n%s", view)
	}
	if s := squeeze(view); !strings.Contains(s, "(term*=prefixmatch)") {
		t.Errorf("the query line is not whole:\n%s", view)
	}
}

// TestStore_ReadOnlyWhileTheDaemonRuns: a store crmem can write is
// read-only while the daemon check finds crabtalk running: the status
// says so, a write key names the process and how to stop it and writes
// nothing; once the check finds it stopped, the same key writes again.
func TestStore_ReadOnlyWhileTheDaemonRuns(t *testing.T) {
	path := copyStore(t, "small.crmem")
	before, _ := os.ReadFile(path)
	h := newEditHarnessIn(t, path, t.TempDir())
	selStore(t, h.m, "deploy-steps")
	if h.m.readOnly() {
		t.Fatal("the store is read-only before the daemon runs")
	}
	running := &owner.RunningError{Store: path, Holder: owner.Holder{PID: 4242, Name: "crabtalkd", FD: 7}}
	drive(h.m, func() tea.Msg { return daemonMsg{up: true, running: running} })
	if !h.m.readOnly() {
		t.Fatal("the store is writable while crabtalk runs")
	}
	if s := plainScreen(h.m); !strings.Contains(s, "read-only while crabtalk runs") {
		t.Errorf("the screen does not say it is read-only while crabtalk runs:\n%s", s)
	}
	h.m.st.msg = ""
	press(h.m, "d")
	if msg := h.m.st.msg; !strings.Contains(msg, "read-only while crabtalk runs") || !strings.Contains(msg, "4242") || h.overlay() != "" {
		t.Errorf("d while crabtalk runs: status %q, overlay %q", msg, ansi.Strip(h.overlay()))
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the store changed while crabtalk runs")
	}
	drive(h.m, func() tea.Msg { return daemonMsg{} })
	if h.m.readOnly() {
		t.Fatal("the store stays read-only after crabtalk stopped")
	}
	press(h.m, "d")
	if !strings.Contains(ansi.Strip(h.overlay()), "delete") {
		t.Errorf("d after crabtalk stopped asks nothing: overlay %q, status %q", ansi.Strip(h.overlay()), h.m.st.msg)
	}
}

// TestStore_LongWarningShownWhole: a store's warning too long to share
// the status line with the figures (a torn tail, the repair of crmem's
// unfinished append: 150 characters) goes above it, wrapped and whole,
// and the counts stay on the status line. At 100 columns the repair's
// warning was cut at the screen's edge with the counts after it (seen).
func TestStore_LongWarningShownWhole(t *testing.T) {
	path := copyStore(t, "torn.crmem")
	for _, w := range []int{60, 80} {
		m := openModel(t, path, w, 24)
		warns := m.caps().Warnings
		if len(warns) == 0 {
			t.Fatal("torn.crmem gives no warning: the test proves nothing")
		}
		long := "⚠ " + warns[0]
		if len(long) <= w-40 {
			t.Fatalf("warning %q fits beside the counts at %d columns: the test proves nothing", long, w)
		}
		lines := m.statusLines()
		status := ansi.Strip(lines[len(lines)-1])
		if !strings.Contains(status, m.countsText()) && !strings.Contains(status, m.shortCounts()) {
			t.Errorf("%d columns: status line %q lacks the counts %q", w, status, m.countsText())
		}
		squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if above := ansi.Strip(strings.Join(lines[:len(lines)-1], " ")); squeeze(above) != squeeze(long) {
			t.Errorf("%d columns: above the status line %q, want the whole warning %q", w, above, long)
		}
		if s := plainScreen(m); !strings.Contains(squeeze(s), squeeze(long)) {
			t.Errorf("%d columns: the warning is not on screen whole:\n%s", w, s)
		}
	}
}
