package tui

import (
	"cmp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
)

// Limits of live search (SPEC §4): the most frequent expansions of the word
// being typed, and how many hits of each kind the list shows.
const (
	maxExpansions = 32
	maxHits       = 1000
	minPrefix     = 2 // runes of the last word before it is expanded
)

// hitKind says why an entry is in the search results.
type hitKind int

const (
	hitName   hitKind = iota + 1 // name or alias contains the query
	hitExact                     // exact recall, as the agent's recall tool
	hitPrefix                    // only through a prefix expansion of the last word
)

// hit is one search result: an entry id and its score. Ids (not snapshot
// positions) keep a result valid across a reload until the next one arrives.
type hit struct {
	id    uint64
	kind  hitKind
	score float64 // bm25 score; 0 for a name match that recall does not find
}

// searchResult is the outcome of one query against one snapshot.
type searchResult struct {
	query      string
	terms      []string // the query's own terms (exact recall)
	expansions []string // prefix expansions of the last word
	hits       []hit    // name matches, then exact hits, then prefix-only hits
	counts     [4]int   // per hitKind
	took       time.Duration
	indexing   bool // the index was not ready: name matches only

	// On crabtalk's store: the query its recall ran (the word being typed
	// with `*`), why it failed, and each hit's explanation by id.
	recallQuery string
	recallErr   string
	storeHits   map[uint64]crabdb.Hit
}

// searchInput is everything a search needs; it is never mutated.
type searchInput struct {
	seq     int
	rerun   bool // a reload re-ran the query: keep the selection
	query   string
	snap    *snapshot
	mem     *store.Memory
	indexed bool
	store   *storeSource // crabtalk's store: its own recall ranks
}

// searchDoneMsg carries a search's result, tagged with its sequence number.
type searchDoneMsg struct {
	seq    int
	rerun  bool
	result *searchResult
}

// searchCmd runs a search off the update loop.
func searchCmd(in searchInput) tea.Cmd {
	return func() tea.Msg {
		start := time.Now()
		r := runSearch(in)
		r.took = time.Since(start)
		return searchDoneMsg{seq: in.seq, rerun: in.rerun, result: r}
	}
}

// runSearch computes name matches, exact recall and prefix matches.
func runSearch(in searchInput) *searchResult {
	if in.store != nil {
		return runStoreSearch(in)
	}
	r := &searchResult{query: in.query, terms: bm25.QueryTerms(in.query), indexing: !in.indexed}
	seen := map[uint64]bool{}
	add := func(h hit) {
		if !seen[h.id] && len(r.hits) < 3*maxHits {
			seen[h.id] = true
			r.hits = append(r.hits, h)
			r.counts[h.kind]++
		}
	}
	var exact []bm25.Hit
	if in.indexed && in.mem != nil {
		exact = in.mem.Search(in.query, maxHits)
	}
	for _, h := range nameMatches(in.snap, in.query, exact) {
		add(h)
	}
	for _, h := range exact {
		add(hit{id: h.ID, kind: hitExact, score: h.Score})
	}
	if in.indexed && in.mem != nil {
		for _, h := range prefixMatches(in.mem.Index(), in.query, r) {
			add(hit{id: h.ID, kind: hitPrefix, score: h.Score})
		}
	}
	return r
}

// nameMatches returns entries whose name or an alias contains the query
// (case-insensitive): every entry whose name or an alias equals the query
// first, then the other containing ones up to maxHits in all; each part by
// recall score, then newest.
func nameMatches(s *snapshot, query string, exact []bm25.Hit) []hit {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil
	}
	scores := make(map[uint64]float64, len(exact))
	for _, h := range exact {
		scores[h.ID] = h.Score
	}
	found, equal := s.nameIndex().find(q, maxHits) // whole names first, each part newest first
	hits := make([]hit, len(found))
	for i, idx := range found {
		e := s.entries[idx]
		hits[i] = hit{id: e.ID, kind: hitName, score: scores[e.ID]}
	}
	byScore := func(a, b hit) int { return cmp.Compare(b.score, a.score) }
	slices.SortStableFunc(hits[:equal], byScore)
	slices.SortStableFunc(hits[equal:], byScore)
	return hits
}

// prefixMatches expands the word being typed (the query does not end in a
// space) and ranks the query with those expansions; r.expansions is set.
func prefixMatches(ix *bm25.Index, query string, r *searchResult) []bm25.Hit {
	last := lastWord(query)
	if utf8.RuneCountInString(last) < minPrefix {
		return nil
	}
	for _, t := range ix.Expand(bm25.Lower(last), maxExpansions) {
		if !slices.Contains(r.terms, t) {
			r.expansions = append(r.expansions, t)
		}
	}
	if len(r.expansions) == 0 {
		return nil
	}
	terms := append(slices.Clone(r.terms), r.expansions...)
	return ix.SearchTerms(terms, maxHits)
}

// lastWord returns the run of word runes (as the tokenizer splits) that
// ends the query, or "" when the query ends in anything else (the word is
// finished).
func lastWord(query string) string {
	end := len(query)
	i := end
	for i > 0 {
		r, w := utf8.DecodeLastRuneInString(query[:i])
		if !bm25.IsWordRune(r) {
			break
		}
		i -= w
	}
	return query[i:end]
}

// highlightTerms returns the terms to mark in the preview.
func (r *searchResult) highlightTerms() []string {
	if r == nil {
		return nil
	}
	return append(slices.Clone(r.terms), r.expansions...)
}

// cmpDesc orders by created_at then id, newest first.
func cmpDesc(ca, cb, ia, ib uint64) int {
	switch {
	case ca != cb && ca > cb:
		return -1
	case ca != cb:
		return 1
	case ia > ib:
		return -1
	case ia < ib:
		return 1
	}
	return 0
}
