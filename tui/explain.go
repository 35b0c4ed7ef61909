package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
)

// explainQuery is the query whose score the explain view breaks down: the
// query's own terms for an exact recall hit; for a row found otherwise (a
// prefix match, or a name match that only the prefix expansions score)
// the terms plus the expansions of the word being typed, which is what
// scored it.
func explainQuery(r *searchResult, h row) (string, []string) {
	if r == nil {
		return "", nil
	}
	if h.hit != hitExact && h.via != hitExact && len(r.expansions) > 0 {
		return strings.Join(append(slices.Clone(r.terms), r.expansions...), " "), r.expansions
	}
	return r.query, nil
}

// explainView renders bm25's explanation: per term tf, df, idf and
// contribution; document length against the average; N; the total.
func explainView(st *styles, ix *bm25.Index, r *searchResult, h row, id uint64, width int, hk explainHints) string {
	if r == nil || len(r.terms)+len(r.expansions) == 0 {
		return st.dim.Render(hk.noQuery())
	}
	if ix == nil {
		return st.dim.Render("Still indexing…")
	}
	query, expanded := explainQuery(r, h)
	ex := ix.Explain(query, id)
	var b strings.Builder
	b.WriteString("EXPLAIN" + paren(hints(": ", hk.off, "back to the content")) + "\n")
	fmt.Fprintf(&b, "Why this entry scores %.4f for %q\n", ex.Score, sanitize.Line(r.query))
	fmt.Fprintf(&b, "query tokens: %s\n", strings.Join(r.terms, " "))
	if len(expanded) > 0 {
		fmt.Fprintf(&b, "prefix expansions: %s\n", strings.Join(expanded, " "))
	}
	b.WriteString("\n")
	writeTerms(&b, ex, expanded, termColumn(width))
	out := fitLines(indent(b.String(), "  "), width)
	var totals strings.Builder
	writeTotals(&totals, ex)
	out += indent(ansi.Wordwrap(totals.String(), max(width-explainIndent-1, 10), " ,"), "  ")
	if note := footnote(ex, h, len(expanded) > 0); note != "" {
		out += "\n\n" + indent(ansi.Wordwrap(note, max(width-explainIndent-1, 10), " "), "  ")
	}
	return out
}

// footnote says how the row got listed when that is not plain recall.
func footnote(ex bm25.Explanation, h row, expanded bool) string {
	var notes []string
	if expanded {
		notes = append(notes, "* = a prefix expansion of the word being typed; recall itself matches whole words only.")
	}
	if h.hit == hitName {
		if ex.Score == 0 {
			notes = append(notes, "Listed as a name/alias match: recall does not return it for this query.")
		} else {
			notes = append(notes, "Listed first as a name/alias match.")
		}
	}
	return strings.Join(notes, " ")
}

// indent prefixes every line of s, matching the rendered content's margin.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// numbersWidth is the cells the tf, df, idf and contribution columns take,
// with their separating spaces (numbersFormat; tf and df with thousands
// separators, as every count); explainIndent is the view's left margin.
const (
	numbersFormat = " %5s %7s %8s %10s\n"
	numbersWidth  = 1 + 5 + 1 + 7 + 1 + 8 + 1 + 10
	explainIndent = 2
)

// termHeader is the explain table's header row.
func termHeader(termW int) string {
	return padCells("term", termW) + fmt.Sprintf(numbersFormat, "tf", "df", "idf", "contrib")
}

// termLine is one explain row: the term, its tf and df, idf and
// contribution.
func termLine(name string, termW, tf, df int, idf, contrib float64) string {
	return padCells(name, termW) + fmt.Sprintf(numbersFormat, humanize.Count(tf), humanize.Count(df),
		fmt.Sprintf("%.4f", idf), fmt.Sprintf("%.4f", contrib))
}

// termColumn is the term column's width: up to 16 cells, less on a narrow
// pane so the numbers stay visible, never under 6.
func termColumn(width int) int {
	return min(16, max(6, width-explainIndent-numbersWidth))
}

// writeTerms writes one row per query term: tf, df, idf, contribution. The
// term column is measured in terminal cells, so wide characters line up.
func writeTerms(b *strings.Builder, ex bm25.Explanation, expanded []string, termW int) {
	b.WriteString(termHeader(termW))
	for _, t := range ex.Terms {
		name := t.Term
		if slices.Contains(expanded, t.Term) {
			name += "*"
		}
		b.WriteString(termLine(name, termW, t.TF, t.DF, t.IDF, t.Contrib))
	}
}

// writeTotals writes the document length, N, the parameters and the total.
func writeTotals(b *strings.Builder, ex bm25.Explanation) {
	fmt.Fprintf(b, "\ndoc length %s tokens (content and aliases), average %.2f, N = %s indexed entries\n",
		humanize.Count(ex.DocLen), ex.AvgDocLen, humanize.Count(ex.N))
	fmt.Fprintf(b, "k1 = %.1f, b = %.2f\n", bm25.K1, bm25.B)
	fmt.Fprintf(b, "total = %.4f", ex.Score)
}

// padCells cuts s to n cells (with an ellipsis) and pads it to exactly n.
func padCells(s string, n int) string {
	s = ansi.Truncate(s, n, "…")
	return s + strings.Repeat(" ", max(0, n-ansi.StringWidth(s)))
}
