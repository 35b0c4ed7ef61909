package part

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
)

// The term table of the explain view (the preview's x) and the why panel:
// a row per query term, its tf, df, idf and contribution.

// NumbersWidth is the cells the tf, df, idf and contribution columns
// take, with their separating spaces (numbersFormat; tf and df with
// thousands separators, as every count); ExplainIndent is the views'
// left margin.
const (
	numbersFormat = " %5s %7s %8s %10s\n"
	NumbersWidth  = 1 + 5 + 1 + 7 + 1 + 8 + 1 + 10
	ExplainIndent = 2
)

// TermHeader is the term table's header row.
func TermHeader(termW int) string {
	return PadCells("term", termW) + fmt.Sprintf(numbersFormat, "tf", "df", "idf", "contrib")
}

// TermLine is one row of the table: the term, its tf and df, idf and
// contribution.
func TermLine(name string, termW, tf, df int, idf, contrib float64) string {
	return PadCells(name, termW) + fmt.Sprintf(numbersFormat, humanize.Count(tf), humanize.Count(df),
		fmt.Sprintf("%.4f", idf), fmt.Sprintf("%.4f", contrib))
}

// TermColumn is the term column's width: up to 16 cells, less on a
// narrow pane so the numbers stay visible, never under 6.
func TermColumn(width int) int {
	return min(16, max(6, width-ExplainIndent-NumbersWidth))
}

// PadCells cuts s to n cells (with an ellipsis) and pads it to exactly n.
func PadCells(s string, n int) string {
	s = ansi.Truncate(s, n, "…")
	return s + strings.Repeat(" ", max(0, n-ansi.StringWidth(s)))
}

// Indent prefixes every line of s.
func Indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// FirstOf joins the first n names and counts the rest: "a, b, c and 4
// more".
func FirstOf(names []string, n int) string {
	s := strings.Join(names[:min(n, len(names))], ", ")
	if len(names) > n {
		s += fmt.Sprintf(" and %s more", humanize.Count(len(names)-n))
	}
	return s
}
