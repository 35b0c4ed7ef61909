package store_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

type searchCase struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
	Hits  []struct {
		Name  string  `json:"name"`
		Score float64 `json:"score"`
	} `json:"hits"`
}

func readSearchCases(t *testing.T, name string) []searchCase {
	t.Helper()
	var out []searchCase
	sc := bufio.NewScanner(bytes.NewReader(readFixture(t, name)))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c searchCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("no cases in %s", name)
	}
	return out
}

func closeScore(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// TestSearch_Fixtures opens the reference's files through Open (decode and
// index) and reproduces the reference's recall results. Equal scores are in
// arbitrary order in the reference, so tie groups compare as sets, and a tie
// group cut by the limit only has to match by score.
func TestSearch_Fixtures(t *testing.T) {
	for _, fx := range []struct{ db, cases string }{
		{"crmem/small.db", "search/small.jsonl"},
		{"crmem/small.db", "search/small.limit3.jsonl"},
		{"crmem/medium.db", "search/medium.jsonl"},
	} {
		t.Run(fx.cases, func(t *testing.T) {
			db, err := store.Open(filepath.Join(ref, fx.db))
			if err != nil {
				t.Fatal(err)
			}
			m := db.Memory()
			for _, c := range readSearchCases(t, fx.cases) {
				checkHits(t, m, c)
			}
		})
	}
}

func checkHits(t *testing.T, m *store.Memory, c searchCase) {
	t.Helper()
	hits := m.Search(c.Query, c.Limit)
	if len(hits) != len(c.Hits) {
		t.Errorf("%q: %d hits, want %d", c.Query, len(hits), len(c.Hits))
		return
	}
	for i := 0; i < len(hits); {
		j := i + 1
		for j < len(hits) && closeScore(c.Hits[j].Score, c.Hits[i].Score) {
			j++
		}
		var got, want []string
		for k := i; k < j; k++ {
			e, _ := m.Get(hits[k].ID)
			got = append(got, e.Name)
			want = append(want, c.Hits[k].Name)
			if !closeScore(hits[k].Score, c.Hits[k].Score) {
				t.Errorf("%q hit %d: %s %.17g, want %s %.17g", c.Query, k, e.Name, hits[k].Score,
					c.Hits[k].Name, c.Hits[k].Score)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		cut := j == len(hits) && len(hits) == c.Limit
		if !cut && !slices.Equal(got, want) {
			t.Errorf("%q hits %d..%d: %v, want %v", c.Query, i, j-1, got, want)
		}
		i = j
	}
}

// TestSearch_UpdateReindexes: after an update, search finds the new words
// and not the old ones; after a remove, nothing; after undo, the old again.
func TestSearch_UpdateReindexes(t *testing.T) {
	m := store.NewMemory(&store.File{NextID: 1})
	mustApply(t, m, store.Add{Name: "a", Content: "apples oranges"}, store.Add{Name: "b", Content: "bananas"})
	find := func(q string) []uint64 {
		var ids []uint64
		for _, h := range m.Search(q, 0) {
			ids = append(ids, h.ID)
		}
		return ids
	}
	changes := mustApply(t, m, store.Update{Name: "a", Content: "pears", Aliases: []string{"kiwis"}})
	if got := find("apples"); len(got) != 0 {
		t.Errorf("old word still found: %v", got)
	}
	if got := find("pears kiwis"); !slices.Equal(got, []uint64{1}) {
		t.Errorf("new words found %v, want [1]", got)
	}
	mustApply(t, m, store.Undo(changes)...)
	if got := find("apples"); !slices.Equal(got, []uint64{1}) {
		t.Errorf("after undo found %v, want [1]", got)
	}
	mustApply(t, m, store.Remove{Name: "a"})
	if got := find("apples"); len(got) != 0 {
		t.Errorf("removed entry found: %v", got)
	}
	if m.Index().Len() != 1 {
		t.Errorf("index holds %d documents, want 1", m.Index().Len())
	}
}

// TestSearch_SyncReindexes: a reload re-indexes what changed on disk.
func TestSearch_SyncReindexes(t *testing.T) {
	path := writeDB(t, 3, note(1, "a", "apples"), note(2, "b", "bananas"))
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	externalWrite(t, path, 4, note(1, "a", "cherries"), note(3, "c", "apples"))
	if _, err := db.Reload(); err != nil {
		t.Fatal(err)
	}
	hits := db.Memory().Search("apples cherries bananas", 0)
	var ids []uint64
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []uint64{1, 3}) {
		t.Errorf("hits %v, want [1 3]", ids)
	}
}

// TestOpenLazy: the entries are there at once; search waits for the index.
func TestOpenLazy(t *testing.T) {
	db, err := store.OpenLazy(filepath.Join(ref, "crmem/small.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := db.Memory()
	if m.Len() != 26 {
		t.Errorf("%d entries, want 26", m.Len())
	}
	if hits := m.Search("release", 10); len(hits) != 2 {
		t.Errorf("%d hits, want 2", len(hits))
	}
	if !m.IndexReady() {
		t.Error("index not ready after search")
	}
	// Apply during or after the build keeps the index in step.
	if _, err := m.Apply(now, store.Add{Name: "n", Content: "zebra"}); err != nil {
		t.Fatal(err)
	}
	if hits := m.Search("zebra", 0); len(hits) != 1 {
		t.Errorf("%d hits for a new word, want 1", len(hits))
	}
}

// TestStartBackground: a memory opened with IndexOnDemand builds nothing
// until StartBackground, which returns at once; then it searches, resolves
// names and takes writes as one built at open does, also with a write
// applied before the build started.
func TestStartBackground(t *testing.T) {
	path := filepath.Join(ref, "crmem/small.db")
	want, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
	if err != nil {
		t.Fatal(err)
	}
	m := db.Memory()
	if m.IndexReady() {
		t.Fatal("index built before StartBackground")
	}
	for _, mm := range []*store.Memory{want.Memory(), m} {
		if _, err := mm.Apply(now, store.Add{Name: "n", Content: "zebra release"}); err != nil {
			t.Fatal(err)
		}
	}
	m.StartBackground()
	m.StartBackground() // a second start is no second build
	m.WaitIndexed()
	if !m.IndexReady() {
		t.Fatal("index not ready after WaitIndexed")
	}
	for _, q := range []string{"release", "zebra", "deploy rollback", "the"} {
		if got, w := m.Search(q, 0), want.Memory().Search(q, 0); !slices.Equal(got, w) {
			t.Errorf("Search(%q) = %v, want %v", q, got, w)
		}
	}
	if _, ok := m.Lookup("n"); !ok {
		t.Error(`Lookup("n") found nothing`)
	}
}

// TestFileSearch_MatchesMemory: the one-pass search of a decoded file ranks
// exactly as the Memory made from it, entry for entry, also when ids repeat
// and do not ascend.
func TestFileSearch_MatchesMemory(t *testing.T) {
	dupIDs := store.Encode(9, []store.Entry{
		{ID: 5, Name: "a", Content: "deploy rollback deploy", Aliases: []string{}},
		{ID: 2, Name: "b", Content: "deploy canary", Aliases: []string{"rollback plan"}},
		{ID: 5, Name: "c", Content: "rollback only", Aliases: []string{}},
		{ID: 7, Name: "d", Content: "the of", Aliases: []string{}},
		{ID: 2, Name: "e", Content: "", Aliases: []string{}},
	})
	for _, tt := range []struct {
		name    string
		data    []byte
		queries []string
	}{
		{"small", readFixture(t, "crmem/small.db"), queryList(readSearchCases(t, "search/small.jsonl"))},
		{"medium", readFixture(t, "crmem/medium.db"), queryList(readSearchCases(t, "search/medium.jsonl"))},
		{"repeated ids", dupIDs, []string{"deploy", "rollback", "deploy rollback canary plan", "the"}},
		{"repeated ids out of order", repeatedIDs(), []string{"one", "two", "three", "one two three x y z"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, q := range tt.queries {
				for _, limit := range []int{0, 1, 3, 10} {
					f, err := store.Decode(tt.data)
					if err != nil {
						t.Fatal(err)
					}
					got := f.Search(q, limit)
					m := store.NewMemoryWith(f, store.IndexNow)
					want := m.Search(q, limit)
					if len(got) != len(want) {
						t.Fatalf("%q limit %d: %d hits, Memory %d", q, limit, len(got), len(want))
					}
					for i, w := range want {
						e, _ := m.Get(w.ID)
						if got[i].Score != w.Score || got[i].Entry.ID != w.ID || got[i].Entry.Name != e.Name {
							t.Errorf("%q limit %d hit %d: %s (%d) %.17g, Memory %s (%d) %.17g", q, limit, i, got[i].Entry.Name, got[i].Entry.ID, got[i].Score, e.Name, w.ID, w.Score)
						}
					}
				}
			}
		})
	}
}

func queryList(cases []searchCase) []string {
	qs := make([]string, len(cases))
	for i, c := range cases {
		qs[i] = c.Query
	}
	return qs
}
