package cli

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
)

// fixtureQuery is one line of testdata/reference/search/*.jsonl.
type fixtureQuery struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
	Hits  []struct {
		Name  string  `json:"name"`
		Score float64 `json:"score"`
	} `json:"hits"`
}

// TestSearch_ReferenceFixtures runs every fixture query through
// `crmem search --json` and compares with the reference's ranking.
func TestSearch_ReferenceFixtures(t *testing.T) {
	for _, tc := range []struct{ db, queries string }{
		{"crmem/small.db", "search/small.jsonl"},
		{"crmem/small.db", "search/small.limit3.jsonl"},
		{"crmem/medium.db", "search/medium.jsonl"},
	} {
		t.Run(filepath.Base(tc.queries), func(t *testing.T) {
			t.Parallel()
			db := copyFixture(t, tc.db)
			for i, q := range readFixtureQueries(t, tc.queries) {
				t.Run(fmt.Sprintf("%d:%s", i, q.Query), func(t *testing.T) {
					out := mustRun(t, "", "search", "--db", db, "--json", "--limit", fmt.Sprint(q.Limit), "--", q.Query)
					var got []jsonHit
					if err := json.Unmarshal([]byte(out), &got); err != nil {
						t.Fatalf("search output is not JSON: %v\n%s", err, out)
					}
					compareRanking(t, q, got)
				})
			}
		})
	}
}

func readFixtureQueries(t *testing.T, rel string) []fixtureQuery {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "reference", rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var qs []fixtureQuery
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var q fixtureQuery
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(qs) == 0 {
		t.Fatalf("%s: no queries", rel)
	}
	return qs
}

// compareRanking checks scores position by position (1e-9 relative) and
// names group by group: a group of equal scores is compared as a set, except
// a group cut by the limit, where any members of the tie are accepted (their
// scores are checked).
func compareRanking(t *testing.T, want fixtureQuery, got []jsonHit) {
	t.Helper()
	if len(got) != len(want.Hits) {
		t.Fatalf("got %d hits, want %d\n got %v\nwant %v", len(got), len(want.Hits), hitNames(got), want.Hits)
	}
	for i := range got {
		if !closeEnough(got[i].Score, want.Hits[i].Score) {
			t.Errorf("hit %d (%s): score %.17g, want %.17g (%s)", i, got[i].Name, got[i].Score, want.Hits[i].Score, want.Hits[i].Name)
		}
		if got[i].Aliases == nil {
			t.Errorf("hit %d: aliases is null, want an array", i)
		}
	}
	for start := 0; start < len(got); {
		end := start + 1
		for end < len(got) && closeEnough(want.Hits[end].Score, want.Hits[start].Score) {
			end++
		}
		cut := end == len(got) && len(got) == want.Limit
		var w []string
		for _, h := range want.Hits[start:end] {
			w = append(w, h.Name)
		}
		g := hitNames(got[start:end])
		slices.Sort(w)
		slices.Sort(g)
		if !cut && !slices.Equal(g, w) {
			t.Errorf("tie group at %d: got %v, want %v", start, g, w)
		}
		start = end
	}
}

func hitNames(hs []jsonHit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Name)
	}
	return out
}

func closeEnough(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// TestSearch_KindAndLimit checks that --kind filters before the cut and
// that the human output lists the same ranking.
func TestSearch_KindAndLimit(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	var all, archives []jsonHit
	mustJSON(t, mustRun(t, "", "search", "deploy", "--db", db, "--json", "--limit", "0"), &all)
	mustJSON(t, mustRun(t, "", "search", "--kind", "archive", "deploy", "--db", db, "--json", "--limit", "1"), &archives)
	var wantArchive string
	for _, h := range all {
		if h.Kind == "archive" {
			wantArchive = h.Name
			break
		}
	}
	if wantArchive == "" || len(archives) != 1 || archives[0].Name != wantArchive {
		t.Fatalf("--kind archive --limit 1: got %v, want [%s] (from %v)", hitNames(archives), wantArchive, hitNames(all))
	}
	human := mustRun(t, "", "search", "deploy", "--db", db)
	for _, h := range all {
		if !containsLine(human, h.Name) {
			t.Errorf("human search output lacks %s:\n%s", h.Name, human)
		}
	}
}

// TestSearch_Explain checks --explain's parts add up to each score and that
// plain --json has exactly the entry keys plus "score".
func TestSearch_Explain(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	var hits []jsonHit
	mustJSON(t, mustRun(t, "", "search", "postgres", "migration", "--explain", "--json", "--db", db), &hits)
	if len(hits) == 0 {
		t.Fatal("no hits")
	}
	for _, h := range hits {
		if h.Explain == nil {
			t.Fatalf("%s: no explain", h.Name)
		}
		sum := 0.0
		for _, ts := range h.Explain.Terms {
			sum += ts.Contrib
		}
		if !closeEnough(sum, h.Score) {
			t.Errorf("%s: parts sum to %v, score %v", h.Name, sum, h.Score)
		}
	}
	var raw []map[string]any
	mustJSON(t, mustRun(t, "", "search", "postgres", "--json", "--db", db), &raw)
	want := []string{"aliases", "content", "created_at", "id", "kind", "name", "score"}
	for _, r := range raw {
		var keys []string
		for k := range r {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			t.Fatalf("keys %v, want %v", keys, want)
		}
	}
	if out := mustRun(t, "", "search", "postgres", "--explain", "--db", db); !strings.Contains(out, "postgres: tf ") {
		t.Fatalf("human --explain:\n%s", out)
	}
}
