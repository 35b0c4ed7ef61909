package part

import (
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// The shortener works in display cells on whole grapheme clusters, never
// in runes or bytes: a CJK character or an emoji takes two cells, a ZWJ
// sequence or a letter with combining marks is one cluster of several
// runes, and cutting by rune count overran the width (and the slices) on
// names in wide scripts (issue 17). Clusters are measured with the method
// ansi.StringWidth (and so lipgloss.Width and the box) measures them with.

// cluster is one grapheme cluster of a plain text and the cells it takes.
type cluster struct {
	text  string
	width int
}

// clustersOf splits plain text (no escape sequences) into its grapheme
// clusters.
func clustersOf(s string) []cluster {
	var cs []cluster
	for s != "" {
		c, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if c == "" {
			break
		}
		cs = append(cs, cluster{c, w})
		s = s[len(c):]
	}
	return cs
}

// cellsOf is the width of cs in cells.
func cellsOf(cs []cluster) int {
	n := 0
	for _, c := range cs {
		n += c.width
	}
	return n
}

// textOf joins cs back into text.
func textOf(cs []cluster) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.text)
	}
	return b.String()
}

// headIn is the longest start of cs that fits in w cells.
func headIn(cs []cluster, w int) []cluster {
	n := 0
	for i, c := range cs {
		if n+c.width > w {
			return cs[:i]
		}
		n += c.width
	}
	return cs
}

// tailIn is the longest end of cs that fits in w cells.
func tailIn(cs []cluster, w int) []cluster {
	n := 0
	for i := len(cs) - 1; i >= 0; i-- {
		if n+cs[i].width > w {
			return cs[i+1:]
		}
		n += cs[i].width
	}
	return cs
}

// middleOf fits cs into w cells by replacing its middle with "…"; the
// cells a wide cluster leaves unused at the head's end go to the tail.
func middleOf(cs []cluster, w int) string {
	if cellsOf(cs) <= w {
		return textOf(cs)
	}
	if w <= 1 {
		return textOf(headIn(cs, max(w, 0)))
	}
	head := headIn(cs, (w-1)/2)
	tail := tailIn(cs[len(head):], w-1-cellsOf(head))
	return textOf(head) + "…" + textOf(tail)
}

// FitName fits a list name into w cells so that it keeps what tells it
// apart from its neighbours' names (prev and next, "" when none): a name
// that fits is shown whole; otherwise the prefix it shares with them
// gives way first ("…0001-1767…0000" for archive-sess-0001-1767…), and
// what is left is shortened in the middle, never at the end.
func FitName(name, prev, next string, w int) string {
	if ansi.StringWidth(name) <= w {
		return name
	}
	if w < 4 {
		return ansi.Truncate(name, w, "…")
	}
	cs := clustersOf(name)
	return fitFrom(cs, max(commonPrefix(cs, prev), commonPrefix(cs, next)), w)
}

// FitApart refits a name whose fitted text read the same as other rows'
// (others, their names): the part shown starts where the name first
// differs from any of them, so each row shows what tells it apart from
// every one of them, not only from its neighbours.
func FitApart(name string, others []string, w int) string {
	if ansi.StringWidth(name) <= w {
		return name
	}
	if w < 4 {
		return ansi.Truncate(name, w, "…")
	}
	cs := clustersOf(name)
	d := len(cs)
	for _, o := range others {
		d = min(d, commonPrefix(cs, o))
	}
	return fitFrom(cs, d, w)
}

// fitFrom fits cs (wider than w cells, w ≥ 4) into w cells keeping
// cluster d, the first that differs from the names it is told apart from
// (0: shorten in the middle).
func fitFrom(cs []cluster, d, w int) string {
	if d == 0 {
		return middleOf(cs, w)
	}
	room := w - 1 // beside the "…"
	start := wordStart(cs, d)
	if tail := cellsOf(cs[start:]); tail <= room-4 {
		// The distinguishing end fits with a few cells of the start.
		return textOf(headIn(cs, room-tail)) + "…" + textOf(cs[start:])
	}
	if cellsOf(cs[d:]) <= room {
		return "…" + textOf(tailIn(cs, room))
	}
	return "…" + middleOf(cs[start:], room)
}

