package tui

import (
	"fmt"
	"regexp"
	"strings"

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
var fenceRE = regexp.MustCompile("^( *)(```+|~~~+)(.*)$")

// protectBlocks swaps fenced code blocks for placeholders and hard line
// breaks for markers; blocks holds each code block's lines.
func protectBlocks(md string) (string, [][]string) {
	lines := strings.Split(md, "\n")
	var out []string
	var blocks [][]string
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			out = append(out, hardBreak(lines, i))
			continue
		}
		indent, fence := m[1], m[2]
		var code []string
		j := i + 1
		for ; j < len(lines); j++ {
			if c := fenceRE.FindStringSubmatch(lines[j]); c != nil && c[2][0] == fence[0] && len(c[2]) >= len(fence) && strings.TrimSpace(c[3]) == "" {
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
var listPrefixRE = regexp.MustCompile(`^ *(• |\d+\. )`)

// textIndent is where the text of a rendered line starts: after its
// leading spaces and any list bullet (all of it for a blank line).
func textIndent(plain string) int {
	if m := listPrefixRE.FindString(plain); m != "" {
		return ansi.StringWidth(m)
	}
	return ansi.StringWidth(plain) - ansi.StringWidth(strings.TrimLeft(plain, " "))
}
