// Package statsview draws a memory's stats (store/stats) as lines of text
// at a given width: the totals, a table by kind, the growth per month as a
// bar chart of block characters, and the biggest entries. `crmem stats`
// prints the lines as they are; the TUI's stats panel draws the same lines
// with its colours.
//
// When the figures carry the recall history (stats.Stats.Recalls), a last
// section gives the entries the agent's recorded recalls returned most
// often then and the entries none returned; with no history it is one
// line saying so. Another figure is one more field of stats.Stats and
// one more function in sections.
package statsview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/stats"
)

// MaxBar is the longest bar in cells: beyond it a wider terminal only
// adds blank space, not precision the numbers beside it do not already give.
const MaxBar = 48

// glyphs are the block characters of each kind's part of a bar, distinct
// without colour too.
var glyphs = [...]string{store.Note: "█", store.Archive: "▒", store.Topic: "░"}

// Style colours the parts of the page; a nil function leaves its text
// as it is, so the zero Style draws plain text.
type Style struct {
	Title func(string) string             // section titles
	Dim   func(string) string             // labels and quiet text
	Kind  func(store.Kind, string) string // a kind's part of a bar or its name
	// Name shows an entry name; nil means sanitize.Name (invisible
	// characters as ⟨U+XXXX⟩ markers), which every caller must at least do.
	Name func(string) string
}

// apply runs f on s, or returns s when f is nil.
func apply(f func(string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}

// kind colours s as kind k.
func (st Style) kind(k store.Kind, s string) string {
	if st.Kind == nil {
		return s
	}
	return st.Kind(k, s)
}

// name shows an entry name safely.
func (st Style) name(s string) string {
	if st.Name == nil {
		return sanitize.Name(s)
	}
	return st.Name(s)
}

// section draws one part of the page at a width.
type section func(s stats.Stats, width int, st Style) []string

// sections are the page's parts, in order.
var sections = []section{summary, kindTable, growth, biggest, recalled}

// Lines draws s at width cells (at least 1): every line fits the width,
// wide text is cut with "…". Sections are separated by an empty line.
func Lines(s stats.Stats, width int, st Style) []string {
	width = max(width, 1)
	var out []string
	for _, sec := range sections {
		lines := sec(s, width, st)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	for i, l := range out {
		if ansi.StringWidth(l) > width {
			out[i] = ansi.Truncate(l, width, "…")
		}
	}
	return out
}

// summary is the one-line total.
func summary(s stats.Stats, _ int, st Style) []string {
	t := s.Total
	return []string{apply(st.Title, humanize.Plural(t.Entries, "entry")) + apply(st.Dim, " · ") +
		humanize.Size(t.Bytes) + apply(st.Dim, " · ") + humanize.Plural(t.Tokens, "token")}
}

// kindTable is entries, bytes and tokens by kind, in aligned columns.
func kindTable(s stats.Stats, _ int, st Style) []string {
	rows := [][]string{{"kind", "entries", "bytes", "tokens"}}
	for _, k := range s.Kinds {
		rows = append(rows, []string{k.Kind.String(), humanize.Count(k.Entries), humanize.Size(k.Bytes), humanize.Count(k.Tokens)})
	}
	lines := columns(rows)
	lines[0] = apply(st.Dim, lines[0])
	for i, k := range s.Kinds {
		name := k.Kind.String()
		lines[i+1] = st.kind(k.Kind, name) + strings.TrimPrefix(lines[i+1], name)
	}
	return lines
}

// columns lays rows out: the first column left-aligned, the others
// right-aligned, two spaces apart.
func columns(rows [][]string) []string {
	var w []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(w) {
				w = append(w, 0)
			}
			w[i] = max(w[i], ansi.StringWidth(c))
		}
	}
	out := make([]string, len(rows))
	for j, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", w[i]-ansi.StringWidth(c))
			if i == 0 {
				b.WriteString(c + pad)
				continue
			}
			b.WriteString("  " + pad + c)
		}
		out[j] = b.String()
	}
	return out
}

// biggest lists the largest entries by bytes and by tokens.
func biggest(s stats.Stats, _ int, st Style) []string {
	var out []string
	list := func(title string, bs []stats.Big, measure func(stats.Big) string) {
		if len(bs) == 0 {
			return
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, apply(st.Title, title))
		w := 0
		for _, b := range bs {
			w = max(w, len(measure(b)))
		}
		for _, b := range bs {
			m := measure(b)
			out = append(out, strings.Repeat(" ", w-len(m))+m+"  "+st.kind(b.Kind, kindLetter(b.Kind))+" "+st.name(b.Name))
		}
	}
	list("largest entries (bytes)", s.Largest, func(b stats.Big) string { return humanize.Size(b.Bytes) })
	list("most tokens", s.MostTokens, func(b stats.Big) string { return humanize.Count(b.Tokens) })
	return out
}

// kindLetter is a kind's one-letter marker, as the TUI's list shows it.
func kindLetter(k store.Kind) string {
	if int(k) < len(glyphs) {
		return strings.ToUpper(k.String()[:1])
	}
	return "?"
}

