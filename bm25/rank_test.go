package bm25

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// rankWords mix every kind of candidate the scanner yields: short and long
// (over 8 and over 16 bytes) ASCII terms, stopwords, one-character pieces,
// case to fold, and words near multi-byte runes.
var rankWords = append(slices.Clone(testWords),
	"internationalization", "Internationalisations", "deployments", "x1", "a", "I",
	"to", "über-cool", "naïve", "DEPLOY", "rollback's", "9", "42", "İstanbul",
	"supercalifragilistic", "ΣΟΦΟΣ-ΣΟΦΟΣ", "deploy-rollback")

// rankMatchesSearch checks Rank against Build(docs).Search for one query
// and limit: the same hits, bit-identical scores, the same order, and each
// position holding the hit's document.
func rankMatchesSearch(t *testing.T, docs []Doc, ix *Index, query string, limit int) {
	t.Helper()
	got := Rank(len(docs), func(i int) Doc { return docs[i] }, query, limit)
	want := ix.Search(query, limit)
	if len(got) != len(want) {
		t.Fatalf("Rank(%q, %d): %d hits, Search %d: %v vs %v", query, limit, len(got), len(want), got, want)
	}
	for i := range want {
		if got[i].Hit != want[i] {
			t.Fatalf("Rank(%q, %d) hit %d: %+v, Search %+v", query, limit, i, got[i].Hit, want[i])
		}
		if docs[got[i].Pos].ID != got[i].ID {
			t.Fatalf("Rank(%q, %d) hit %d: position %d holds id %d, not %d", query, limit, i, got[i].Pos, docs[got[i].Pos].ID, got[i].ID)
		}
	}
}

// randomQuery is one to four words of the test vocabulary, some repeated.
func randomQuery(rng *rand.Rand) string {
	ws := make([]string, 1+rng.IntN(4))
	for i := range ws {
		ws[i] = rankWords[rng.IntN(len(rankWords))]
	}
	return strings.Join(ws, " ")
}

func TestRank_MatchesSearch(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		repeatID bool // ids that repeat and do not ascend
	}{
		{"empty", 0, false},
		{"one", 1, false},
		{"few", 40, false},
		{"several parts", 3 * minPartDocs, false},
		{"repeated ids", 200, true},
		{"repeated ids, several parts", 3 * minPartDocs, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.n), 3))
			docs := make([]Doc, tt.n)
			for i := range docs {
				id := uint64(i + 1)
				if tt.repeatID {
					id = uint64(rng.IntN(tt.n/3 + 1))
				}
				docs[i] = randomDoc(rng, id, rankWords)
				if i%17 == 0 {
					docs[i].Content, docs[i].Aliases = "the of a x", nil // no tokens
				}
			}
			ix := BuildFunc(len(docs), func(i int) Doc { return docs[i] })
			for range 60 {
				rankMatchesSearch(t, docs, ix, randomQuery(rng), []int{0, 1, 3, 10, 1000}[rng.IntN(5)])
			}
			rankMatchesSearch(t, docs, ix, "", 10)
			rankMatchesSearch(t, docs, ix, "the of", 10)
		})
	}
}

// TestRank_Reference ranks the reference's fixtures with Rank: the same
// hits and, where the reference lists them, the same scores to the bit.
func TestRank_Reference(t *testing.T) {
	for _, tt := range []struct{ db, fixture string }{
		{"small.db", "small.jsonl"},
		{"small.db", "small.limit3.jsonl"},
		{"medium.db", "medium.jsonl"},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			es, err := readCRMEM(refDir + "/crmem/" + tt.db)
			if err != nil {
				t.Fatal(err)
			}
			docs := docsOf(es)
			checked := 0
			for _, q := range readJSONL[refQuery](t, refDir+"/search/"+tt.fixture) {
				ranked := Rank(len(docs), func(i int) Doc { return docs[i] }, q.Query, q.Limit)
				got := make([]refHit, len(ranked))
				for i, r := range ranked {
					got[i] = refHit{Name: es[r.Pos].Name, Score: r.Score}
				}
				if err := checkHits(got, q.Hits, q.Limit); err != nil {
					t.Errorf("Rank(%q, %d): %v", q.Query, q.Limit, err)
				}
				for _, h := range q.Hits {
					for _, g := range got {
						if g.Name == h.Name {
							checked++
							if g.Score != h.Score {
								t.Errorf("%q: %s scores %.17g, reference %.17g", q.Query, g.Name, g.Score, h.Score)
							}
						}
					}
				}
			}
			if checked < 20 {
				t.Errorf("only %d scores compared", checked)
			}
		})
	}
}

// FuzzRankMatchesSearch: for any texts and query, Rank is Search on the
// built index.
func FuzzRankMatchesSearch(f *testing.F) {
	f.Add("deploy rollback ΣΟΦΟΣ", "Deploy the rollback; ΣΟΦΟΣ σοφος", "internationalization x", uint8(3))
	f.Add("a I 9", "İstanbul naïve café", "", uint8(0))
	f.Fuzz(func(t *testing.T, query, a, b string, limit uint8) {
		docs := []Doc{
			{ID: 1, Content: a},
			{ID: 2, Content: b, Aliases: []string{a}},
			{ID: 3, Content: a + " " + b},
			{ID: 2, Content: b + " " + query}, // replaces id 2
			{ID: 5, Content: query},
		}
		ix := BuildFunc(len(docs), func(i int) Doc { return docs[i] })
		rankMatchesSearch(t, docs, ix, query, int(limit%8))
		for _, w := range Tokenize(a) {
			rankMatchesSearch(t, docs, ix, w+" "+query, int(limit%8))
		}
	})
}

