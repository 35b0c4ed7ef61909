// Package why explains where named entries stand in a recall: for a query
// and an entry, its rank among every entry the recall scores, or the plain
// reason it has none (not in memory, no query term in it, a query word the
// tokenizer drops), each query term's part in its score, and how far it is
// from the last entry inside the recall's limit. It reads either format
// through store.Source and ranks as the agent would: a source's own recall
// (crabtalk's store) when it has one, else BM25 over the memory's index.
package why

import (
	"fmt"
	"strings"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// AgentLimit is the agent's recall limit when a recall gives none
// (crabtalk's recall_limit default).
const AgentLimit = sessions.DefaultRecallLimit

// Reason says why an entry stands where it does.
type Reason string

// The reasons.
const (
	// Ranked: the recall scores it; Rank says where.
	Ranked Reason = "ranked"
	// NotInMemory: no entry has that name or alias.
	NotInMemory Reason = "not_in_memory"
	// NoQueryTerms: the tokenizer drops every word of the query, so the
	// recall returns nothing at all.
	NoQueryTerms Reason = "no_query_terms"
	// DroppedWord: no query term is in the entry, but a query word the
	// tokenizer drops is.
	DroppedWord Reason = "dropped_word"
	// NoSharedTerm: none of the query's terms occur in the entry.
	NoSharedTerm Reason = "no_shared_term"
	// NotScored: the entry's text holds a query term but the source's own
	// recall does not score it (crabtalk's store ranks by its stored index).
	NotScored Reason = "not_scored"
)

// Report is a query's recall and where each named entry stands in it.
type Report struct {
	Query  string `json:"query"`
	Format string `json:"format"` // "CRMEM v1" or "crabtalk store"
	// randomTies is the source's Capabilities.RandomTies: an entry tied
	// with the last inside the limit may or may not be returned.
	randomTies bool
	// Terms are the query's terms as the recall ranks them ("depl*": a
	// prefix term of crabtalk's store).
	Terms []string `json:"terms"`
	// Words are the query's words the tokenizer does not take as they are
	// written: dropped (stopword, too short), split, or cut.
	Words  []Word `json:"words"`
	Limit  int    `json:"limit"`  // the recall's limit (0: all)
	Ranked int    `json:"ranked"` // entries scoring above zero
	// Docs and AvgDocLen are the numbers BM25 ranks by (crabtalk's store:
	// its stored stats).
	Docs      int     `json:"docs"`
	AvgDocLen float64 `json:"avg_doc_len"`
	// Cutoff is the last entry inside the limit; nil when nothing ranks.
	Cutoff *Hit `json:"cutoff"`
	// Hits are the entries inside the limit, in rank order: what the
	// agent's recall returns.
	Hits []Hit `json:"hits"`
	// Entries are the named entries, in the order asked.
	Entries []Entry `json:"why"`
}

// Hit is a ranked entry.
type Hit struct {
	ID    uint64  `json:"-"`
	Rank  int     `json:"rank"`
	Name  string  `json:"name"`
	Kind  string  `json:"kind"`
	Score float64 `json:"score"`
}

// Word is a query word the recall does not take whole, and what it makes
// of it (store.Recaller.Words).
type Word = store.QueryWord

// Dropped is a piece of a query word the recall drops, and why.
type Dropped = store.DroppedPiece

// Entry is where one named entry stands.
type Entry struct {
	Name  string `json:"name"`            // as asked
	Found bool   `json:"found"`           // an entry has that name or alias
	Entry string `json:"entry,omitempty"` // the entry's name when Name is an alias of it
	Kind  string `json:"kind,omitempty"`
	// Rank is its 1-based place among every entry the recall scores
	// (ties ordered as the recall orders them); 0: it has none.
	Rank    int     `json:"rank"`
	Score   float64 `json:"score"`
	InLimit bool    `json:"in_limit"`
	// Gap is the cutoff's score minus this entry's: above zero, how much
	// more it needs to reach the last entry inside the limit.
	Gap    float64 `json:"gap"`
	Reason Reason  `json:"reason"`
	Detail string  `json:"detail"` // the reason in a sentence
	// Terms are each query term's part in its score, in the recall's
	// order; a prefix term has a row per index term it matched.
	Terms []Term `json:"terms"`
	// Missing are the query terms it lacks.
	Missing []string `json:"missing"`
	// DroppedWords are dropped pieces of query words that its text holds.
	DroppedWords []string `json:"dropped_words"`
	// DocLen is its length in tokens: the recall's own (crabtalk's store:
	// stored) when it scores the entry, else counted from its text.
	DocLen int `json:"doc_len"`
	// Suggest are entry names close to a name not in memory.
	Suggest []string `json:"did_you_mean"`
}

// Term is one query term's part in an entry's score, the one shape of a
// score's part whatever the format (store.Part), Share filled in.
type Term = store.Part

// Explain ranks every entry of src for query as the agent's recall does
// and says where each of names stands, at limit (0: all).
func Explain(src store.Source, query string, names []string, limit int) (Report, error) {
	m := src.Memory()
	found := make([]store.Entry, len(names))
	ok := make([]bool, len(names))
	var ids []uint64
	for i, n := range names {
		if found[i], ok[i] = m.Lookup(n); ok[i] {
			ids = append(ids, found[i].ID)
		}
	}
	f := src.Features()
	rk, err := f.Recall.Stand(query, limit, ids)
	if err != nil {
		return Report{}, fmt.Errorf("recall %q: %w", query, err)
	}
	stored := f.Recall.Stored()
	stats := f.Recall.RecallStats()
	rep := Report{Terms: termStrings(f.Recall.Terms(query)), Words: f.Recall.Words(query), Ranked: rk.Ranked, Docs: int(stats.Docs)}
	if stats.Docs > 0 {
		rep.AvgDocLen = float64(stats.TotalLen) / float64(stats.Docs)
	}
	for i, h := range rk.Top {
		rep.Hits = append(rep.Hits, Hit{ID: h.ID, Rank: i + 1, Score: h.Score})
	}
	rep.Query, rep.Format, rep.Limit = query, f.Format, limit
	rep.randomTies = f.Caps.RandomTies
	if rep.Hits == nil {
		rep.Hits = []Hit{}
	}
	nameHits(m, rep.Hits)
	if n := len(rep.Hits); n > 0 {
		c := rep.Hits[n-1]
		rep.Cutoff = &c
	}
	rep.Entries = make([]Entry, len(names))
	for i, n := range names {
		if !ok[i] {
			rep.Entries[i] = notFound(m, n)
			continue
		}
		rep.Entries[i] = rep.stand(found[i], n, rk.Standings[found[i].ID], stored)
	}
	return rep, nil
}

// nameHits fills in the hits' names and kinds.
func nameHits(m *store.Memory, hits []Hit) {
	for i := range hits {
		if e, ok := m.Get(hits[i].ID); ok {
			hits[i].Name, hits[i].Kind = e.Name, e.Kind.String()
		}
	}
}

// stand builds the named entry e's answer from its standing.
func (rep *Report) stand(e store.Entry, asked string, s store.Standing, prefix bool) Entry {
	out := Entry{Name: asked, Found: true, Kind: e.Kind.String(), Rank: s.Rank, Score: s.Score,
		Terms: s.Parts, DocLen: s.DocLen, Missing: []string{}, DroppedWords: []string{}, Suggest: []string{}}
	if e.Name != asked {
		out.Entry = e.Name
	}
	if out.DocLen == 0 {
		out.DocLen = e.Tokens() // the recall's own length only comes with a score
	}
	if out.Terms == nil {
		out.Terms = []Term{}
	}
	for i := range out.Terms {
		if s.Score > 0 {
			out.Terms[i].Share = out.Terms[i].Contrib / s.Score
		}
	}
	for _, q := range rep.Terms {
		if !hasTerm(out.Terms, q) {
			out.Missing = append(out.Missing, q)
		}
	}
	if rep.Cutoff != nil {
		out.Gap = rep.Cutoff.Score - s.Score
	}
	if s.Rank > 0 {
		out.Reason = Ranked
		out.InLimit = rep.Cutoff != nil && s.Rank <= rep.Cutoff.Rank
		out.Detail = rep.rankedDetail(out)
		return out
	}
	out.DroppedWords = droppedIn(rep.Words, e)
	switch held := heldTerms(rep.Terms, e, prefix); {
	case len(rep.Terms) == 0:
		out.Reason, out.Detail = NoQueryTerms, "the query has no terms: the tokenizer drops every word of it, so the recall returns nothing"
	case len(held) > 0:
		out.Reason = NotScored
		out.Detail = fmt.Sprintf("its text holds %s, but the store's recall does not score it: it ranks by its own stored index", quoteList(held))
	case len(out.DroppedWords) > 0:
		out.Reason = DroppedWord
		out.Detail = fmt.Sprintf("none of the query's terms occur in it; it holds %s, which the tokenizer drops from the query", quoteList(out.DroppedWords))
	default:
		out.Reason = NoSharedTerm
		out.Detail = fmt.Sprintf("none of the query's terms (%s) occur in it", strings.Join(rep.Terms, ", "))
		if out.DocLen == 0 {
			out.Detail += "; it has no word the index keeps"
		}
	}
	switch c := rep.Cutoff; {
	case len(rep.Terms) == 0:
	case c == nil || rep.Limit == 0 || rep.Ranked < rep.Limit:
		out.Detail += "; the limit has room: any score above zero would be recalled"
	default:
		out.Detail += fmt.Sprintf("; to be recalled it would need to score at least %.4f, as #%s %q does", c.Score, humanize.Count(c.Rank), c.Name)
	}
	return out
}

// hasTerm reports whether the entry scored on query term q.
func hasTerm(ts []Term, q string) bool {
	for _, t := range ts {
		if t.Query == q && t.TF > 0 {
			return true
		}
	}
	return false
}

// rankedDetail says where a ranked entry stands against the limit.
func (rep *Report) rankedDetail(e Entry) string {
	c := rep.Cutoff
	where := fmt.Sprintf("ranked #%s of %s", humanize.Count(e.Rank), humanize.Count(rep.Ranked))
	switch {
	case e.InLimit && e.Rank == c.Rank && rep.Limit > 0:
		return fmt.Sprintf("%s, the last inside the limit of %s", where, humanize.Count(rep.Limit))
	case e.InLimit && rep.Limit > 0:
		return fmt.Sprintf("%s, inside the limit of %s: %.4f above #%s %q (%.4f), the last inside",
			where, humanize.Count(rep.Limit), -e.Gap, humanize.Count(c.Rank), c.Name, c.Score)
	case e.InLimit:
		return where + ", and the recall has no limit"
	case e.Gap == 0 && rep.randomTies:
		return fmt.Sprintf("%s: it ties #%s %q, the last inside the limit of %s, on score; the agent's recall breaks ties at random, so it may or may not be returned",
			where, humanize.Count(c.Rank), c.Name, humanize.Count(rep.Limit))
	case e.Gap == 0:
		return fmt.Sprintf("%s: it ties #%s %q on score, and the recall's order of ties puts it after the limit of %s",
			where, humanize.Count(c.Rank), c.Name, humanize.Count(rep.Limit))
	}
	return fmt.Sprintf("%s: %.4f below #%s %q (%.4f), the last inside the limit of %s",
		where, e.Gap, humanize.Count(c.Rank), c.Name, c.Score, humanize.Count(rep.Limit))
}

// AtLimitZero makes rep the answer for a recall at limit 0, which returns
// nothing (crabtalk's recall takes at most limit hits): no hit, no cutoff,
// and each entry found says so before where it would rank. rep is Explain's
// at limit 0, which ranks every entry.
func (rep *Report) AtLimitZero() {
	rep.Hits, rep.Cutoff = []Hit{}, nil
	for i := range rep.Entries {
		e := &rep.Entries[i]
		if !e.Found {
			continue
		}
		e.InLimit = false
		e.Detail = "the recall's limit is 0, so it returns nothing; without a limit it would be " + e.Detail
	}
}

// notFound is the answer for a name no entry has, with the names close
// to it.
func notFound(m *store.Memory, name string) Entry {
	e := Entry{Name: name, Reason: NotInMemory, Terms: []Term{}, Missing: []string{}, DroppedWords: []string{},
		Suggest: Suggest(m, name)}
	e.Detail = "no entry has that name or alias"
	if len(e.Suggest) > 0 {
		e.Detail += "; did you mean " + quoteList(e.Suggest) + "?"
	}
	return e
}

// quoteList quotes words and joins them with commas.
func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, ", ")
}

// termStrings are the recall's query terms as the report shows them: the
// term, "depl*" for a prefix; never nil (JSON shows an empty list).
func termStrings(terms []store.RecallTerm) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.String()
	}
	return out
}
