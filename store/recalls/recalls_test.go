package recalls

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// openSmall opens a copy of the reference small.db (written by the
// reference implementation).
func openSmall(t testing.TB) *store.DB {
	t.Helper()
	data, err := os.ReadFile("../../testdata/reference/crmem/small.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestReplayMatchesReference replays the reference's queries in parallel
// and gets the reference recall's names at limits 10 and 3.
func TestReplayMatchesReference(t *testing.T) {
	rank := SourceRanker(openSmall(t))
	for _, file := range []string{"small.jsonl", "small.limit3.jsonl"} {
		f, err := os.Open(filepath.Join("../../testdata/reference/search", file))
		if err != nil {
			t.Fatal(err)
		}
		var qs []Query
		var want [][]string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var line struct {
				Query string
				Limit int
				Hits  []struct{ Name string }
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				t.Fatal(err)
			}
			names := []string{}
			for _, h := range line.Hits {
				names = append(names, h.Name)
			}
			qs, want = append(qs, Query{line.Query, line.Limit}), append(want, names)
		}
		f.Close()
		got, err := Replay(rank, qs, 4)
		if err != nil {
			t.Fatal(err)
		}
		for i := range qs {
			if !slices.Equal(got[i].Names, want[i]) && len(got[i].Names)+len(want[i]) > 0 {
				t.Errorf("%s: %q limit %d: %q, want %q", file, qs[i].Text, qs[i].Limit, got[i].Names, want[i])
			}
		}
	}
}

func TestReplayLimitZeroAndError(t *testing.T) {
	rank := SourceRanker(openSmall(t))
	if got, err := rank("deploy", 0); err != nil || len(got.Names) != 0 {
		t.Errorf("limit 0: %q, %v; want nothing, as crabtalk", got.Names, err)
	}
	boom := errors.New("boom")
	_, err := Replay(func(q string, _ int) (Ranked, error) {
		if q == "b" {
			return Ranked{}, boom
		}
		return Ranked{}, nil
	}, []Query{{"a", 1}, {"b", 1}, {"c", 1}}, 2)
	if !errors.Is(err, boom) {
		t.Errorf("err %v, want boom", err)
	}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		then, now, added, removed []string
	}{
		{nil, nil, nil, nil},
		{[]string{"a", "b"}, []string{"b", "a"}, nil, nil},
		{[]string{"a", "b"}, []string{"b", "c"}, []string{"c"}, []string{"a"}},
		{nil, []string{"x"}, []string{"x"}, nil},
		{[]string{"x"}, nil, nil, []string{"x"}},
	}
	for _, tt := range tests {
		a, r := Diff(tt.then, tt.now)
		if !slices.Equal(a, tt.added) || !slices.Equal(r, tt.removed) {
			t.Errorf("Diff(%q, %q) = %q, %q; want %q, %q", tt.then, tt.now, a, r, tt.added, tt.removed)
		}
	}
}