// Bar draws counts (one per kind, in store.Kinds order) as one bar of
// cells columns for a total of total at full length; each kind with a
// count gets at least one column when there is room. Its width is cells
// as the TUI measures it (ansi.StringWidth): block characters are
// East-Asian ambiguous, so each glyph's width is measured, not assumed.
func Bar(counts []int, full, cells int, st Style) string {
	parts := barParts(counts, full, cells)
	var b strings.Builder
	for k, n := range parts {
		if n == 0 {
			continue
		}
		g := glyphs[k]
		b.WriteString(st.kind(store.Kind(k), strings.Repeat(g, n/max(ansi.StringWidth(g), 1))))
	}
	return b.String()
}

// barParts splits a bar of round(sum(counts)/full × cells) columns
// among the kinds by rounding the running sum, then gives a column to
// every kind with a count that got none, taken from the largest part.
func barParts(counts []int, full, cells int) []int {
	parts := make([]int, len(counts))
	total := 0
	for _, c := range counts {
		total += c
	}
	if total == 0 || full <= 0 || cells <= 0 {
		return parts
	}
	length := max((total*cells+full/2)/full, 1)
	length = min(length, cells)
	run, prev := 0, 0
	for k, c := range counts {
		run += c
		end := (run*length + total/2) / total
		parts[k] = end - prev
		prev = end
	}
	for k, c := range counts {
		if c == 0 || parts[k] > 0 {
			continue
		}
		big := 0
		for j := range parts {
			if parts[j] > parts[big] {
				big = j
			}
		}
		if parts[big] > 1 {
			parts[big]--
			parts[k] = 1
		}
	}
	return parts
}

// counts lists c by kind, in store.Kinds order.
func counts(c stats.Counts) []int {
	out := make([]int, len(store.Kinds))
	for i, k := range store.Kinds {
		out[i] = c.Of(k)
	}
	return out
}

// countText is "3 notes, 1 archive" for the kinds with a count.
func countText(c stats.Counts) string {
	var parts []string
	for _, k := range store.Kinds {
		if n := c.Of(k); n > 0 {
			parts = append(parts, humanize.Plural(n, k.String()))
		}
	}
	return strings.Join(parts, ", ")
}

// Legend names the glyph of each kind in kinds.
func Legend(kinds []store.Kind, st Style) string {
	var parts []string
	for _, k := range kinds {
		parts = append(parts, st.kind(k, glyphs[k])+" "+k.String())
	}
	return strings.Join(parts, "  ")
}

// maxGapRows is the longest run of months without additions drawn month
// by month; a longer one is one line saying how long it is.
const maxGapRows = 2

// growth is the bar chart of entries added per month.
func growth(s stats.Stats, width int, st Style) []string {
	if len(s.Months) == 0 && s.Undated.Total() == 0 {
		return nil
	}
	shown := growthKinds(s)
	out := []string{apply(st.Title, "added per month") + "  " + Legend(shown, st)}
	if len(s.Months) > 0 {
		out = append(out, monthRows(s.Months, shown, width, st)...)
	}
	if s.Undated.Total() > 0 {
		out = append(out, apply(st.Dim, "date unknown: ")+countText(s.Undated))
	}
	return out
}

// growthKinds are the kinds any month added (notes and archives at least).
func growthKinds(s stats.Stats) []store.Kind {
	shown := []store.Kind{store.Note, store.Archive}
	for _, m := range s.Months {
		if m.Added.Topic > 0 {
			return append(shown, store.Topic)
		}
	}
	return shown
}

// monthRows draws one row per month: its label, its bar and its counts
// by kind in right-aligned columns; the bars share one scale, the busiest
// month at full length. When the columns leave too little room for a
// bar, the row gives the month's total alone.
func monthRows(months []stats.Month, shown []store.Kind, width int, st Style) []string {
	full, numW := 0, make([]int, len(shown))
	for _, m := range months {
		full = max(full, m.Added.Total())
		for i, k := range shown {
			numW[i] = max(numW[i], len(humanize.Count(m.Added.Of(k))))
		}
	}
	const label = len("2006-01")
	cols := 0
	for _, w := range numW {
		cols += w + 1
	}
	split := true
	cells := width - label - 1 - cols - 1
	if cells < 4 { // the total alone, in one column
		split, cols = false, len(humanize.Count(full))+1
		cells = width - label - 1 - cols - 1
	}
	cells = min(max(cells, 1), MaxBar)
	var out []string
	for i, m := range months {
		if i > 0 {
			out = append(out, gapRows(months[i-1], m, st)...)
		}
		nums := ""
		if split {
			for j, k := range shown {
				nums += " " + pad(humanize.Count(m.Added.Of(k)), numW[j])
			}
		} else {
			nums = " " + pad(humanize.Count(m.Added.Total()), cols-1)
		}
		bar := Bar(counts(m.Added), full, cells, st)
		out = append(out, apply(st.Dim, m.Month)+" "+bar+strings.Repeat(" ", cells-ansi.StringWidth(bar))+nums)
	}
	return out
}

// gapRows draws the months between a and b, which added nothing: each
// month's label when there are few, else one line saying how many.
func gapRows(a, b stats.Month, st Style) []string {
	n := b.Index() - a.Index() - 1
	if n <= 0 {
		return nil
	}
	if n > maxGapRows {
		return []string{apply(st.Dim, fmt.Sprintf("  ⋯ %s without additions", humanize.Plural(n, "month")))}
	}
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, apply(st.Dim, stats.MonthLabel(a.Index()+i)))
	}
	return out
}

// pad right-aligns s in w columns.
func pad(s string, w int) string {
	return strings.Repeat(" ", max(w-len(s), 0)) + s
}
