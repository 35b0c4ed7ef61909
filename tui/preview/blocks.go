package preview

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
)

// glamour wraps every block at the pane's width, code blocks included
// (their lines are re-flowed and lose their indentation), and it joins a
// paragraph's lines even where markdown asks for a hard line break (two
// trailing spaces, or a backslash). Before rendering, each fenced code
// block is replaced by a one-word placeholder paragraph and each hard break
// by a marker word; after rendering, the placeholder's line is replaced by
// the code's own lines (clipped, never wrapped, with a visible marker) and
// each marker starts a new line.

const (
	codeToken  = "CRMEMCODEBLOCK"
	breakToken = "CRMEMHARDBREAK"
	clipMark   = "→" // ends a code line clipped at the pane's edge
)

// fenceRE matches a code fence opening or closing line.
var fenceRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^( *)(```+|~~~+)(.*)$") })

// protectBlocks swaps fenced code blocks for placeholders and hard line
// breaks for markers; blocks holds each code block's lines.
func protectBlocks(md string) (string, [][]string) {
	lines := strings.Split(md, "\n")
	var out []string
	var blocks [][]string
	for i := 0; i < len(lines); i++ {
		m := fenceRE().FindStringSubmatch(lines[i])
		if m == nil {
			out = append(out, hardBreak(lines, i))
			continue
		}
		indent, fence := m[1], m[2]
		var code []string
		j := i + 1
		for ; j < len(lines); j++ {
			if c := fenceRE().FindStringSubmatch(lines[j]); c != nil && c[2][0] == fence[0] && len(c[2]) >= len(fence) && strings.TrimSpace(c[3]) == "" {
				break
			}
			code = append(code, strings.TrimPrefix(strings.ReplaceAll(lines[j], "\t", "    "), indent))
		}
		out = append(out, indent+fmt.Sprintf("%s%dX", codeToken, len(blocks)))
		blocks = append(blocks, code)
		i = j
	}
	return strings.Join(out, "\n"), blocks
}

// hardBreak marks line i's hard line break, if it ends in one and the next
// line continues the paragraph.
func hardBreak(lines []string, i int) string {
	l := lines[i]
	if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) == "" || strings.TrimSpace(l) == "" {
		return l
	}
	switch {
	case strings.HasSuffix(l, "  "):
		return strings.TrimRight(l, " ") + " " + breakToken
	case strings.HasSuffix(l, "\\") && !strings.HasSuffix(l, "\\\\"):
		return strings.TrimSuffix(l, "\\") + " " + breakToken
	}
	return l
}

// restoreBlocks puts the code blocks back in place of their placeholders,
// each line clipped to width, and breaks lines at the hard-break markers.
func restoreBlocks(out string, blocks [][]string, width int) string {
	if len(blocks) == 0 && !strings.Contains(out, breakToken) {
		return out
	}
	var res []string
	for _, line := range strings.Split(out, "\n") {
		plain := ansi.Strip(line)
		if i := strings.Index(plain, codeToken); i >= 0 {
			res = append(res, codeLines(plain, i, blocks, width)...)
			continue
		}
		res = append(res, splitBreaks(line, plain)...)
	}
	return strings.Join(res, "\n")
}

// codeLines renders the code block whose placeholder sits at byte i of
// plain: any text glamour joined before it (a list item's own line), then
// the code's lines indented two past that text's start, clipped.
func codeLines(plain string, i int, blocks [][]string, width int) []string {
	var n int
	if _, err := fmt.Sscanf(plain[i+len(codeToken):], "%dX", &n); err != nil || n >= len(blocks) {
		return []string{plain}
	}
	var lines []string
	before := strings.TrimRight(plain[:i], " ")
	if strings.TrimSpace(before) != "" {
		lines = append(lines, before)
	}
	indent := strings.Repeat(" ", textIndent(plain[:i])+2)
	room := max(width-len(indent), 4)
	for _, l := range blocks[n] {
		if ansi.StringWidth(l) > room {
			l = ansi.Truncate(l, room, clipMark)
		}
		lines = append(lines, indent+l)
	}
	return lines
}

// splitBreaks starts a new line at each hard-break marker, indented like
// the text of the line it breaks.
func splitBreaks(line, plain string) []string {
	if !strings.Contains(line, breakToken) {
		return []string{line}
	}
	parts := strings.Split(line, breakToken)
	indent := strings.Repeat(" ", textIndent(plain))
	out := []string{strings.TrimRight(parts[0], " ")}
	for _, p := range parts[1:] {
		p = strings.TrimLeft(p, " ")
		if strings.TrimSpace(ansi.Strip(p)) != "" {
			out = append(out, indent+p)
		}
	}
	if ansi.Strip(out[0]) == "" && len(out) > 1 {
		out = out[1:]
	}
	return out
}

// listPrefixRE matches a rendered list item's bullet or number.
var listPrefixRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ *(• |\d+\. )`) })

