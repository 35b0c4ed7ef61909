package cli

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store/why"
)

// searchWhy is `search QUERY --why NAME…`: the recall's hits, as the agent
// gets them (at the agent's limit unless --limit), then where each named
// entry stands and why.
func searchWhy(o *opener, s streams, cmd *cobra.Command, args []string) error {
	names, _ := cmd.Flags().GetStringArray("why")
	limit, _ := cmd.Flags().GetInt("limit")
	switch {
	case !cmd.Flags().Changed("limit"):
		limit = why.AgentLimit
	case limit < 0:
		return usage(cmd, "--limit must be 0 or more (with --why, 0 is a recall that returns nothing)")
	}
	if cmd.Flags().Changed("kind") {
		return usage(cmd, "--why ranks as the agent's recall does, which has no --kind")
	}
	if cmd.Flags().Changed("explain") {
		return usage(cmd, "--why explains the entries it names; to explain the hits, use --explain without --why")
	}
	_, src, err := o.openSource()
	if err != nil {
		return err
	}
	query := strings.Join(args, " ")
	rep, err := why.Explain(src, query, names, limit)
	if err != nil {
		return err
	}
	maskWhy(&rep, query, names)
	if limit == 0 {
		rep.AtLimitZero() // the agent's recall at limit 0 returns nothing, not everything
	}
	if js := jsonFlags(cmd); js.enabled() {
		return s.reportOutput(true, func(w *bufio.Writer) error { return js.write(w, rep) })
	}
	m := src.Memory()
	hits := make([]hit, 0, len(rep.Hits))
	for _, h := range rep.Hits {
		if e, ok := m.Get(h.ID); ok {
			// Masked before the table cuts the content to its width: a
			// secret cut short is no longer found.
			hits = append(hits, hit{entry: redactEntry(e), score: h.Score})
		}
	}
	p := presenterOf(src.Features())
	return s.reportOutputStrict(func(w *bufio.Writer) error {
		if len(hits) == 0 && limit == 0 {
			w.WriteString("no matches: a recall at limit 0 returns nothing\n")
		} else if len(hits) == 0 {
			w.WriteString("no matches\n")
		} else if err := searchTable(hits, p).write(w); err != nil {
			return err
		}
		writeWhy(w, rep)
		return nil
	})
}

// writeWhy prints the query's dropped words, then a block per named
// entry: where it stands, each query term's part, the terms it lacks.
func writeWhy(w *bufio.Writer, rep why.Report) {
	w.WriteString("\n")
	for _, wd := range rep.Words {
		fmt.Fprintf(w, "query word %s\n", sanitizeLine(wd.String()))
	}
	for _, e := range rep.Entries {
		name := nameText(e.Name)
		if e.Entry != "" {
			name += " (alias of " + nameText(e.Entry) + ")"
		}
		fmt.Fprintf(w, "why %s: %s\n", name, sanitizeLine(e.Detail))
		if !e.Found {
			continue
		}
		if len(rep.Terms) > 0 {
			whyTerms(rep, e).write(w)
		}
		if len(e.Missing) > 0 {
			fmt.Fprintf(w, "     lacks %s\n", sanitizeLine(strings.Join(e.Missing, ", ")))
		}
		fmt.Fprintf(w, "     length %s tokens (average %.1f over %s entries)\n", humanize.Count(e.DocLen), rep.AvgDocLen, humanize.Count(rep.Docs))
	}
}

// whyTerms is the table of a named entry's query terms: tf, df, idf,
// part of the score and share.
func whyTerms(rep why.Report, e why.Entry) *table {
	t := &table{right: map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true}}
	t.add("     TERM", "TF", "DF", "IDF", "PART", "SHARE")
	for _, ts := range e.Terms {
		term := ts.Query
		if ts.Term != "" && ts.Term != ts.Query {
			term += " → " + ts.Term
		}
		t.add("     "+sanitizeLine(term), humanize.Count(ts.TF), humanize.Count(ts.DF), fmt.Sprintf("%.4f", ts.IDF),
			fmt.Sprintf("%.4f", ts.Contrib), fmt.Sprintf("%.0f%%", 100*ts.Share))
	}
	return t
}
