package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/tui/sanitize"
)

// explainQuery is the query whose score the explain view breaks down: the
// query's own terms, plus the prefix expansions for a prefix-only hit (that
// is what ranked it).
func explainQuery(r *searchResult, k hitKind) (string, []string) {
	if r == nil {
		return "", nil
	}
	if k == hitPrefix {
		return strings.Join(append(slices.Clone(r.terms), r.expansions...), " "), r.expansions
	}
	return r.query, nil
}

// explainView renders bm25's explanation: per term tf, df, idf and
// contribution; document length against the average; N; the total.
func explainView(st *styles, ix *bm25.Index, r *searchResult, h row, id uint64, width int) string {
	if r == nil || len(r.terms)+len(r.expansions) == 0 {
		return st.dim.Render("Type a query (/) to see why an entry ranks where it does.")
	}
	if ix == nil {
		return st.dim.Render("Still indexing…")
	}
	query, expanded := explainQuery(r, h.hit)
	ex := ix.Explain(query, id)
	var b strings.Builder
	fmt.Fprintf(&b, "Why this entry scores %.4f for %q\n", ex.Score, sanitize.Line(r.query))
	fmt.Fprintf(&b, "query tokens: %s\n", strings.Join(r.terms, " "))
	if len(expanded) > 0 {
		fmt.Fprintf(&b, "prefix expansions: %s\n", strings.Join(expanded, " "))
	}
	b.WriteString("\n")
	writeTerms(&b, ex, expanded, termColumn(width))
	writeTotals(&b, ex, h.hit)
	return fitLines(indent(b.String(), "  "), width)
}

// indent prefixes every line of s, matching the rendered content's margin.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// numbersWidth is the cells the tf, df, idf and contribution columns take,
// with their separating spaces; explainIndent is the view's left margin.
const (
	numbersWidth  = 1 + 4 + 1 + 6 + 1 + 8 + 1 + 10
	explainIndent = 2
)

// termColumn is the term column's width: up to 16 cells, less on a narrow
// pane so the numbers stay visible, never under 6.
func termColumn(width int) int {
	return min(16, max(6, width-explainIndent-numbersWidth))
}

// writeTerms writes one row per query term: tf, df, idf, contribution. The
// term column is measured in terminal cells, so wide characters line up.
func writeTerms(b *strings.Builder, ex bm25.Explanation, expanded []string, termW int) {
	fmt.Fprintf(b, "%s %4s %6s %8s %10s\n", padCells("term", termW), "tf", "df", "idf", "contrib")
	for _, t := range ex.Terms {
		name := t.Term
		if slices.Contains(expanded, t.Term) {
			name += "*"
		}
		fmt.Fprintf(b, "%s %4d %6d %8.4f %10.4f\n", padCells(name, termW), t.TF, t.DF, t.IDF, t.Contrib)
	}
}

// writeTotals writes the document length, N, the parameters and the total.
func writeTotals(b *strings.Builder, ex bm25.Explanation, k hitKind) {
	fmt.Fprintf(b, "\ndoc length %d tokens, average %.2f, N = %d indexed entries\n", ex.DocLen, ex.AvgDocLen, ex.N)
	fmt.Fprintf(b, "k1 = %.1f, b = %.2f\n", bm25.K1, bm25.B)
	fmt.Fprintf(b, "total = %.4f", ex.Score)
	switch {
	case k == hitPrefix:
		b.WriteString("  (* = prefix expansion of the word being typed)")
	case k == hitName && ex.Score == 0:
		b.WriteString("  (listed as a name/alias match; recall does not return it)")
	}
}

// padCells cuts s to n cells (with an ellipsis) and pads it to exactly n.
func padCells(s string, n int) string {
	s = ansi.Truncate(s, n, "…")
	return s + strings.Repeat(" ", max(0, n-ansi.StringWidth(s)))
}
