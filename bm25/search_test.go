package bm25

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refHit is one expected hit of a search fixture.
type refHit struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// refQuery is one line of a search fixture.
type refQuery struct {
	Query string   `json:"query"`
	Limit int      `json:"limit"`
	Hits  []refHit `json:"hits"`
}

// closeTo reports whether two scores agree to 1e-9 relative.
func closeTo(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// compareHits checks got against the reference's hits: scores to 1e-9
// relative, tie groups as sets, and at the cut-off any member of the tied
// group.
func checkHits(got, want []refHit, limit int) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d hits, want %d: got %v want %v", len(got), len(want), got, want)
	}
	for i := 0; i < len(want); {
		j := i + 1
		for j < len(want) && closeTo(want[j].Score, want[i].Score) {
			j++
		}
		var g, w []string
		for k := i; k < j; k++ {
			if !closeTo(got[k].Score, want[k].Score) {
				return fmt.Errorf("hit %d: %s %.17g, want %s %.17g", k, got[k].Name, got[k].Score, want[k].Name, want[k].Score)
			}
			g, w = append(g, got[k].Name), append(w, want[k].Name)
		}
		atCutoff := j == len(want) && len(want) == limit
		slices.Sort(g)
		slices.Sort(w)
		if !atCutoff && !slices.Equal(g, w) {
			return fmt.Errorf("tie group at %d: %v, want %v", i, g, w)
		}
		i = j
	}
	return nil
}

// namedHits resolves hit ids to entry names.
func namedHits(hits []Hit, names map[uint64]string) []refHit {
	out := make([]refHit, len(hits))
	for i, h := range hits {
		out[i] = refHit{Name: names[h.ID], Score: h.Score}
	}
	return out
}

// loadFixtureIndex builds an index over a reference database.
func loadFixtureIndex(t *testing.T, db string) (*Index, map[uint64]string) {
	t.Helper()
	es, err := readCRMEM(refDir + "/crmem/" + db)
	if err != nil {
		t.Fatal(err)
	}
	names := make(map[uint64]string, len(es))
	for _, e := range es {
		names[e.ID] = e.Name
	}
	return Build(docsOf(es)), names
}

func TestSearch_Reference(t *testing.T) {
	tests := []struct{ db, fixture string }{
		{"small.db", "small.jsonl"},
		{"small.db", "small.limit3.jsonl"},
		{"medium.db", "medium.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			ix, names := loadFixtureIndex(t, tt.db)
			queries := readJSONL[refQuery](t, refDir+"/search/"+tt.fixture)
			if len(queries) == 0 {
				t.Fatal("no queries")
			}
			for _, q := range queries {
				got := namedHits(ix.Search(q.Query, q.Limit), names)
				if err := checkHits(got, q.Hits, q.Limit); err != nil {
					t.Errorf("Search(%q, %d): %v", q.Query, q.Limit, err)
				}
			}
		})
	}
}

// TestSearch_BitExact checks the scores against the reference to the last
// bit: same order of operations, no fused multiply-add, and a correctly
// rounded logarithm.
func TestSearch_BitExact(t *testing.T) {
	for _, tt := range []struct{ db, fixture string }{{"small.db", "small.jsonl"}, {"medium.db", "medium.jsonl"}} {
		ix, names := loadFixtureIndex(t, tt.db)
		checked := 0
		for _, q := range readJSONL[refQuery](t, refDir+"/search/"+tt.fixture) {
			want := map[string]float64{}
			for _, h := range q.Hits {
				want[h.Name] = h.Score
			}
			for _, h := range ix.Search(q.Query, q.Limit) {
				if w, ok := want[names[h.ID]]; ok {
					checked++
					if h.Score != w {
						t.Errorf("%s %q: %s scores %.17g, reference %.17g", tt.fixture, q.Query, names[h.ID], h.Score, w)
					}
				}
			}
		}
		if checked < 40 {
			t.Errorf("%s: only %d scores compared", tt.fixture, checked)
		}
	}
}