// A query is matched through a table made for it (classTable) up to a few
// hundred short terms, and through a map beyond; its long terms one by one
// up to manyLong, and through a map beyond. All rank as Search does.
func TestRank_ManyTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	words := make([]string, 3000)
	for i := range words {
		words[i] = fmt.Sprintf("w%x", i*7919) // short terms, none a stopword
		if i%2 == 1 {
			words[i] = fmt.Sprintf("longer%x", i*7919) // and long ones
		}
	}
	docs := make([]Doc, 3*minPartDocs)
	for i := range docs {
		docs[i] = randomDoc(rng, uint64(i+1), append(slices.Clone(rankWords), words[:300]...))
	}
	ix := BuildFunc(len(docs), func(i int) Doc { return docs[i] })
	for _, n := range []int{1, 8, 64, 200, 1000, 3000} {
		query := strings.Join(words[:n], " ") + " the deployments a"
		q := newQueryMatcher(QueryTerms(query))
		if table := q.table != nil; table != (n <= 200) {
			t.Errorf("%d short terms: matched through a table %v, want %v", n, table, n <= 200)
		}
		rankMatchesSearch(t, docs, ix, query, 10)
		rankMatchesSearch(t, docs, ix, query, 0)
	}
	// A document costs what it holds, not what the query has: Rank once
	// kept a frequency for every query term per matching document (here
	// 3,000 terms: 12 KB a match, 36 MB in all).
	query := strings.Join(words, " ")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	Rank(len(docs), func(i int) Doc { return docs[i] }, query, 10)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("Rank with %d terms allocated %d bytes over %d documents", len(words), got, len(docs))
	}
}

// The table made for a query holds every stopword and short term in its
// own slot, and nothing else.
func TestClassTable(t *testing.T) {
	terms := QueryTerms("deploy rollback xy 42 supercalifragilistic the")
	q := newQueryMatcher(terms)
	if q.table == nil {
		t.Fatal("no table for a query of four short terms")
	}
	class := func(key uint64) uint32 {
		e := q.table.slots[(key*q.table.mul)>>q.table.shift]
		if e.key != key {
			return 0
		}
		return e.class
	}
	for _, w := range stopwords {
		if c := class(packKey(w)); c != 1 {
			t.Errorf("stopword %q: class %d, want 1", w, c)
		}
	}
	for i, term := range terms {
		k := packKey(term)
		if k == 0 {
			continue // the long term
		}
		if c := class(k); c != uint32(i+1)<<1 {
			t.Errorf("term %q: class %d, want %d", term, c, (i+1)<<1)
		}
	}
	for _, w := range []string{"deploys", "roll", "x", "zz", "4"} {
		if c := class(packKey(w)); c != 0 {
			t.Errorf("%q: class %d, want 0 (an ordinary token)", w, c)
		}
	}
}

// RankASCII ranks as Rank does and lists the documents it did not find
// pure ASCII: a multi-byte or invalid byte in the content or an alias, a
// document another with its id replaces; none is read for a query
// without terms, and every one counts as unknown for a query matched
// through a map.
func TestRankASCII_Mixed(t *testing.T) {
	docs := []Doc{
		{ID: 1, Content: "deploy the canary"},
		{ID: 2, Content: "naïve deploy"},
		{ID: 3, Content: "deploy", Aliases: []string{"ok", "caf\xe9"}},
		{ID: 4, Content: strings.Repeat("deploy rollback ", 20) + "—"},
		{ID: 5, Content: "", Aliases: []string{"rollback"}},
		{ID: 6, Content: "rollback"},
	}
	doc := func(i int) Doc { return docs[i] }
	ranked, mixed, scanned := RankASCII(len(docs), doc, "deploy rollback", 0)
	if !scanned || !slices.Equal(mixed, []int{1, 2, 3}) {
		t.Errorf("mixed %v, scanned %v; want [1 2 3], true", mixed, scanned)
	}
	if want := Rank(len(docs), doc, "deploy rollback", 0); !slices.Equal(ranked, want) {
		t.Errorf("RankASCII ranks %v, Rank %v", ranked, want)
	}
	docs[5].ID = 5 // replaces document 4
	if _, mixed, _ := RankASCII(len(docs), doc, "deploy", 3); !slices.Equal(mixed, []int{1, 2, 3, 4}) {
		t.Errorf("with a replaced document: mixed %v, want [1 2 3 4]", mixed)
	}
	if _, _, scanned := RankASCII(len(docs), doc, "the of", 3); scanned {
		t.Error("a query without terms scanned the documents")
	}
	many := make([]string, 500)
	for i := range many {
		many[i] = fmt.Sprintf("t%d", i)
	}
	if _, mixed, scanned := RankASCII(len(docs), doc, strings.Join(many, " "), 3); !scanned || len(mixed) != len(docs) {
		t.Errorf("a query through a map: mixed %v, scanned %v; want every document", mixed, scanned)
	}
}
