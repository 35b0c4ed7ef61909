package cli

import (
	"bufio"
	"fmt"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/open"
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

// searchLong is search's help: the ranking, --explain, and --why with its
// JSON.
const searchLong = `Rank entries by BM25 over their content and aliases, exactly as the agent's
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
returned. The hits come first, at that limit. With --json the output is
one object: "query", "format", "terms", "words" (query words the tokenizer
changes: "word", "terms", "dropped" [{"piece", "reason"}]), "limit",
"ranked", "docs", "avg_doc_len", "cutoff" (the last hit inside the limit,
or null) and "hits" (each {"rank", "name", "kind", "score"}), and "why":
per NAME, in order, {"name", "found", "entry" (when NAME is an alias),
"kind", "rank" (0: none), "score", "in_limit", "gap", "reason" (ranked,
not_in_memory, no_query_terms, dropped_word, no_shared_term, not_scored),
"detail", "terms" [{"query", "term", "tf", "df", "idf", "contrib",
"share"}], "missing", "dropped_words", "doc_len", "did_you_mean"}.`

// searchCommand ranks entries by BM25 exactly as the agent's recall does.
func searchCommand(o *opener, s streams) *cobra.Command {
	var opts searchOptions
	c := &cobra.Command{
		Use:   "search QUERY... [--limit N] [--kind K] [--explain] [--why NAME]... [--redact] [--json|--pretty]",
		Short: "Rank entries for a query exactly as the agent's recall does",
		Long:  searchLong,
		Example: `  crmem search deploy rollback
  crmem search "postgres migration" --limit 3 --explain
  crmem search token refresh --kind archive --json
  crmem search postgres migration --why deploy-steps --why long-note`,
		Args: args(1, -1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(opts.why) > 0 {
				return searchWhy(o, s, cmd, args)
			}
			k, err := kindFlag(cmd, opts.kind)
			if err != nil {
				return err
			}
			if opts.limit < 0 {
				return usage(cmd, "--limit must be 0 (all) or more")
			}
			query := strings.Join(args, " ")
			run := func() error {
				c, hits, err := searchOnce(o, query, k, opts)
				if err != nil {
					return err
				}
				if opts.redact {
					for i := range hits {
						hits[i].entry = redactEntry(hits[i].entry)
					}
				}
				return printHits(s, hits, presenterOf(c.Features), opts.js)
			}
			if opts.explain {
				return run() // builds the whole index: garbage to collect
			}
			return withoutGC(run)
		},
	}
	c.Flags().StringVar(&opts.kind, "kind", "", "only entries of this kind: note, archive or topic")
	c.Flags().IntVar(&opts.limit, "limit", 10, "at most N results (0: all)")
	c.Flags().BoolVar(&opts.explain, "explain", false, "show each query term's part in each score")
	c.Flags().StringArrayVar(&opts.why, "why", nil, "say where the entry NAME stands in the recall and why (repeatable)")
	_ = c.RegisterFlagCompletionFunc("why", o.completeNames(-1))
	opts.js.register(c, "print the hits")
	registerRedact(c, &opts.redact)
	return c
}

// printHits prints the results as JSON or as a table.
func printHits(s streams, hits []hit, p presenter, js jsonOutput) error {
	if js.enabled() {
		out := make([]any, len(hits))
		for i, h := range hits {
			out[i] = p.hitJSON(h)
		}
		return s.output(func(w *bufio.Writer) error { return writeArray(w, js, out) })
	}
	if len(hits) == 0 {
		_, err := fmt.Fprintln(s.stdout, "no matches")
		return err
	}
	return s.output(func(w *bufio.Writer) error { return writeSearch(w, hits, p) })
}

// searchOnce reads the memory file and ranks its entries for query as
// readContents and then rankContents do. A plain search (no --explain)
// of a large CRMEM v1 file reads and ranks it in one go
// (store.SearchData: its strings' UTF-8 checked where the ranking did not
// find them ASCII, not in a pass of its own, and only the hits' entries
// kept: the Contents made of it has no entries, which nothing here reads);
// any other file, or one that fails there, is read as readContents reads
// it, with its errors.
func searchOnce(o *opener, query string, k *store.Kind, opts searchOptions) (*store.Contents, []hit, error) {
	if opts.explain {
		c, err := o.readContents()
		if err != nil {
			return nil, nil, err
		}
		hits, err := rankContents(c, query, k, opts)
		return c, hits, err
	}
	path, err := o.dbPath()
	if err != nil {
		return nil, nil, err
	}
	if err := o.repairAtStart(path); err != nil {
		return nil, nil, err
	}
	data, err := store.MapFile(path) // a regular file only: a FIFO or device fails at once
	if err != nil {
		_, err = o.readContentsDone(path, nil, err)
		return nil, nil, err
	}
	f, found, ok := store.SearchData(data, query, rankLimit(k, opts))
	if !ok {
		c, err := open.ContentsOf(path, data, o.sessionsFolder())
		if c, err = o.readContentsDone(path, c, err); err != nil {
			return nil, nil, err
		}
		hits, err := rankContents(c, query, k, opts)
		return c, hits, err
	}
	c, err := o.readContentsDone(path, store.V1Contents(path, f, o.sessionsFolder()), nil)
	if err != nil {
		return nil, nil, err
	}
	// The hits hold their entries: no walk over the file's to find them
	// by id (entriesOf).
	at := func(i int) hit { return hit{entry: *found[i].Entry, score: found[i].Score} }
	return c, keepHits(len(found), at, k, opts.limit, presenterOf(c.Features)), nil
}

// rankLimit is the number of hits to rank for the options: all when 0 is
// asked ("all" on the command line) or a kind is kept, which filters
// before the cut.
func rankLimit(k *store.Kind, o searchOptions) int {
	if o.limit == 0 || k != nil {
		return math.MaxInt
	}
	return o.limit
}

// rankContents ranks the memory's entries for query as the agent's recall
// does (Features.Recall, whatever the format): the hits of kind k only
// (all when nil), at most o.limit (0: all), explained when o.explain asks.
func rankContents(c *store.Contents, query string, k *store.Kind, o searchOptions) ([]hit, error) {
	r := c.Features.Recall
	limit := rankLimit(k, o)
	var (
		ranked []bm25.Hit
		parts  []store.RecallHit
		err    error
	)
	if o.explain {
		ranked, parts, err = r.Recall(query, limit)
	} else {
		ranked, err = r.Rank(query, limit)
	}
	if err != nil {
		return nil, fileError{c.Path, err}
	}
	return hitsOf(c, ranked, parts, k, o), nil
}

// hitsOf are the ranked entries of c as search prints them: of kind k
// only (all when nil), at most o.limit (0: all), each explained by its
// part when o.explain asks.
func hitsOf(c *store.Contents, ranked []bm25.Hit, parts []store.RecallHit, k *store.Kind, o searchOptions) []hit {
	r := c.Features.Recall
	entries := entriesOf(c.File, ranked)
	var st store.RecallStats
	if o.explain {
		st = r.RecallStats()
	}
	return keepHits(len(ranked), func(i int) hit {
		h := hit{entry: entries[i], score: ranked[i].Score}
		if o.explain {
			h.explain = explainOf(parts[i], st, r.Stored())
		}
		return h
	}, k, o.limit, presenterOf(c.Features))
}

// entriesOf are f's entries with the ids of ranked, in that order (of two
// entries sharing an id, the later, as a memory keeps it).
func entriesOf(f *store.File, ranked []bm25.Hit) []store.Entry {
	byID := make(map[uint64]int, len(ranked))
	for i, h := range ranked {
		byID[h.ID] = i
	}
	entries := make([]store.Entry, len(ranked))
	for _, e := range f.Entries {
		if i, ok := byID[e.ID]; ok {
			entries[i] = e
		}
	}
	return entries
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

// jsonExplain is why an entry scored what it did (search --explain), in
// one shape for both formats: per query term (crabtalk's store: per
// posting row) its tf, df, idf and contribution, the entry's length and
// the average, over n documents. Where the recall ranks by an index of its
// own (crabtalk's store), each term also names its query term ("depl*")
// and the entry's stored weight and the stored total length come along.
type jsonExplain struct {
	Terms     []jsonTermScore `json:"terms"`
	DocLen    int             `json:"doc_len"`
	AvgDocLen float64         `json:"avg_doc_len"`
	N         int             `json:"n"`
	Weight    *float64        `json:"weight,omitempty"`    // crabtalk's store only
	TotalLen  *uint64         `json:"total_len,omitempty"` // crabtalk's store only
}

// jsonTermScore is one query term's part in a score.
type jsonTermScore struct {
	Query   string  `json:"query,omitempty"` // crabtalk's store only: the query term, "depl*" for a prefix
	Term    string  `json:"term"`
	TF      int     `json:"tf"`
	DF      int     `json:"df"`
	IDF     float64 `json:"idf"`
	Contrib float64 `json:"contrib"`
}

// explainOf is the explanation of the recall hit h, over the recall's
// stats st; stored says the recall ranks by an index of its own.
func explainOf(h store.RecallHit, st store.RecallStats, stored bool) *jsonExplain {
	ex := &jsonExplain{Terms: make([]jsonTermScore, len(h.Parts)), DocLen: int(h.DocLen), N: int(st.Docs)}
	if st.Docs > 0 {
		ex.AvgDocLen = float64(st.TotalLen) / float64(st.Docs)
	}
	if stored {
		w, total := h.Weight, st.TotalLen
		ex.Weight, ex.TotalLen = &w, &total
	}
	for i, p := range h.Parts {
		ex.Terms[i] = jsonTermScore{Term: p.Term, TF: p.TF, DF: p.DF, IDF: p.IDF, Contrib: p.Contrib}
		if stored {
			ex.Terms[i].Query = p.Query
		}
	}
	return ex
}

// writeSearch prints the result table and, for explained hits, one line per
// matching term below each row.
func writeSearch(w *bufio.Writer, hits []hit, p presenter) error {
	lines := searchTable(hits, p).lines()
	w.WriteString(lines[0] + "\n")
	for i, h := range hits {
		w.WriteString(lines[i+1] + "\n")
		if h.explain != nil {
			writeExplain(w, h.explain)
		}
	}
	return nil
}

// writeExplain prints the terms that matched (crabtalk's store: each
// posting row, "query → term" where a prefix matched) and the entry's
// length (with the stored stats and weight where the recall has them).
func writeExplain(w *bufio.Writer, ex *jsonExplain) {
	for _, ts := range ex.Terms {
		term := sanitizeLine(ts.Term)
		switch {
		case ex.Weight == nil && ts.TF == 0:
			continue
		case ex.Weight != nil:
			term = sanitizeLine(ts.Query)
			if ts.Query != ts.Term {
				term += " → " + sanitizeLine(ts.Term)
			}
		}
		fmt.Fprintf(w, "     %s: tf %d, df %d of %d, idf %.4f → %.4f\n", term, ts.TF, ts.DF, ex.N, ts.IDF, ts.Contrib)
	}
	if ex.Weight == nil {
		fmt.Fprintf(w, "     length %d tokens (average %.1f)\n", ex.DocLen, ex.AvgDocLen)
		return
	}
	fmt.Fprintf(w, "     length %d tokens (average %.1f: stored stats %d docs, %d tokens), weight %g\n",
		ex.DocLen, ex.AvgDocLen, ex.N, *ex.TotalLen, *ex.Weight)
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
