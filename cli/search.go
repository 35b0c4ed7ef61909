package cli

import (
	"bufio"
	"fmt"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// searchOptions are search's flags.
type searchOptions struct {
	kind    string
	limit   int
	js      jsonOutput
	explain bool
	why     []string
	redact  bool
}

// searchCommand ranks entries by BM25 exactly as the agent's recall does.
func (a *app) searchCommand() *cobra.Command {
	var o searchOptions
	c := &cobra.Command{
		Use:   "search QUERY... [--limit N] [--kind K] [--explain] [--why NAME]... [--redact] [--json|--pretty]",
		Short: "Rank entries for a query exactly as the agent's recall does",
		Long: `Rank entries by BM25 over their content and aliases, exactly as the agent's
recall(query) does: the words of QUERY are joined by spaces, tokenized, and
every entry with a score above zero is listed, best first (ties: higher id
first), at most --limit of them (0: all). --kind keeps one kind after ranking.
--explain shows why each entry scored what it did: per query term its
frequency in the entry (tf), the entries holding it (df), its idf and its share
of the score, with the entry's length against the average.
--json prints an array of entries in rank order, each with "score" (and with
--explain an "explain" object), on one line; --pretty indents it. --redact
masks the secrets lint finds (ghp_…x9Q2) in the hits' names, aliases and
content.

--why NAME (repeatable) says where the entry NAME (or alias) stands in the
recall, ranked as the agent's recall ranks (crabtalk's store: its own
recall): its rank among every entry scoring above zero, or why it has none
(not in memory, with names close to it; none of the query's terms in it; a
query word the tokenizer drops, shown as crmem tokens shows it); per query
term its tf, df, idf, part and share of the score; the terms it lacks; and
the gap to the last entry inside the limit, which is the agent's recall
limit 5 unless --limit is given (--limit 0: a recall that returns nothing,
as the agent's does). On a CRMEM v1 file the agent's recall breaks ties at
random: an entry tied with the last one inside the limit may or may not be
returned. The hits come first, at that limit. With
--json the output is one object: "query", "format", "terms", "words" (query
words the tokenizer changes: "word", "terms", "dropped" [{"piece",
"reason"}]), "limit", "ranked", "docs", "avg_doc_len", "cutoff" (the last
hit inside the limit, or null) and "hits" (each {"rank", "name", "kind",
"score"}), and "why": per NAME, in order, {"name", "found", "entry" (when
NAME is an alias), "kind", "rank" (0: none), "score", "in_limit", "gap",
"reason" (ranked, not_in_memory, no_query_terms, dropped_word,
no_shared_term, not_scored), "detail", "terms" [{"query", "term", "tf",
"df", "idf", "contrib", "share"}], "missing", "dropped_words", "doc_len",
"did_you_mean"}.`,
		Example: `  crmem search deploy rollback
  crmem search "postgres migration" --limit 3 --explain
  crmem search token refresh --kind archive --json
  crmem search postgres migration --why deploy-steps --why long-note`,
		Args: args(1, -1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(o.why) > 0 {
				return a.searchWhy(cmd, args)
			}
			k, err := kindFlag(cmd, o.kind)
			if err != nil {
				return err
			}
			if o.limit < 0 {
				return usage(cmd, "--limit must be 0 (all) or more")
			}
			query := strings.Join(args, " ")
			run := func() error {
				c, err := a.readContents()
				if err != nil {
					return err
				}
				hits, err := rankContents(c, query, k, o)
				if err != nil {
					return err
				}
				if o.redact {
					for i := range hits {
						hits[i].entry = redactEntry(hits[i].entry)
					}
				}
				return a.printHits(hits, presenterOf(c.Features), o.js)
			}
			if o.explain {
				return run() // builds the whole index: garbage to collect
			}
			return withoutGC(run)
		},
	}
	c.Flags().StringVar(&o.kind, "kind", "", "only entries of this kind: note, archive or topic")
	c.Flags().IntVar(&o.limit, "limit", 10, "at most N results (0: all)")
	c.Flags().BoolVar(&o.explain, "explain", false, "show each query term's part in each score")
	c.Flags().StringArrayVar(&o.why, "why", nil, "say where the entry NAME stands in the recall and why (repeatable)")
	_ = c.RegisterFlagCompletionFunc("why", a.completeNames(-1))
	o.js.register(c, "print the hits")
	registerRedact(c, &o.redact)
	return c
}

// printHits prints the results as JSON or as a table.
func (a *app) printHits(hits []hit, p presenter, js jsonOutput) error {
	if js.enabled() {
		out := make([]any, len(hits))
		for i, h := range hits {
			out[i] = p.hitJSON(h)
		}
		return a.output(func(w *bufio.Writer) error { return writeArray(w, js, out) })
	}
	if len(hits) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no matches")
		return err
	}
	return a.output(func(w *bufio.Writer) error { return writeSearch(w, hits, p) })
}

// rankContents ranks the memory's entries for query as the agent's recall
// does: with the format's own recall when it has one (crabtalk's store),
// else by v1 BM25; the hits of kind k only (all when nil), at most
// o.limit (0: all), explained when o.explain asks.
func rankContents(c *store.Contents, query string, k *store.Kind, o searchOptions) ([]hit, error) {
	p := presenterOf(c.Features)
	switch {
	case c.Features.Recall != nil:
		return recallHits(c, p, query, k, o)
	case o.explain:
		return explainedHits(c.File, p, query, k, o.limit), nil
	}
	found := c.File.Search(query, searchLimit(k, o.limit))
	return keepHits(len(found), func(i int) hit { return hit{entry: *found[i].Entry, score: found[i].Score} }, k, o.limit, p), nil
}

