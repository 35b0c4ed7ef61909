package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

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
	rs := []rune(name)
	return fitFrom(rs, max(commonPrefix(rs, prev), commonPrefix(rs, next)), w)
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
	rs := []rune(name)
	d := len(rs)
	for _, o := range others {
		d = min(d, commonPrefix(rs, o))
	}
	return fitFrom(rs, d, w)
}

// fitFrom fits rs (wider than w, w ≥ 4) into w cells keeping rune d, the
// first that differs from the names it is told apart from (0: shorten in
// the middle).
func fitFrom(rs []rune, d, w int) string {
	name := string(rs)
	if d == 0 {
		return middle(name, w)
	}
	room := w - 1 // beside the "…"
	start := wordStart(rs, d)
	if tail := len(rs) - start; tail <= room-4 {
		// The distinguishing end fits with a few runes of the start.
		return ansi.Truncate(string(rs[:room-tail])+"…"+string(rs[start:]), w, "")
	}
	if len(rs)-d <= room {
		return ansi.Truncate("…"+string(rs[len(rs)-room:]), w, "")
	}
	return ansi.Truncate("…"+middle(string(rs[start:]), room), w, "")
}

// commonPrefix is the number of leading runes rs shares with s.
func commonPrefix(rs []rune, s string) int {
	n := 0
	for _, r := range s {
		if n >= len(rs) || rs[n] != r {
			break
		}
		n++
	}
	if n == len(rs) && utf8.RuneCountInString(s) == len(rs) {
		return 0 // the same name: nothing tells them apart, show it plainly
	}
	return n
}

// wordStart moves d back to the start of its word (after - _ . / or a
// space) when that is at most four runes back, so the shown part starts
// at a natural boundary ("0001-…" rather than "1-…").
func wordStart(rs []rune, d int) int {
	for i := d; i > 0 && d-i <= 4; i-- {
		if strings.ContainsRune("-_./ ", rs[i-1]) {
			return i
		}
	}
	return d
}
