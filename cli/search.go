package cli

import (
	"bufio"
	"fmt"
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
}

// searchCommand ranks entries by BM25 exactly as the agent's recall does.
func (a *app) searchCommand() *cobra.Command {
	var o searchOptions
	c := &cobra.Command{
		Use:   "search QUERY... [--limit N] [--kind K] [--explain] [--why NAME]... [--json|--pretty]",
		Short: "Rank entries for a query exactly as the agent's recall does",
		Long: `Rank entries by BM25 over their content and aliases, exactly as the agent's
recall(query) does: the words of QUERY are joined by spaces, tokenized, and
every entry with a score above zero is listed, best first (ties: higher id
first), at most --limit of them (0: all). --kind keeps one kind after ranking.
--explain shows why each entry scored what it did: per query term its
frequency in the entry (tf), the entries holding it (df), its idf and its share
of the score, with the entry's length against the average.
--json prints an array of entries in rank order, each with "score" (and with
--explain an "explain" object), on one line; --pretty indents it.

--why NAME (repeatable) says where the entry NAME (or alias) stands in the
recall, ranked as the agent's recall ranks (crabtalk's store: its own
recall): its rank among every entry scoring above zero, or why it has none
(not in memory, with names close to it; none of the query's terms in it; a
query word the tokenizer drops, shown as crmem tokens shows it); per query
term its tf, df, idf, part and share of the score; the terms it lacks; and
the gap to the last entry inside the limit, which is the agent's recall
limit 5 unless --limit is given. The hits come first, at that limit. With
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
			var hits []jsonHit
			if o.explain {
				hits, err = a.explainedHits(query, k, o.limit)
			} else {
				err = withoutGC(func() (err error) {
					hits, err = a.searchFile(query, k, o.limit)
					return err
				})
			}
			if err != nil {
				return err
			}
			return a.printHits(hits, o.js)
		},
	}
	c.Flags().StringVar(&o.kind, "kind", "", "only entries of this kind: note, archive or topic")
	c.Flags().IntVar(&o.limit, "limit", 10, "at most N results (0: all)")
	c.Flags().BoolVar(&o.explain, "explain", false, "show each query term's part in each score")
	c.Flags().StringArrayVar(&o.why, "why", nil, "say where the entry NAME stands in the recall and why (repeatable)")
	_ = c.RegisterFlagCompletionFunc("why", a.completeNames(-1))
	o.js.register(c, "print the hits")
	return c
}

// printHits prints the results as JSON or as a table.
func (a *app) printHits(hits []jsonHit, js jsonOutput) error {
	if js.enabled() {
		return a.output(func(w *bufio.Writer) error { return writeArray(w, js, hits) })
	}
	if len(hits) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no matches")
		return err
	}
	return a.output(func(w *bufio.Writer) error { return writeSearch(w, hits) })
}

// searchFile ranks the memory file's entries in one pass over the decoded
// file: a search that runs once builds no index (store.File.Search).
func (a *app) searchFile(query string, k *store.Kind, limit int) ([]jsonHit, error) {
	_, f, err := a.decodeFile()
	if err != nil {
		return nil, err
	}
	found := f.Search(query, searchLimit(k, limit))
	return keepHits(len(found), func(i int) (store.Entry, float64) { return *found[i].Entry, found[i].Score }, k, limit), nil
}

// explainedHits is searchFile with each hit's explanation, which needs the
// whole index (df of every query term, the entry's tf and length).
func (a *app) explainedHits(query string, k *store.Kind, limit int) ([]jsonHit, error) {
	_, m, err := a.openIndexed()
	if err != nil {
		return nil, err
	}
	found := m.Search(query, searchLimit(k, limit))
	hits := keepHits(len(found), func(i int) (store.Entry, float64) {
		e, _ := m.Get(found[i].ID)
		return e, found[i].Score
	}, k, limit)
	explainHits(m.Index(), query, hits)
	return hits, nil
}

// searchLimit is the limit to search with: with a kind to keep, all hits
// (filter first, then cut).
func searchLimit(k *store.Kind, limit int) int {
	if k != nil {
		return 0
	}
	return limit
}

// keepHits returns the n ranked hits that hit returns in order, those of
// kind k only (all when nil), at most limit (0: all).
func keepHits(n int, hit func(i int) (store.Entry, float64), k *store.Kind, limit int) []jsonHit {
	out := []jsonHit{}
	for i := range n {
		e, score := hit(i)
		if k != nil && e.Kind != *k {
			continue
		}
		out = append(out, jsonHit{jsonEntry: toJSON(e), Score: score})
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

// explainHits attaches the index's explanation to every hit.
func explainHits(ix *bm25.Index, query string, hits []jsonHit) {
	for i := range hits {
		ex := ix.Explain(query, hits[i].ID)
		je := &jsonExplain{Terms: []jsonTermScore{}, DocLen: ex.DocLen, AvgDocLen: ex.AvgDocLen, N: ex.N}
		for _, t := range ex.Terms {
			je.Terms = append(je.Terms, jsonTermScore{t.Term, t.TF, t.DF, t.IDF, t.Contrib})
		}
		hits[i].Explain = je
	}
}

// writeSearch prints the result table and, for explained hits, one line per
// matching term below each row.
func writeSearch(w *bufio.Writer, hits []jsonHit) error {
	lines := searchTable(hits).lines()
	w.WriteString(lines[0] + "\n")
	for i, h := range hits {
		w.WriteString(lines[i+1] + "\n")
		if h.Explain != nil {
			writeExplain(w, h.Explain)
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
func searchTable(hits []jsonHit) *table {
	t := &table{right: map[int]bool{0: true, 1: true}}
	t.add("#", "SCORE", "KIND", "NAME", "CONTENT")
	for i, h := range hits {
		t.add(fmt.Sprint(i+1), fmt.Sprintf("%.4f", h.Score), h.Kind, nameText(h.Name), snippet(h.Content, 60))
	}
	return t
}
