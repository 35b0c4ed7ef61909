package historyview

import (
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/internal/textdiff"
	"github.com/crmem/crmem/tui/part"
)

// historyContext is how many unchanged lines the history view shows around a
// change, as diff -u does.
const historyContext = 3

// diffSeg is a run of a diff line's text; changed marks the words that
// differ from the line it pairs with.
type diffSeg struct {
	text    string
	changed bool
}

// diffLine is one line of a diff: op ' ' (in both), '-' (only in the
// version before) or '+' (only in the version shown); noEOL marks a
// text's last line without a newline where the other side has the same
// text: it tells apart two lines that read alike.
type diffLine struct {
	op    byte
	segs  []diffSeg
	noEOL bool
}

// diffHunk is a run of changes with the unchanged lines around them;
// header is diff -u's "@@ -a,n +b,m @@".
type diffHunk struct {
	header string
	lines  []diffLine
}

// diffResult is a version's diff against the one before: its hunks (none
// when the content did not change), the lines of the version shown, and
// whether a work bound was hit (part diffed as whole lines, or words not
// compared).
type diffResult struct {
	hunks   []diffHunk
	lines   int
	bounded bool
}

// diffOf is the line diff from a to b in hunks, the words that changed in
// each pair of changed lines marked (textdiff).
func diffOf(a, b string) diffResult {
	d := textdiff.Diff(a, b)
	out := diffResult{bounded: d.Bounded}
	for _, l := range d.Lines {
		if l.Op != '-' {
			out.lines++
		}
	}
	for _, h := range textdiff.Hunks(d.Lines, historyContext) {
		dh := diffHunk{header: h.Header()}
		texts := map[byte]map[string]bool{'-': {}, '+': {}, ' ': {}}
		for _, l := range h.Lines {
			texts[l.Op][l.Text] = true
		}
		for _, l := range h.Lines {
			var segs []diffSeg
			for _, s := range l.Segments() {
				segs = append(segs, diffSeg{text: s.Text, changed: s.Changed})
			}
			other := map[byte]byte{'-': '+', '+': '-'}[l.Op]
			alike := other != 0 && texts[other][l.Text] // the same text on the other side
			dh.lines = append(dh.lines, diffLine{op: l.Op, segs: segs, noEOL: l.NoEOL && alike})
		}
		out.hunks = append(out.hunks, dh)
	}
	return out
}

// renderDiff draws d at width w: each hunk under its header, each line
// behind its gutter ("- ", "+ ", "  "), removed and added lines in their
// styles with the words that changed set apart, wrapped at spaces where
// it can (a wrapped line keeps its gutter), every text shown as the
// preview shows it (sanitize.Text). A diff without changes says so.
func renderDiff(st *part.Styles, d diffResult, w int) []string {
	if len(d.hunks) == 0 {
		return part.WrapStyled(st.Dim, "content unchanged ("+humanize.Plural(d.lines, "line")+")", w)
	}
	var out []string
	for _, h := range d.hunks {
		out = append(out, st.Dim.Render(ansi.Truncate(h.header, w, "…")))
		for _, l := range h.lines {
			out = append(out, diffRows(st, l, w)...)
		}
	}
	return out
}

// noEOLMark follows a changed last line without a newline (diff -u's
// "\ No newline at end of file").
const noEOLMark = " ⏎ no newline at the end"

// diffRows is one diff line's rows at width w.
func diffRows(st *part.Styles, l diffLine, w int) []string {
	base, word := lipgloss.NewStyle(), lipgloss.NewStyle()
	gutter := "  "
	switch l.op {
	case '-':
		base, word = st.DiffDel, st.DiffDelWord
		gutter = base.Render("- ")
	case '+':
		base, word = st.DiffAdd, st.DiffAddWord
		gutter = base.Render("+ ")
	}
	segs := l.segs
	if l.noEOL {
		segs = append(slices.Clone(segs), diffSeg{text: noEOLMark})
	}
	var rows []string
	for _, row := range wrapSegs(segs, max(w-2, 1)) {
		var b strings.Builder
		b.WriteString(gutter)
		for _, s := range row {
			if s.changed {
				b.WriteString(word.Render(s.text))
			} else {
				b.WriteString(base.Render(s.text))
			}
		}
		rows = append(rows, b.String())
	}
	return rows
}

// wrapSegs cuts a line's runs, sanitized, into rows of at most w cells,
// after the last space that fits when there is one; a line with no text
// is one empty row.
func wrapSegs(segs []diffSeg, w int) [][]diffSeg {
	var text strings.Builder
	var changed []bool // per byte of text
	for _, s := range segs {
		t := strings.ReplaceAll(sanitize.Text(s.text), "\t", "    ")
		text.WriteString(t)
		for range len(t) {
			changed = append(changed, s.changed)
		}
	}
	var rows [][]diffSeg
	for _, r := range wrapAt(text.String(), w) {
		rows = append(rows, segsOf(text.String(), changed, r[0], r[1]))
	}
	return rows
}

// wrapAt is where s breaks into rows of at most w cells: [start, end)
// byte ranges, each ending after the last space that fits, else cut
// where the row is full (a character wider than the row alone on one).
func wrapAt(s string, w int) [][2]int {
	var rows [][2]int
	start, width, space := 0, 0, -1 // space: the byte after the row's last space
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		cw := ansi.StringWidth(s[i : i+n])
		if width+cw > w && i > start {
			end := i
			if space > start {
				end = space
			}
			rows = append(rows, [2]int{start, end})
			start, width, space = end, ansi.StringWidth(s[end:i]), -1
			continue
		}
		width += cw
		i += n
		if s[i-n] == ' ' {
			space = i
		}
	}
	return append(rows, [2]int{start, len(s)})
}

// segsOf is s[from:to] as runs of the same changed flag.
func segsOf(s string, changed []bool, from, to int) []diffSeg {
	var out []diffSeg
	for i := from; i < to; {
		j := i
		for j < to && changed[j] == changed[i] {
			j++
		}
		out = append(out, diffSeg{text: s[i:j], changed: changed[i]})
		i = j
	}
	return out
}
