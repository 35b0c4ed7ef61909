package tui

import (
	"strings"

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

// fitName fits a list name into w cells so that it keeps what tells it
// apart from its neighbours' names (prev and next, "" when none): a name
// that fits is shown whole; otherwise the prefix it shares with them
// gives way first ("…0001-1767…0000" for archive-sess-0001-1767…), and
// what is left is shortened in the middle, never at the end.
func fitName(name, prev, next string, w int) string {
	if ansi.StringWidth(name) <= w {
		return name
	}
	if w < 4 {
		return ansi.Truncate(name, w, "…")
	}
	cs := clustersOf(name)
	return fitFrom(cs, max(commonPrefix(cs, prev), commonPrefix(cs, next)), w)
}

// fitApart refits a name whose fitted text read the same as other rows'
// (others, their names): the part shown starts where the name first
// differs from any of them, so each row shows what tells it apart from
// every one of them, not only from its neighbours.
func fitApart(name string, others []string, w int) string {
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