// textIndent is where the text of a rendered line starts: after its
// leading spaces and any list bullet (all of it for a blank line).
func textIndent(plain string) int {
	if m := listPrefixRE().FindString(plain); m != "" {
		return ansi.StringWidth(m)
	}
	return ansi.StringWidth(plain) - ansi.StringWidth(strings.TrimLeft(plain, " "))
}

// Tables: glamour fits a table into the pane by wrapping its cells, which
// reads well until a column gets narrower than its longest word; then it
// cuts words apart and a many-column table collapses into "│ │ │". Such a
// table is shown as plain text instead: its rows unwrapped, the columns
// aligned, each line clipped at the pane's edge with the code blocks'
// marker (zoom and the pager show it whole). Plain text rather than
// horizontal scrolling: it goes through the code blocks' tested path and
// needs no keys of its own (left and right already leave the preview in
// one-pane mode).

// tableDelimRE matches a table's delimiter row: | --- | :-: | --: |.
var tableDelimRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}\|?( *:?-+:? *\|)*( *:?-+:? *)\|? *$`) })

// tableMargin is what glamour's table takes beside its cells: the
// document's margin on both sides.
const tableMargin = 4

// protectWideTables swaps each table glamour could not fit into width
// without cutting words for a code-block placeholder (blocks grows) whose
// lines are the table laid out as plain text.
func protectWideTables(md string, blocks [][]string, width int) (string, [][]string) {
	lines := strings.Split(md, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		rows := tableAt(lines, i)
		if rows == nil || tableFits(rows, width) {
			out = append(out, lines[i])
			continue
		}
		out = append(out, "", fmt.Sprintf("%s%dX", codeToken, len(blocks)), "")
		blocks = append(blocks, plainTable(rows))
		i += len(rows) // the header, the delimiter row and the body rows
	}
	return strings.Join(out, "\n"), blocks
}

// tableAt returns the cells of the table starting at line i (its header,
// then its body rows; the delimiter row left out), or nil.
func tableAt(lines []string, i int) [][]string {
	if i+1 >= len(lines) || !strings.Contains(lines[i], "|") || !tableDelimRE().MatchString(lines[i+1]) {
		return nil
	}
	header := tableCells(lines[i])
	if len(header) != len(tableCells(lines[i+1])) {
		return nil
	}
	rows := [][]string{header}
	for j := i + 2; j < len(lines) && strings.Contains(lines[j], "|") && strings.TrimSpace(lines[j]) != ""; j++ {
		rows = append(rows, tableCells(lines[j]))
	}
	return rows
}

// tableCells splits a table row at its unescaped pipes, dropping the
// outer ones, each cell trimmed.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	start := 0
	for k := 0; k < len(line); k++ {
		switch {
		case line[k] == '\\':
			k++ // an escaped character, \| included
		case line[k] == '|':
			cells = append(cells, strings.TrimSpace(line[start:k]))
			start = k + 1
		}
	}
	return append(cells, strings.TrimSpace(line[start:]))
}

// tableFits reports whether glamour can lay rows out in width with every
// column at least as wide as its longest word (and a cell's padding);
// glamour also breaks words after a hyphen.
func tableFits(rows [][]string, width int) bool {
	need := len(rows[0]) - 1 // the separators between columns
	for c := range rows[0] {
		longest := 0
		for _, r := range rows {
			if c >= len(r) {
				continue
			}
			for _, w := range strings.Fields(strings.ReplaceAll(r[c], "-", "- ")) {
				longest = max(longest, ansi.StringWidth(w))
			}
		}
		need += longest + 2
	}
	return need <= width-tableMargin
}

// plainTable lays rows out as aligned text: the header, a rule, the body;
// a row's cells beyond the header's are dropped, missing ones are empty.
func plainTable(rows [][]string) []string {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for c := range min(len(r), len(widths)) {
			widths[c] = max(widths[c], ansi.StringWidth(r[c]))
		}
	}
	line := func(r []string) string {
		cells := make([]string, len(widths))
		for c, w := range widths {
			cell := ""
			if c < len(r) {
				cell = r[c]
			}
			cells[c] = cell + strings.Repeat(" ", w-ansi.StringWidth(cell))
		}
		return strings.TrimRight(strings.Join(cells, " │ "), " ")
	}
	rule := make([]string, len(widths))
	for c, w := range widths {
		rule[c] = strings.Repeat("─", w)
	}
	out := []string{line(rows[0]), strings.Join(rule, "─┼─")}
	for _, r := range rows[1:] {
		out = append(out, line(r))
	}
	return out
}
