package tui

import (
	"slices"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// wrapWords wraps plain text (no escape sequences) to width cells,
// breaking only at spaces: a name is never split at its hyphen (ansi's
// word wrap always breaks there: "commit-" / "format"), and a word that
// is punctuation alone ("-", ",", "—") stays on the line of the word
// before it, never left at the start of a line. A word wider than the
// line is broken after a '/' when it has one (a path), else between
// grapheme clusters.
func wrapWords(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	line, lineW := "", 0
	for _, w := range glueWords(strings.Split(s, " ")) {
		ww := drawnWidth(w)
		switch {
		case line == "" && ww <= width:
			line, lineW = w, ww
		case line != "" && lineW+1+ww <= width:
			line, lineW = line+" "+w, lineW+1+ww
		case ww <= width:
			lines = append(lines, line)
			line, lineW = w, ww
		default: // wider than a line: start it here if some of it fits
			if first, _ := ansi.FirstGraphemeCluster(w, ansi.GraphemeWidth); line != "" && (width-lineW-1 < width/2 || width-lineW-1 < drawnWidth(first)) {
				lines = append(lines, line)
				line, lineW = "", 0
			}
			prefix := line
			if prefix != "" {
				prefix += " "
			}
			parts := breakWord(w, width, width-drawnWidth(prefix))
			parts[0] = prefix + parts[0]
			lines = append(lines, parts[:len(parts)-1]...)
			line = parts[len(parts)-1]
			lineW = drawnWidth(line)
		}
	}
	return append(lines, line)
}

// glueWords joins each word that is punctuation alone to the word before
// it, with its space, so the two wrap as one.
func glueWords(words []string) []string {
	var out []string
	for _, w := range words {
		if len(out) > 0 && isPunctOnly(w) {
			out[len(out)-1] += " " + w
			continue
		}
		out = append(out, w)
	}
	return out
}

// breakWord breaks a word wider than width into pieces, the first first
// cells wide at most, the others width: after a '/' where one falls in
// the piece, else at the piece's last grapheme cluster that fits.
func breakWord(w string, width, first int) []string {
	var parts []string
	room := max(first, 1)
	cs := drawnClusters(w)
	for cellsOf(cs) > room {
		head := headIn(cs, room)
		if len(head) == 0 { // a wide cluster in a one-cell room
			head = cs[:1]
		}
		for i := len(head) - 1; i > 0; i-- {
			if head[i].text == "/" && i < len(cs)-1 {
				head = head[:i+1]
				break
			}
		}
		parts = append(parts, textOf(head))
		cs = cs[len(head):]
		room = width
	}
	// punctuation glued to a word as wide as the line: a cluster of the
	// word goes with it rather than leave it alone at a line's start
	if n := len(parts); n > 0 && isPunctOnly(textOf(cs)) {
		prev := drawnClusters(parts[n-1])
		k := len(prev) - 1 // the last cluster that is not a space
		for k > 0 && strings.TrimSpace(prev[k].text) == "" {
			k--
		}
		if k > 0 && cellsOf(prev[k:])+cellsOf(cs) <= width {
			parts[n-1] = textOf(prev[:k])
			cs = append(slices.Clone(prev[k:]), cs...)
		}
	}
	return append(parts, textOf(cs))
}

// isPunctOnly reports whether s has punctuation and nothing else but spaces.
func isPunctOnly(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPunct(r) }) < 0
}