// TestSearch_Incremental checks that an index built one Set at a time, in
// reverse order and with replacements, ranks like the reference.
func TestSearch_Incremental(t *testing.T) {
	es, err := readCRMEM(refDir + "/crmem/medium.db")
	if err != nil {
		t.Fatal(err)
	}
	names := map[uint64]string{}
	ix := New()
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		names[e.ID] = e.Name
		placeholder := Doc{ID: e.ID, Content: "placeholder words " + e.Name}
		ix.Set(placeholder)
		ix.Replace(placeholder, Doc{ID: e.ID, Content: e.Content, Aliases: e.Aliases})
	}
	temp := Doc{ID: 1 << 40, Content: "temporary deploy canary rollback document"}
	ix.Set(temp)
	ix.Remove(temp)
	for _, q := range readJSONL[refQuery](t, refDir+"/search/medium.jsonl") {
		got := namedHits(ix.Search(q.Query, q.Limit), names)
		if err := checkHits(got, q.Hits, q.Limit); err != nil {
			t.Errorf("Search(%q, %d): %v", q.Query, q.Limit, err)
		}
	}
}

func TestSearch_OrderAndLimit(t *testing.T) {
	ix := Build([]Doc{
		{ID: 1, Content: "alpha beta"},
		{ID: 2, Content: "alpha beta"},
		{ID: 3, Content: "alpha gamma gamma"},
		{ID: 4, Content: "delta"},
		{ID: 5, Content: ""},
		{ID: 6, Content: "the of and"},
		{ID: 7, Content: "x", Aliases: []string{"alpha"}},
	})
	if n := ix.Len(); n != 5 {
		t.Fatalf("Len = %d, want 5 (empty and stopword-only documents are not indexed)", n)
	}
	all := ix.Search("alpha beta", 0)
	ids := make([]uint64, len(all))
	for i, h := range all {
		ids[i] = h.ID
	}
	if want := []uint64{2, 1, 7, 3}; !slices.Equal(ids, want) {
		t.Errorf("Search order = %v, want %v (ties by higher id)", ids, want)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Score > all[i-1].Score {
			t.Errorf("scores not descending: %v", all)
		}
	}
	for limit := 0; limit <= len(all)+1; limit++ {
		got := ix.Search("alpha beta", limit)
		want := all
		if limit > 0 && limit < len(all) {
			want = all[:limit]
		}
		if !slices.Equal(got, want) {
			t.Errorf("Search(limit %d) = %v, want %v", limit, got, want)
		}
	}
	if got := ix.Search("the", 10); len(got) != 0 {
		t.Errorf("stopword query hits %v", got)
	}
	if got := New().Search("alpha", 10); len(got) != 0 {
		t.Errorf("empty index hits %v", got)
	}
}

func TestSearchTerms_SortsAndDedups(t *testing.T) {
	ix, _ := loadFixtureIndex(t, "medium.db")
	want := ix.Search("deploy canary rollback", 20)
	got := ix.SearchTerms([]string{"rollback", "deploy", "canary", "deploy"}, 20)
	if !slices.Equal(got, want) {
		t.Errorf("SearchTerms = %v, want %v", got, want)
	}
}

func TestExplain_MatchesSearch(t *testing.T) {
	ix, _ := loadFixtureIndex(t, "medium.db")
	for _, q := range []string{"deploy canary rollback", "agent memory recall session", "zzzz nothing deploy", "the"} {
		hits := ix.Search(q, 0)
		for _, h := range hits {
			ex := ix.Explain(q, h.ID)
			if ex.Score != h.Score {
				t.Fatalf("Explain(%q, %d).Score = %.17g, Search says %.17g", q, h.ID, ex.Score, h.Score)
			}
		}
		if len(hits) == 0 {
			continue
		}
		ex := ix.Explain(q, hits[0].ID)
		terms := QueryTerms(q)
		if len(ex.Terms) != len(terms) || ex.N != ix.Len() || ex.AvgDocLen != ix.AvgDocLen() || ex.DocLen != ix.DocLen(hits[0].ID) {
			t.Fatalf("Explain(%q) = %+v", q, ex)
		}
		for i, ts := range ex.Terms {
			if ts.Term != terms[i] || ts.DF != ix.DocFreq(ts.Term) || ts.TF != ix.TermFreq(ts.Term, hits[0].ID) {
				t.Errorf("Explain(%q) term %d = %+v", q, i, ts)
			}
		}
	}
}

