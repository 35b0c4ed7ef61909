package tui

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/internal/textdiff"
)

// diffSeg is a run of a diff line's text; changed marks the words that
// differ from the line it pairs with.
type diffSeg struct {
	text    string
	changed bool
}

// diffLine is one line of a diff: op ' ' (in both), '-' (only in the
// version before) or '+' (only in the version shown).
type diffLine struct {
	op   byte
	segs []diffSeg
}

// diffResult is a version's diff against the one before; bounded says
// a work bound was hit (part diffed as whole lines, or words not
// compared).
type diffResult struct {
	lines   []diffLine
	bounded bool
}

// diffOf is the line diff from a to b, the words that changed in each
// pair of changed lines marked (textdiff).
func diffOf(a, b string) diffResult {
	d := textdiff.Diff(a, b)
	out := diffResult{bounded: d.Bounded, lines: make([]diffLine, 0, len(d.Lines))}
	for _, l := range d.Lines {
		var segs []diffSeg
		for _, s := range l.Segments() {
			segs = append(segs, diffSeg{text: s.Text, changed: s.Changed})
		}
		out.lines = append(out.lines, diffLine{op: l.Op, segs: segs})
	}
	return out
}

// renderDiff draws d's lines at width w: each behind its gutter ("- ",
// "+ ", "  "), removed and added lines in their styles with the words
// that changed set apart, wrapped (a wrapped line keeps its gutter), and
// every text shown as the preview shows it (sanitize.Text).
func renderDiff(st *styles, d diffResult, w int) []string {
	var out []string
	for _, l := range d.lines {
		base, word := lipgloss.NewStyle(), lipgloss.NewStyle()
		switch l.op {
		case '-':
			base, word = st.diffDel, st.diffDelWord
		case '+':
			base, word = st.diffAdd, st.diffAddWord
		}
		gutter := base.Render(string(l.op) + " ")
		if l.op == ' ' {
			gutter = "  "
		}
		for _, row := range wrapSegs(l.segs, max(w-2, 1)) {
			var b strings.Builder
			b.WriteString(gutter)
			for _, s := range row {
				if s.changed {
					b.WriteString(word.Render(s.text))
				} else {
					b.WriteString(base.Render(s.text))
				}
			}
			out = append(out, b.String())
		}
	}
	return out
}

// wrapSegs cuts a line's runs, sanitized, into rows of at most w cells;
// a line with no text is one empty row.
func wrapSegs(segs []diffSeg, w int) [][]diffSeg {
	var rows [][]diffSeg
	var cur []diffSeg
	used := 0
	for _, s := range segs {
		text := strings.ReplaceAll(sanitize.Text(s.text), "\t", "    ")
		for text != "" {
			part := ansi.Truncate(text, w-used, "")
			if part == "" && used == 0 { // one character wider than the row: alone on it
				_, n := utf8.DecodeRuneInString(text)
				part = text[:n]
			}
			if part != "" {
				cur = append(cur, diffSeg{text: part, changed: s.changed})
				used += ansi.StringWidth(part)
				text = text[len(part):]
			}
			if text != "" {
				rows, cur, used = append(rows, cur), nil, 0
			}
		}
	}
	return append(rows, cur)
}
