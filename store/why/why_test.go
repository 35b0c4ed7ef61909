package why

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/open"
)

const refDir = "../../testdata/reference"

// refQuery is one line of a search fixture: the reference's hits in rank
// order at a limit.
type refQuery struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
	Hits  []struct {
		Name  string  `json:"name"`
		Score float64 `json:"score"`
	} `json:"hits"`
}

// readQueries decodes a search fixture.
func readQueries(t *testing.T, path string) []refQuery {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refQuery
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q refQuery
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, q)
	}
	return out
}

// openCopy opens a copy of a reference memory (either format) in a
// temporary folder.
func openCopy(t *testing.T, fixture string) store.Source {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(refDir, fixture))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), filepath.Base(fixture))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := open.SourceWith(path, open.Options{Store: store.Options{Index: store.IndexBackground}})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// closeTo reports whether two scores agree to 1e-9 relative.
func closeTo(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// TestExplain_Reference checks, for every query of the reference rankings
// of both formats, that each reference hit asked about stands at its
// place in the full ranking (within its tie group) with its score, inside
// the limit, and that the cutoff and the hits are the reference's.
func TestExplain_Reference(t *testing.T) {
	for _, tt := range []struct{ memory, fixture string }{
		{"crmem/small.db", "search/small.jsonl"},
		{"crmem/small.db", "search/small.limit3.jsonl"},
		{"crmem/medium.db", "search/medium.jsonl"},
		{"crabdb/small.crmem", "crabdb/small.search.jsonl"},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			src := openCopy(t, tt.memory)
			checked := 0
			for _, q := range readQueries(t, filepath.Join(refDir, tt.fixture)) {
				var names []string
				for _, h := range q.Hits {
					names = append(names, h.Name)
				}
				rep, err := Explain(src, q.Query, names, q.Limit)
				if err != nil {
					t.Fatal(err)
				}
				if q.Limit > 0 && len(rep.Hits) != len(q.Hits) {
					t.Errorf("%q limit %d: %d hits, reference %d", q.Query, q.Limit, len(rep.Hits), len(q.Hits))
				}
				if n := len(q.Hits); n > 0 && (rep.Cutoff == nil || rep.Cutoff.Rank != n || !closeTo(rep.Cutoff.Score, q.Hits[n-1].Score)) {
					t.Errorf("%q: cutoff %+v, reference #%d %.17g", q.Query, rep.Cutoff, n, q.Hits[n-1].Score)
				}
				for i, h := range q.Hits {
					lo, hi := i, i // h's tie group
					for lo > 0 && closeTo(q.Hits[lo-1].Score, h.Score) {
						lo--
					}
					for hi+1 < len(q.Hits) && closeTo(q.Hits[hi+1].Score, h.Score) {
						hi++
					}
					e := rep.Entries[i]
					atCut := hi+1 == q.Limit
					if e.Reason != Ranked || e.Rank < lo+1 || e.Rank > hi+1 && !atCut || !closeTo(e.Score, h.Score) {
						t.Errorf("%q: %s %s #%d %.17g, reference #%d %.17g", q.Query, h.Name, e.Reason, e.Rank, e.Score, i+1, h.Score)
					}
					if !atCut && !e.InLimit {
						t.Errorf("%q: %s not inside the limit %d", q.Query, h.Name, q.Limit)
					}
					sum := 0.0
					for _, ts := range e.Terms {
						sum += ts.Contrib
					}
					if !closeTo(sum, e.Score) {
						t.Errorf("%q: %s: parts add to %v, score %v", q.Query, h.Name, sum, e.Score)
					}
					checked++
				}
			}
			if checked < 20 {
				t.Errorf("only %d hits checked", checked)
			}
		})
	}
}

