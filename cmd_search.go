package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
)

// searchCommand ranks entries by BM25 exactly as the agent's recall does.
func (a *app) searchCommand() *cobra.Command {
	var kind string
	var limit int
	var asJSON bool
	c := &cobra.Command{
		Use:   "search QUERY... [--limit N] [--kind K] [--json]",
		Short: "Rank entries for a query exactly as the agent's recall does",
		Long: `Rank entries by BM25 over their content and aliases, exactly as the agent's
recall(query) does: the words of QUERY are joined by spaces, tokenized, and
every entry with a score above zero is listed, best first (ties: higher id
first), at most --limit of them (0: all). --kind keeps one kind after ranking.
--json prints an array of entries in rank order, each with "score".`,
		Example: `  crmem search deploy rollback
  crmem search "postgres migration" --limit 3
  crmem search token refresh --kind archive --json`,
		Args: args(1, -1),
		RunE: func(cmd *cobra.Command, args []string) error {
			k, err := kindFlag(cmd, kind)
			if err != nil {
				return err
			}
			if limit < 0 {
				return usage(cmd, "--limit must be 0 (all) or more")
			}
			_, m, err := a.openMemory()
			if err != nil {
				return err
			}
			hits := rankedHits(m, strings.Join(args, " "), k, limit)
			if asJSON {
				return a.output(func(w *bufio.Writer) error { return writeJSONArray(w, hits) })
			}
			if len(hits) == 0 {
				_, err := fmt.Fprintln(a.stdout, "no matches")
				return err
			}
			return a.output(func(w *bufio.Writer) error { return searchTable(hits).write(w) })
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "only entries of this kind: note, archive or topic")
	c.Flags().IntVar(&limit, "limit", 10, "at most N results (0: all)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// rankedHits searches m and returns the hits of kind k (all when nil), at
// most limit (0: all), with their entries.
func rankedHits(m *store.Memory, query string, k *store.Kind, limit int) []jsonHit {
	searchLimit := limit
	if k != nil {
		searchLimit = 0 // filter first, then cut
	}
	var out []jsonHit
	for _, h := range m.Search(query, searchLimit) {
		e, ok := m.Get(h.ID)
		if !ok || (k != nil && e.Kind != *k) {
			continue
		}
		out = append(out, jsonHit{jsonEntry: toJSON(e), Score: h.Score})
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out
}

// searchTable builds the human result list.
func searchTable(hits []jsonHit) *table {
	t := &table{right: map[int]bool{0: true, 1: true}}
	t.add("#", "SCORE", "KIND", "NAME", "CONTENT")
	for i, h := range hits {
		t.add(fmt.Sprint(i+1), fmt.Sprintf("%.4f", h.Score), h.Kind, sanitizeLine(h.Name), snippet(h.Content, 60))
	}
	return t
}
