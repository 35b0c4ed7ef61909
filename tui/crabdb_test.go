package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
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
	if m.readOnly() || len(m.snap.entries) != 25 {
		t.Fatalf("read-only %v, %d entries", m.readOnly(), len(m.snap.entries))
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
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") || len(m.result.storeHits) != 4 {
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
	if m.result.recallQuery != "deploy " || len(m.result.storeHits) != 3 {
		t.Errorf("deploy: recall %q, %d hits", m.result.recallQuery, len(m.result.storeHits))
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
		if h.m.st.msg != readOnlyMessage() || h.overlay() != "" {
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
	for _, e := range h.m.snap.entries {
		if b := ansi.Strip(h.f.rowBadge(h.m, e)); b != "" {
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
	src := m.db.(*store.DB).Backend().(*crabdb.Source) // the test reads how the reload went
	rec := crabdbtest.Record(crabdb.OpPut, crabdb.ColMemory, "local/memory/zz-new",
		`{"name":"zz-new","kind":"note","content":"appended by the daemon","aliases":[],"created_at":"2026-08-21T10:00:00.5+00:00"}`)

	if s := plainScreen(m); strings.Contains(s, "read-only") || strings.Contains(s, "torn") {
		t.Errorf("status line:\n%s", s)
	}
	// Half a record: nothing shows; the torn tail is said, not an error.
	crabdbtest.Append(t, path, rec[:len(rec)/2])
	reload(m)
	if src.LastReload() != crabdb.Appended || len(m.snap.entries) != 25 || m.st.fileWarning != "" {
		t.Fatalf("half record: %v, %d entries, warning %q", src.LastReload(), len(m.snap.entries), m.st.fileWarning)
	}
	if s := plainScreen(m); !strings.Contains(s, "⚠ torn record at offset 110751") {
		t.Errorf("torn tail not said:\n%s", s)
	}
	// The rest of it: the entry appears, read from the new bytes only.
	crabdbtest.Append(t, path, rec[len(rec)/2:])
	reload(m)
	if src.LastReload() != crabdb.Appended || len(m.snap.entries) != 26 || !strings.Contains(plainScreen(m), "reloaded: +1") {
		t.Fatalf("whole record: %v, %d entries\n%s", src.LastReload(), len(m.snap.entries), plainScreen(m))
	}
	// A forget.
	crabdbtest.Append(t, path, crabdbtest.Record(crabdb.OpDelete, crabdb.ColMemory, "local/memory/scratch", ""))
	reload(m)
	if len(m.snap.entries) != 25 || !strings.Contains(plainScreen(m), "reloaded: −1 scratch") {
		t.Fatalf("forget: %d entries\n%s", len(m.snap.entries), plainScreen(m))
	}
	// A compaction renames another file over the store: read again.
	compacted, _ := os.ReadFile(filepath.Join("..", "testdata", "reference", "crabdb", "compacted.crmem"))
	tmp := filepath.Join(filepath.Dir(path), "store.tmp")
	os.WriteFile(tmp, compacted, 0o600)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	reload(m)
	if src.LastReload() != crabdb.Reread || len(m.snap.entries) != 25 {
		t.Fatalf("compaction: %v, %d entries", src.LastReload(), len(m.snap.entries))
	}
	names := map[string]bool{}
	for _, e := range m.snap.entries {
		names[e.Name] = true
	}
	if names["zz-new"] || !names["scratch"] {
		t.Errorf("after compaction: %v", names)
	}
	// A bad append keeps the last good state with a warning.
	crabdbtest.Append(t, path, []byte{7, 0, 0, 0, 0, 0})
	reload(m)
	if !strings.Contains(m.st.fileWarning, "unknown record op 7") || len(m.snap.entries) != 25 {
		t.Errorf("bad append: warning %q, %d entries", m.st.fileWarning, len(m.snap.entries))
	}
}

// selStore selects the entry called name in a model on a store.
func selStore(t *testing.T, m *Model, name string) {
	t.Helper()
	e, ok := m.memory().Lookup(name)
	if !ok || !m.list.selectID(m.snap, e.ID) {
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