// TestExplain_BeyondTheLimit checks an entry the limit cuts off: its rank
// is its position in the unlimited reference ranking, its gap the
// difference to the last hit inside the limit.
func TestExplain_BeyondTheLimit(t *testing.T) {
	for _, tt := range []struct{ memory, fixture string }{
		{"crmem/small.db", "search/small.jsonl"},
		{"crabdb/small.crmem", "crabdb/small.search.jsonl"},
	} {
		src := openCopy(t, tt.memory)
		checked := 0
		for _, q := range readQueries(t, filepath.Join(refDir, tt.fixture)) {
			if len(q.Hits) < 3 || q.Limit <= len(q.Hits) || closeTo(q.Hits[0].Score, q.Hits[1].Score) || closeTo(q.Hits[1].Score, q.Hits[2].Score) {
				continue // the full ranking is not known, or ties blur it
			}
			last := q.Hits[len(q.Hits)-1]
			rep, err := Explain(src, q.Query, []string{last.Name}, 1)
			if err != nil {
				t.Fatal(err)
			}
			e := rep.Entries[0]
			gap := q.Hits[0].Score - last.Score
			if e.Rank != len(q.Hits) || e.InLimit || !closeTo(e.Gap, gap) || rep.Ranked != len(q.Hits) || rep.Cutoff.Name != q.Hits[0].Name {
				t.Errorf("%s %q at limit 1: %s #%d of %d, gap %v in=%v; reference #%d of %d, gap %v", tt.memory, q.Query, last.Name, e.Rank, rep.Ranked, e.Gap, e.InLimit, len(q.Hits), len(q.Hits), gap)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no query checked", tt.memory)
		}
	}
}

// TestExplain_Reasons checks the reason given for each kind of entry that
// has no rank, in both formats.
func TestExplain_Reasons(t *testing.T) {
	tests := []struct {
		memory, query, name string
		reason              Reason
		missing, dropped    []string
		suggest             string
	}{
		{"crmem/small.db", "postgres", "deploy-step", NotInMemory, nil, nil, "deploy-steps"},
		{"crabdb/small.crmem", "postgres", "relase-checklist", NotInMemory, nil, nil, "release-checklist"},
		{"crmem/small.db", "postgres", "alice-preferences", NoSharedTerm, []string{"postgres"}, nil, ""},
		{"crabdb/small.crmem", "postgres", "alice-preferences", NoSharedTerm, []string{"postgres"}, nil, ""},
		{"crmem/small.db", "the zzz", "stopwords-only", DroppedWord, []string{"zzz"}, []string{"the"}, ""},
		{"crabdb/small.crmem", "the zzz", "stopwords-only", DroppedWord, []string{"zzz"}, []string{"the"}, ""},
		{"crmem/small.db", "the a", "deploy-steps", NoQueryTerms, nil, nil, ""},
		{"crabdb/small.crmem", "the a", "deploy-steps", NoQueryTerms, nil, nil, ""},
		// The store keeps a word's first token only: "zzz-alice" searches zzz.
		{"crabdb/small.crmem", "zzz-alice", "alice-preferences", DroppedWord, []string{"zzz"}, []string{"alice"}, ""},
		{"crmem/small.db", "zzz-alice", "alice-preferences", Ranked, []string{"zzz"}, nil, ""},
		// Found by an alias.
		{"crmem/small.db", "postgres", "schema", Ranked, []string{}, nil, ""},
	}
	for _, tt := range tests {
		src := openCopy(t, tt.memory)
		rep, err := Explain(src, tt.query, []string{tt.name}, AgentLimit)
		if err != nil {
			t.Fatal(err)
		}
		e := rep.Entries[0]
		if e.Reason != tt.reason || e.Detail == "" {
			t.Errorf("%s %q %s: reason %s (%s), want %s", tt.memory, tt.query, tt.name, e.Reason, e.Detail, tt.reason)
		}
		if tt.missing != nil && !slices.Equal(e.Missing, tt.missing) {
			t.Errorf("%s %q %s: missing %q, want %q", tt.memory, tt.query, tt.name, e.Missing, tt.missing)
		}
		if tt.dropped != nil && !slices.Equal(e.DroppedWords, tt.dropped) {
			t.Errorf("%s %q %s: dropped words %q, want %q", tt.memory, tt.query, tt.name, e.DroppedWords, tt.dropped)
		}
		if tt.suggest != "" && !slices.Contains(e.Suggest, tt.suggest) {
			t.Errorf("%s %s: did you mean %q, want %q among them", tt.memory, tt.name, e.Suggest, tt.suggest)
		}
		if e.Reason != NotInMemory && e.Rank == 0 && e.Score != 0 {
			t.Errorf("%s %q %s: unranked with score %v", tt.memory, tt.query, tt.name, e.Score)
		}
	}
}

// TestExplain_Alias checks that a name found as an alias says which
// entry it is.
func TestExplain_Alias(t *testing.T) {
	rep, err := Explain(openCopy(t, "crmem/small.db"), "postgres", []string{"schema"}, AgentLimit)
	if err != nil {
		t.Fatal(err)
	}
	if e := rep.Entries[0]; e.Entry != "db-migrations" || e.Reason != Ranked || e.Rank == 0 {
		t.Errorf("schema: entry %q %s #%d, want db-migrations ranked", e.Entry, e.Reason, e.Rank)
	}
}

// TestWords checks what each format's recall makes of query words it does
// not take whole (Recaller.Words), as `crmem tokens` shows them.
func TestWords(t *testing.T) {
	indexWords := openCopy(t, "crmem/small.db").Features().Recall.Words
	recallWords := openCopy(t, "crabdb/small.crmem").Features().Recall.Words
	tests := []struct {
		query        string
		index, store []Word
	}{
		{"deploy", []Word{}, []Word{}},
		{"the", words(word("the", nil, drop("the", "stopword"))), words(word("the", nil, drop("the", "stopword")))},
		{"e-mail", words(word("e-mail", []string{"mail"}, drop("e", "too short"))),
			words(word("e-mail", []string{"mail"}, drop("e", "too short")))},
		{"deploy-steps", words(word("deploy-steps", []string{"deploy", "steps"})),
			words(word("deploy-steps", []string{"deploy"}, drop("steps", crabdb.KeepsFirst)))},
		{"—", words(word("—", nil, drop("—", "no letters or digits"))), words(word("—", nil, drop("—", "no letters or digits")))},
		{"depl*", []Word{}, []Word{}},
	}
	for _, tt := range tests {
		if got := indexWords(tt.query); !equalWords(got, tt.index) {
			t.Errorf("indexWords(%q) = %+v, want %+v", tt.query, got, tt.index)
		}
		if got := recallWords(tt.query); !equalWords(got, tt.store) {
			t.Errorf("recallWords(%q) = %+v, want %+v", tt.query, got, tt.store)
		}
		// The index's terms of each word are `crmem tokens WORD`.
		for _, w := range indexWords(tt.query) {
			if toks := bm25.Tokenize(w.Word); !slices.Equal(toks, w.Terms) && len(toks)+len(w.Terms) > 0 {
				t.Errorf("%q: terms %q, tokens %q", w.Word, w.Terms, toks)
			}
		}
	}
}

func words(w ...Word) []Word { return w }

// word is a Word with its terms and dropped pieces (none: empty lists).
func word(text string, terms []string, dropped ...Dropped) Word {
	if terms == nil {
		terms = []string{}
	}
	if dropped == nil {
		dropped = []Dropped{}
	}
	return Word{Word: text, Terms: terms, Dropped: dropped}
}

func drop(piece, reason string) Dropped { return Dropped{Piece: piece, Reason: reason} }

func equalWords(a, b []Word) bool {
	return slices.EqualFunc(a, b, func(x, y Word) bool {
		return x.Word == y.Word && slices.Equal(x.Terms, y.Terms) && slices.Equal(x.Dropped, y.Dropped)
	})
}

// recallOf is a source whose own recall is rc: an index of its own that
// may not score what the entries' text holds.
type recallOf struct {
	store.Source
	rc store.Recaller
}

func (s recallOf) Features() store.Features {
	f := s.Source.Features()
	f.Recall = s.rc
	return f
}

// noRecall is a recall that scores nothing.
type noRecall struct{}

func (noRecall) Rank(string, int) ([]bm25.Hit, error)                      { return nil, nil }
func (noRecall) Recall(string, int) ([]bm25.Hit, []store.RecallHit, error) { return nil, nil, nil }
func (noRecall) RecallStats() store.RecallStats                            { return store.RecallStats{} }
func (noRecall) Stand(string, int, []uint64) (store.Ranking, error)        { return store.Ranking{}, nil }
func (noRecall) Stored() bool                                              { return true }
func (noRecall) Hits(string, int, bool) (store.Hits, error)                { return store.Hits{}, nil }
func (noRecall) Terms(q string) []store.RecallTerm                         { return crabdb.QueryTerms(q) } // as the store splits it
func (noRecall) Words(string) []store.QueryWord                            { return nil }

// TestExplain_NotScored checks the reason for an entry whose text holds a
// query term that the source's own recall does not score.
func TestExplain_NotScored(t *testing.T) {
	src := recallOf{openCopy(t, "crmem/small.db"), noRecall{}}
	rep, err := Explain(src, "postgres depl*", []string{"db-migrations", "deploy-steps", "alice-preferences"}, AgentLimit)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []Reason{NotScored, NotScored, NoSharedTerm} {
		if e := rep.Entries[i]; e.Reason != want {
			t.Errorf("%s: %s (%s), want %s", e.Name, e.Reason, e.Detail, want)
		}
	}
}