func TestExplain_Unindexed(t *testing.T) {
	ix := Build([]Doc{{ID: 1, Content: "alpha beta"}, {ID: 2, Content: "gamma"}})
	ex := ix.Explain("alpha zeta", 2)
	if ex.Score != 0 || ex.DocLen != 1 || ex.N != 2 || len(ex.Terms) != 2 || ex.Terms[0].DF != 1 || ex.Terms[0].TF != 0 || ex.Terms[1].DF != 0 {
		t.Errorf("Explain = %+v", ex)
	}
	if ex := ix.Explain("alpha", 99); ex.DocLen != 0 || ex.Score != 0 {
		t.Errorf("Explain(missing doc) = %+v", ex)
	}
}

func TestExpand(t *testing.T) {
	ix := Build([]Doc{
		{ID: 1, Content: "deploy deployment deployed"},
		{ID: 2, Content: "deploy deployment"},
		{ID: 3, Content: "deploy depot"},
		{ID: 4, Content: "other words"},
	})
	tests := []struct {
		prefix string
		max    int
		want   []string
	}{
		{"dep", 10, []string{"deploy", "deployment", "deployed", "depot"}},
		{"dep", 2, []string{"deploy", "deployment"}},
		{"deploy", 10, []string{"deploy", "deployment", "deployed"}},
		{"x", 10, nil},
		{"", 2, []string{"deploy", "deployment"}},
		{"dep", 0, nil},
	}
	for _, tt := range tests {
		if got := ix.Expand(tt.prefix, tt.max); !slices.Equal(got, tt.want) {
			t.Errorf("Expand(%q, %d) = %q, want %q", tt.prefix, tt.max, got, tt.want)
		}
	}
	// Maintained under Set and Remove after the sorted list exists.
	ix.Remove(Doc{ID: 1, Content: "deploy deployment deployed"})
	ix.Set(Doc{ID: 5, Content: "depth depth"})
	ix.Set(Doc{ID: 6, Content: "depth"})
	want := []string{"deploy", "depth", "deployment", "depot"}
	if got := ix.Expand("dep", 10); !slices.Equal(got, want) {
		t.Errorf("after updates Expand = %q, want %q", got, want)
	}
}

func TestExpand_ManyNewTerms(t *testing.T) {
	ix := New()
	ix.Set(Doc{ID: 1, Content: "seed"})
	ix.Expand("s", 1) // builds the sorted vocabulary
	var want []string
	for i := range 3 * mergeAt {
		term := fmt.Sprintf("term%05d", i)
		ix.Set(Doc{ID: uint64(i + 2), Content: term})
		want = append(want, term)
	}
	got := ix.Expand("term", len(want)+5)
	if !slices.Equal(got, want) {
		t.Errorf("Expand over merged terms: got %d terms, want %d", len(got), len(want))
	}
	if got := ix.Expand("term0100", 100); !slices.Equal(got, want[1000:1010]) {
		t.Errorf("Expand(term0100) = %q", got)
	}
	if !strings.HasPrefix(ix.Expand("se", 1)[0], "seed") {
		t.Error("Expand lost an old term")
	}
}

// bruteExpand is Expand by scanning the whole vocabulary.
func bruteExpand(ix *Index, prefix string, max int) []string {
	type cand struct {
		term string
		df   int
	}
	var cs []cand
	for _, term := range ix.voc.terms {
		if df := ix.DocFreq(term); df > 0 && strings.HasPrefix(term, prefix) {
			cs = append(cs, cand{term, df})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.df != b.df {
			return b.df - a.df
		}
		return strings.Compare(a.term, b.term)
	})
	var out []string
	for i := 0; i < len(cs) && i < max; i++ {
		out = append(out, cs[i].term)
	}
	return out
}