// commonPrefix is the number of leading clusters cs shares with s.
func commonPrefix(cs []cluster, s string) int {
	n := 0
	for s != "" && n < len(cs) {
		c, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if c != cs[n].text {
			break
		}
		s = s[len(c):]
		n++
	}
	if n == len(cs) && s == "" {
		return 0 // the same name: nothing tells them apart, show it plainly
	}
	return n
}

// wordStart moves d back to the start of its word (after - _ . / or a
// space) when that is at most four clusters back, so the shown part
// starts at a natural boundary ("0001-…" rather than "1-…").
func wordStart(cs []cluster, d int) int {
	for i := d; i > 0 && d-i <= 4; i-- {
		if t := cs[i-1].text; len(t) == 1 && strings.Contains("-_./ ", t) {
			return i
		}
	}
	return d
}

// WrapWords wraps plain text (no escape sequences) to width cells,
// breaking only at spaces: a name is never split at its hyphen (ansi's
// word wrap always breaks there: "commit-" / "format"), and a word that
// is punctuation alone ("-", ",", "—") stays on the line of the word
// before it, never left at the start of a line. A word wider than the
// line is broken after a '/' when it has one (a path), else between
// grapheme clusters.
func WrapWords(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	line, lineW := "", 0
	for _, w := range glueWords(strings.Split(s, " ")) {
		ww := DrawnWidth(w)
		switch {
		case line == "" && ww <= width:
			line, lineW = w, ww
		case line != "" && lineW+1+ww <= width:
			line, lineW = line+" "+w, lineW+1+ww
		case ww <= width:
			lines = append(lines, line)
			line, lineW = w, ww
		default: // wider than a line: start it here if some of it fits
			if first, _ := ansi.FirstGraphemeCluster(w, ansi.GraphemeWidth); line != "" && (width-lineW-1 < width/2 || width-lineW-1 < DrawnWidth(first)) {
				lines = append(lines, line)
				line, lineW = "", 0
			}
			prefix := line
			if prefix != "" {
				prefix += " "
			}
			parts := breakWord(w, width, width-DrawnWidth(prefix))
			parts[0] = prefix + parts[0]
			lines = append(lines, parts[:len(parts)-1]...)
			line = parts[len(parts)-1]
			lineW = DrawnWidth(line)
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

// drawnClusters splits plain text into its grapheme clusters, each as
// wide as DrawnWidth measures it.
func drawnClusters(s string) []cluster {
	cs := clustersOf(s)
	for i, c := range cs {
		cs[i].width = max(c.width, ansi.WcWidth.StringWidth(c.text))
	}
	return cs
}

// Hardwrap breaks plain text into lines of at most width cells as
// DrawnWidth measures them, between grapheme clusters.
func Hardwrap(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		cs := drawnClusters(l)
		for cellsOf(cs) > width {
			head := headIn(cs, width)
			if len(head) == 0 {
				head = cs[:1]
			}
			lines = append(lines, textOf(head))
			cs = cs[len(head):]
		}
		lines = append(lines, textOf(cs))
	}
	return lines
}

// Truncate cuts plain text to at most w cells as DrawnWidth
// measures them, with tail ("…") when cut.
func Truncate(s string, w int, tail string) string {
	cs := drawnClusters(s)
	if cellsOf(cs) <= w {
		return s
	}
	return textOf(headIn(cs, max(w-DrawnWidth(tail), 0))) + tail
}

// TruncateLeft keeps the end of plain text that fits in w cells,
// with head ("…") before it when cut.
func TruncateLeft(s string, w int, head string) string {
	cs := drawnClusters(s)
	if cellsOf(cs) <= w {
		return s
	}
	return head + textOf(tailIn(cs, max(w-DrawnWidth(head), 0)))
}

// Middle shortens plain text s to w cells by replacing its middle with
// "…", cutting between grapheme clusters measured as drawn (DrawnWidth).
func Middle(s string, w int) string {
	return middleOf(drawnClusters(s), w)
}

// ShortPath shortens a path to w cells in the middle, keeping its last
// element whole when that fits ("/tmp/Te…/agent-sessions"), else as middle.
func ShortPath(path string, w int) string {
	if ansi.StringWidth(path) <= w {
		return path
	}
	i := strings.LastIndexByte(path, filepath.Separator)
	if i < 0 || ansi.StringWidth(path[i:])+1 > w {
		return Middle(path, w)
	}
	tail := path[i:]
	return ansi.Truncate(path, w-1-ansi.StringWidth(tail), "") + "…" + tail
}