// explainedHits ranks f's entries with each hit's explanation, which
// needs the whole index (df of every query term, the entry's tf and
// length). f is given to the index: it must not be used afterwards.
func explainedHits(f *store.File, p presenter, query string, k *store.Kind, limit int) []hit {
	m := store.NewMemoryWith(f, store.IndexNow)
	found := m.Search(query, searchLimit(k, limit))
	hits := keepHits(len(found), func(i int) hit {
		e, _ := m.Get(found[i].ID)
		return hit{entry: e, score: found[i].Score}
	}, k, limit, p)
	for i := range hits {
		hits[i].explain = explainHit(m.Index(), query, hits[i].entry.ID)
	}
	return hits
}

// recallHits ranks with the format's own recall (crabtalk's store: its
// stored index and stats, prefix terms), explained when asked.
func recallHits(c *store.Contents, p presenter, query string, k *store.Kind, o searchOptions) ([]hit, error) {
	r := c.Features.Recall
	limit := o.limit
	if limit == 0 || k != nil {
		limit = math.MaxInt // 0 is "all" on the command line; filter, then cut
	}
	ranked, parts, err := r.Recall(query, limit)
	if err != nil {
		return nil, fileError{c.Path, err}
	}
	byID := make(map[uint64]int, len(ranked))
	for i, h := range ranked {
		byID[h.ID] = i
	}
	entries := make([]store.Entry, len(ranked))
	for _, e := range c.File.Entries {
		if i, ok := byID[e.ID]; ok {
			entries[i] = e
		}
	}
	st := r.RecallStats()
	return keepHits(len(ranked), func(i int) hit {
		h := hit{entry: entries[i], score: ranked[i].Score}
		if o.explain {
			h.explain = storeExplain(parts[i], st)
		}
		return h
	}, k, o.limit, p), nil
}

// searchLimit is the limit to search with: with a kind to keep, all hits
// (filter first, then cut).
func searchLimit(k *store.Kind, limit int) int {
	if k != nil {
		return 0
	}
	return limit
}

// keepHits returns the n ranked hits that at returns in order, those of
// kind k only (all when nil, as their format wrote the kind), at most
// limit (0: all).
func keepHits(n int, at func(i int) hit, k *store.Kind, limit int, p presenter) []hit {
	out := []hit{}
	for i := range n {
		h := at(i)
		if k != nil && p.kind(h.entry) != k.String() {
			continue
		}
		out = append(out, h)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out
}

// jsonExplain is why an entry scored what it did (search --explain).
type jsonExplain struct {
	Terms     []jsonTermScore `json:"terms"`
	DocLen    int             `json:"doc_len"`
	AvgDocLen float64         `json:"avg_doc_len"`
	N         int             `json:"n"`
}

// jsonTermScore is one query term's part in a score.
type jsonTermScore struct {
	Term    string  `json:"term"`
	TF      int     `json:"tf"`
	DF      int     `json:"df"`
	IDF     float64 `json:"idf"`
	Contrib float64 `json:"contrib"`
}

// explainHit is the index's explanation of entry id's score.
func explainHit(ix *bm25.Index, query string, id uint64) *jsonExplain {
	ex := ix.Explain(query, id)
	je := &jsonExplain{Terms: []jsonTermScore{}, DocLen: ex.DocLen, AvgDocLen: ex.AvgDocLen, N: ex.N}
	for _, t := range ex.Terms {
		je.Terms = append(je.Terms, jsonTermScore{t.Term, t.TF, t.DF, t.IDF, t.Contrib})
	}
	return je
}

// writeSearch prints the result table and, for explained hits, one line per
// matching term below each row.
func writeSearch(w *bufio.Writer, hits []hit, p presenter) error {
	lines := searchTable(hits, p).lines()
	w.WriteString(lines[0] + "\n")
	for i, h := range hits {
		w.WriteString(lines[i+1] + "\n")
		switch ex := h.explain.(type) {
		case *jsonExplain:
			writeExplain(w, ex)
		case *storeExplainJSON:
			writeStoreExplain(w, ex)
		}
	}
	return nil
}

// writeExplain prints the terms that matched and the entry's length.
func writeExplain(w *bufio.Writer, ex *jsonExplain) {
	for _, ts := range ex.Terms {
		if ts.TF == 0 {
			continue
		}
		fmt.Fprintf(w, "     %s: tf %d, df %d of %d, idf %.4f → %.4f\n", sanitizeLine(ts.Term), ts.TF, ts.DF, ex.N, ts.IDF, ts.Contrib)
	}
	fmt.Fprintf(w, "     length %d tokens (average %.1f)\n", ex.DocLen, ex.AvgDocLen)
}

// searchTable builds the human result list.
func searchTable(hits []hit, p presenter) *table {
	t := &table{right: map[int]bool{0: true, 1: true}}
	t.add("#", "SCORE", "KIND", "NAME", "CONTENT")
	for i, h := range hits {
		t.add(fmt.Sprint(i+1), fmt.Sprintf("%.4f", h.score), sanitizeLine(p.kind(h.entry)), nameText(h.entry.Name), snippet(h.entry.Content, 60))
	}
	return t
}