func TestExpand_MatchesBruteForce(t *testing.T) {
	es, err := readCRMEM(refDir + "/crmem/medium.db")
	if err != nil {
		t.Fatal(err)
	}
	docs := docsOf(es)
	ix := track(Build(docs), docs...)
	ix.Expand("", 1) // build the sorted vocabulary, then change the index
	for id := uint64(1); id <= 300; id += 3 {
		ix.remove(id)
	}
	for i := range 50 {
		ix.Set(Doc{ID: uint64(100000 + i), Content: fmt.Sprintf("depth%d deployable%d de%d d%d", i%7, i%3, i, i)})
	}
	for _, prefix := range []string{"", "d", "de", "dep", "deploy", "depth", "z", "σ", "東", "archive", "zzzz"} {
		for _, max := range []int{1, 3, 10, 40, 1000} {
			got, want := ix.Expand(prefix, max), bruteExpand(ix.Index, prefix, max)
			if !slices.Equal(got, want) {
				t.Errorf("Expand(%q, %d) = %q, want %q", prefix, max, got, want)
			}
		}
	}
}

// TestSearch_NormPathsAgree checks that scoring with cached per-document
// norms and with norms computed inline give the same bits.
func TestSearch_NormPathsAgree(t *testing.T) {
	ix, _ := loadFixtureIndex(t, "medium.db")
	ix.Set(Doc{ID: 1 << 40, Content: "deploy canary extra words to move avgdl"})
	norms := ix.docNorms()
	for _, q := range []string{"deploy canary rollback", "agent memory recall session", "σοφός", "alice"} {
		cached, inline := ix.getAcc(), &accumulator{score: make([]float64, len(ix.docs))}
		for _, term := range QueryTerms(q) {
			tid, ok := ix.voc.lookup(term)
			if !ok {
				continue
			}
			list := ix.postings[tid]
			accumulate(cached, list, idf(ix.n, len(list)), norms)
			accumulateInline(inline, list, idf(ix.n, len(list)), ix.docs, ix.avgdl())
		}
		if !slices.Equal(cached.score, inline.score) || !slices.Equal(cached.touched, inline.touched) || len(cached.touched) == 0 {
			t.Errorf("%q: cached and inline norms disagree", q)
		}
		ix.putAcc(cached)
	}
}

// TestSearch_LimitsAgreeWithFullRanking checks the heap and quickselect
// paths against the fully sorted ranking, on documents built to tie.
func TestSearch_LimitsAgreeWithFullRanking(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	var docs []Doc
	for id := uint64(1); id <= 3000; id++ {
		// Few distinct texts, so many documents share a score.
		docs = append(docs, Doc{ID: id, Content: strings.Repeat("alpha ", rng.IntN(4)+1) + strings.Repeat("beta ", rng.IntN(3)) + testWords[rng.IntN(len(testWords))]})
	}
	ix := Build(docs)
	for _, q := range []string{"alpha", "alpha beta", "beta gamma deploy", "zeta"} {
		all := ix.Search(q, 0)
		for _, limit := range []int{1, 5, 63, 64, 65, 100, 500, 1000, len(all) - 1, len(all), len(all) + 1} {
			got := ix.Search(q, limit)
			want := all
			if limit > 0 && limit < len(all) {
				want = all[:limit]
			}
			if !slices.Equal(got, want) {
				t.Errorf("Search(%q, %d): differs from the full ranking's prefix", q, limit)
			}
		}
	}
}

func TestSelectTop(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 300 {
		n := rng.IntN(200) + 1
		ps := make([]scored, n)
		for i := range ps {
			ps[i] = scored{score: float64(rng.IntN(10)), doc: uint32(i)}
		}
		k := rng.IntN(n) + 1
		sorted := slices.Clone(ps)
		slices.SortFunc(sorted, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
		selectTop(ps, k)
		minTop := math.Inf(1)
		for _, p := range ps[:k] {
			minTop = min(minTop, p.score)
		}
		for _, p := range ps[k:] {
			if p.score > minTop {
				t.Fatalf("n=%d k=%d: %v outside the top beats %v inside", n, k, p.score, minTop)
			}
		}
		if minTop != sorted[k-1].score {
			t.Fatalf("n=%d k=%d: k-th score %v, want %v", n, k, minTop, sorted[k-1].score)
		}
	}
}