// TestStream replays the fixture sessions (testdata/recalls) with a
// ranker that answers from a table, through the filters.
func TestStream(t *testing.T) {
	now := map[string][]string{
		"deploy rollback":   {"deploy-steps", "long-note"},
		"rust style":        {"rust-style"},
		"commit format":     {"commit-format"},
		"token rotation":    {"token-rotation"},
		"release checklist": {"release-checklist"},
	}
	rank := func(q string, limit int) (Ranked, error) {
		names := now[q][:min(limit, len(now[q]))]
		return Ranked{Names: names, Scores: descending(len(names))}, nil
	}
	r := sessions.NewReader("../../testdata/recalls/sessions")
	tests := []struct {
		name   string
		filter Filter
		want   []string // query: added / removed
	}{
		{"all", Filter{}, []string{
			"deploy rollback: [long-note] [archive-sess-0001-1767300000000000000]",
			"postgres pool deadlock: [] []",
			"token rotation: [token-rotation] []",
			"release checklist: [release-checklist] []",
			"rust style: [] []",
			"commit format: [] []",
		}},
		{"agent", Filter{Agent: "scout"}, []string{"rust style: [] []"}},
		{"since", Filter{Since: time.Date(2026, 1, 5, 9, 0, 5, 0, time.UTC)}, nil}, // only step times (now) and one event time
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			_, err := Stream(r, sessions.RecallOptions{}, tt.filter, rank, nil, func(it Item) error {
				got = append(got, it.Query+": "+fmt.Sprint(it.Added)+" "+fmt.Sprint(it.Removed))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "since" {
				if len(got) != 6 { // every fixture time is at or after the event's
					t.Errorf("since: %d recalls, want 6", len(got))
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestFilterSince(t *testing.T) {
	at := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		t    time.Time
		want bool
	}{
		{at.Add(-time.Second), false},
		{at, true},
		{at.Add(time.Hour), true},
		{time.Time{}, false}, // unknown time: only without --since
	}
	for _, tt := range tests {
		if got := (Filter{Since: at}).keep(sessions.Recall{Time: tt.t}); got != tt.want {
			t.Errorf("keep(%v) = %v, want %v", tt.t, got, tt.want)
		}
	}
	if !(Filter{}).keep(sessions.Recall{}) {
		t.Error("no filter drops a recall")
	}
}

func TestReport(t *testing.T) {
	db := openSmall(t)
	var ta Tally
	item := func(q string, limit int, then, now []string) Item {
		it := Item{Recall: sessions.Recall{Query: q, Limit: limit, Names: then}, Now: now}
		it.Added, it.Removed = Diff(then, now)
		return it
	}
	ta.Add(item("deploy", 3, []string{"deploy-steps", "gone-entry"}, []string{"long-note", "deploy-steps"}))
	ta.Add(item("deploy", 3, []string{"deploy-steps"}, []string{"long-note", "deploy-steps"}))
	ta.Add(item("rust", 5, []string{"rust-style"}, []string{"rust-style", "long-note"}))
	ta.Add(item("zzz", 5, nil, nil))
	r := ta.Report(db.Memory(), 0.5)
	if r.Recalls != 4 || r.Queries != 3 {
		t.Errorf("recalls %d queries %d, want 4 and 3", r.Recalls, r.Queries)
	}
	var used []string
	for _, u := range r.Entries {
		used = append(used, u.Name)
	}
	if want := []string{"long-note", "deploy-steps", "rust-style"}; !slices.Equal(used, want) {
		t.Errorf("entries %q, want %q", used, want)
	}
	if u := r.Entries[1]; u.Then != 2 || u.Now != 2 {
		t.Errorf("deploy-steps then %d now %d, want 2 and 2", u.Then, u.Now)
	}
	if len(r.Crowding) != 1 || r.Crowding[0].Name != "long-note" || r.Crowding[0].Share < 0.66 {
		t.Errorf("crowding %+v, want long-note at 2/3", r.Crowding)
	}
	if len(r.EmptyNow) != 1 || r.EmptyNow[0] != (QueryUse{"zzz", 5, 1}) {
		t.Errorf("empty now %+v", r.EmptyNow)
	}
	if len(r.Gone) != 1 || r.Gone[0].Name != "gone-entry" || r.Gone[0].Then != 1 {
		t.Errorf("gone %+v", r.Gone)
	}
	if n := db.Memory().Len(); len(r.Never) != n-2 { // long-note too: returned now, never then
		t.Errorf("never %d, want %d", len(r.Never), n-2)
	}
	for i := 1; i < len(r.Never); i++ {
		if r.Never[i-1].CreatedAt > r.Never[i].CreatedAt {
			t.Errorf("never not oldest first at %d", i)
		}
	}
}

// TestStream_RanksAQueryOnce: a query asked again with the same limit is
// ranked once, and every recall that asks it still gets its names; the
// same query with another limit is ranked on its own.
func TestStream_RanksAQueryOnce(t *testing.T) {
	dir := t.TempDir()
	queries := [][]string{{"deploy", "deploy", "rust"}, {"deploy", "deploy:2", "rust"}}
	for s, qs := range queries {
		sd := filepath.Join(dir, fmt.Sprintf("crab_dana_%d", s))
		if err := os.Mkdir(sd, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, q := range qs {
			input := fmt.Sprintf(`{"query":%q}`, q)
			if text, limit, ok := strings.Cut(q, ":"); ok {
				input = fmt.Sprintf(`{"query":%q,"limit":%s}`, text, limit)
			}
			step := fmt.Sprintf(`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"call_0","name":"recall","input":%s}]}}`, input)
			if err := os.WriteFile(filepath.Join(sd, fmt.Sprintf("step-%06d", i)), []byte(step), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var mu sync.Mutex
	calls := map[Query]int{}
	rank := func(q string, limit int) (Ranked, error) {
		mu.Lock()
		calls[Query{q, limit}]++
		mu.Unlock()
		return Ranked{Names: []string{q + "-note", fmt.Sprint(limit)}, Scores: []float64{2, 1}}, nil
	}
	var got []string
	_, err := Stream(sessions.Folder(dir), sessions.RecallOptions{}, Filter{}, rank, nil, func(it Item) error {
		got = append(got, fmt.Sprintf("%s/%d: %v", it.Query, it.Limit, it.Now))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"deploy/5: [deploy-note 5]", "deploy/5: [deploy-note 5]", "rust/5: [rust-note 5]",
		"deploy/5: [deploy-note 5]", "deploy/2: [deploy-note 2]", "rust/5: [rust-note 5]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	wantCalls := map[Query]int{{"deploy", 5}: 1, {"deploy", 2}: 1, {"rust", 5}: 1}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("ranked %v, want each once: %v", calls, wantCalls)
	}
}

// descending is n distinct scores, highest first: a ranking without ties.
func descending(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(n - i)
	}
	return out
}

// TestSameUpToTies: a result equal to today's but for the order of equal
// scores, or for which of a tie at the cut was returned, is the same
// recall; another name, another score in a place, a missing or repeated
// name is a change.
func TestSameUpToTies(t *testing.T) {
	now := Ranked{Names: []string{"a", "b", "c", "d"}, Scores: []float64{3, 2, 2, 1}, TiedPast: []string{"e"}}
	tests := []struct {
		then []string
		same bool
	}{
		{[]string{"a", "b", "c", "d"}, true},
		{[]string{"a", "c", "b", "d"}, true},  // equal scores in another order
		{[]string{"a", "b", "c", "e"}, true},  // the tie at the cut resolved the other way
		{[]string{"a", "c", "b", "e"}, true},  // both
		{[]string{"b", "a", "c", "d"}, false}, // a and b do not tie
		{[]string{"a", "b", "c", "x"}, false}, // a name not tied at the cut
		{[]string{"a", "b", "c"}, false},      // one fewer
		{[]string{"a", "b", "b", "d"}, false}, // a name twice
		{[]string{"a", "b", "e", "d"}, false}, // e ties d, not c
	}
	for _, tt := range tests {
		if got := SameUpToTies(tt.then, now); got != tt.same {
			t.Errorf("then %q: same %v, want %v", tt.then, got, tt.same)
		}
	}
}

// TestStream_TiesAreSame: a recorded recall that differs from today's only
// in the order of equal scores, or in which of a tie at the cut it got, is
// reported as the same (Ties), not as a change; one that differs by a
// name is a change.
func TestStream_TiesAreSame(t *testing.T) {
	dir := writeRecallSession(t, "## b\\nx\\n---\\n## a\\ny", "## a\\ny\\n---\\n## c\\nz", "## a\\ny\\n---\\n## x\\nw")
	rank := func(q string, limit int) (Ranked, error) {
		switch q {
		case "q0": // a and b tie
			return Ranked{Names: []string{"a", "b"}, Scores: []float64{1, 1}}, nil
		default: // b and c tie at the cut: seen when ranked past the limit
			k := min(limit, 3)
			return Ranked{Names: []string{"a", "b", "c"}[:k], Scores: []float64{2, 1, 1}[:k]}, nil
		}
	}
	var got []string
	_, err := Stream(sessions.Folder(dir), sessions.RecallOptions{}, Filter{}, rank, nil, func(it Item) error {
		got = append(got, fmt.Sprintf("%s same=%v ties=%v", it.Query, it.Same(), it.Ties))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"q0 same=true ties=true", "q1 same=true ties=true", "q2 same=false ties=false"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestReportNamed_AsReportOf: ReportNamed makes ReportOf's report over the
// same entries, with names returned then that no entry has (gone), names
// returned now only, ties to sort by name, entries never returned, and
// two entries of one name (each counted, as ReportOf counts them).
func TestReportNamed_AsReportOf(t *testing.T) {
	entries := make([]store.Entry, 0, 40)
	for i := range 40 {
		entries = append(entries, store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("e%02d", i%37), Kind: store.Kind(i % 2),
			CreatedAt: uint64(1000 + i%5), Content: strings.Repeat("x", i)})
	}
	unique := entries[:37]
	var ta Tally
	var items []Item
	add := func(q string, limit int, then, now []string) {
		it := Item{Recall: sessions.Recall{Query: q, Limit: limit, Names: then}, Now: now}
		it.Added, it.Removed = Diff(then, now)
		ta.Add(it)
		items = append(items, it)
	}
	add("a", 3, []string{"e01", "gone", "e02"}, []string{"e01", "e03", "e38-not-an-entry"})
	add("a", 3, []string{"e01"}, []string{"e01", "e03"})
	add("b", 5, []string{"e02", "gone-too"}, []string{"e02", "e04", "e36"})
	add("c", 5, nil, nil)
	add("d", 1, []string{"e36"}, []string{"e05"})
	add("c", 2, []string{"gone"}, nil)
	for _, tc := range []struct {
		name    string
		entries []store.Entry
	}{{"unique names", unique}, {"a name shared", entries}, {"none", nil}} {
		for _, crowd := range []float64{0.2, 0.5, 1} {
			want := ta.ReportOf(tc.entries, crowd)
			if got := ta.ReportNamed(NewNames(tc.entries), crowd); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, crowd %v:\n got %+v\nwant %+v", tc.name, crowd, got, want)
			}
			// Counted by entry (NewTally), for a report over those names,
			// over others, and over the entries.
			names := NewNames(tc.entries)
			by, other, of, byID := NewTally(names), NewTally(names), NewTally(names), NewTally(names)
			for k, it := range items {
				by.Add(it)
				other.Add(it)
				of.Add(it)
				// With the ids a ranker gives: each name's entry's, but
				// every third one another entry's (read by its name).
				it.nowIDs = make([]uint64, len(it.Now))
				for j, n := range it.Now {
					if i := slices.IndexFunc(tc.entries, func(e store.Entry) bool { return e.Name == n }); i >= 0 {
						it.nowIDs[j] = tc.entries[i].ID
					}
					if (k+j)%3 == 2 {
						it.nowIDs[j] = uint64(k + j + 1)
					}
				}
				byID.Add(it)
			}
			if got := by.ReportNamed(names, crowd); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, crowd %v, by entry:\n got %+v\nwant %+v", tc.name, crowd, got, want)
			}
			if got := byID.ReportNamed(names, crowd); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, crowd %v, by entry id:\n got %+v\nwant %+v", tc.name, crowd, got, want)
			}
			if got := other.ReportNamed(NewNames(tc.entries), crowd); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, crowd %v, by another's entries:\n got %+v\nwant %+v", tc.name, crowd, got, want)
			}
			if got := of.ReportOf(tc.entries, crowd); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, crowd %v, by entry, ReportOf:\n got %+v\nwant %+v", tc.name, crowd, got, want)
			}
		}
	}
	var empty Tally
	if got, want := empty.ReportNamed(NewNames(unique), 0.5), empty.ReportOf(unique, 0.5); !reflect.DeepEqual(got, want) {
		t.Errorf("no recalls:\n got %+v\nwant %+v", got, want)
	}
	names := NewNames(unique)
	if got, want := NewTally(names).ReportNamed(names, 0.5), empty.ReportOf(unique, 0.5); !reflect.DeepEqual(got, want) {
		t.Errorf("no recalls, by entry:\n got %+v\nwant %+v", got, want)
	}
}

// TestTallyStream_AsStream: a Tally's Stream, which works out no
// difference or ties, counts what Stream's items counted one by one do,
// on the fixture sessions and on recalls that differ only by ties (whose
// queries Stream ranks again past their limit).
func TestTallyStream_AsStream(t *testing.T) {
	dir := writeRecallSession(t, "## b\\nx\\n---\\n## a\\ny", "## a\\ny\\n---\\n## c\\nz", "## a\\ny\\n---\\n## x\\nw", "no memories found")
	rank := func(q string, limit int) (Ranked, error) {
		switch q {
		case "q0":
			return Ranked{Names: []string{"a", "b"}, Scores: []float64{1, 1}}, nil
		case "q3", "deploy rollback":
			return Ranked{}, nil
		default:
			k := min(limit, 3)
			return Ranked{Names: []string{"a", "b", "c"}[:k], Scores: []float64{2, 1, 1}[:k]}, nil
		}
	}
	entries := []store.Entry{{ID: 1, Name: "a", CreatedAt: 3}, {ID: 2, Name: "b", CreatedAt: 2}, {ID: 3, Name: "c", CreatedAt: 1},
		{ID: 4, Name: "rust-style"}, {ID: 5, Name: "deploy-steps"}}
	for _, src := range []store.SessionsReader{sessions.Folder(dir), sessions.NewReader("../../testdata/recalls/sessions")} {
		for _, f := range []Filter{{}, {Agent: "scout"}} {
			var one, all Tally
			p1, err := Stream(src, sessions.RecallOptions{}, f, rank, nil, func(it Item) error { one.Add(it); return nil })
			if err != nil {
				t.Fatal(err)
			}
			p2, err := all.Stream(src, sessions.RecallOptions{}, f, rank, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f.Agent == "" && one.then.Recalls < 4 {
				t.Errorf("%T: %d recalls counted, want 4 or more", src, one.then.Recalls)
			}
			if p1 != p2 {
				t.Errorf("%s: problems %+v, want %+v", fmt.Sprintf("%T", src), p2, p1)
			}
			if got, want := all.ReportOf(entries, 0.5), one.ReportOf(entries, 0.5); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %+v:\n got %+v\nwant %+v", fmt.Sprintf("%T", src), f, got, want)
			}
		}
	}
}

// writeRecallSession writes a sessions folder of one session whose k-th
// recall asks "qk" at limit 2 and is answered by results[k] (escaped as a
// JSON string's text), and returns the folder.
func writeRecallSession(t *testing.T, results ...string) string {
	t.Helper()
	dir := t.TempDir()
	sd := filepath.Join(dir, "crab_eve_1")
	if err := os.MkdirAll(sd, 0o755); err != nil {
		t.Fatal(err)
	}
	var steps []string
	for i, res := range results {
		id := fmt.Sprint(i)
		steps = append(steps,
			`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"recall","input":{"query":"q`+id+`","limit":2}}]}}`,
			`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+id+`","content":"`+res+`"}]}}`)
	}
	for i, s := range steps {
		if err := os.WriteFile(filepath.Join(sd, fmt.Sprintf("step-%06d", i)), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
