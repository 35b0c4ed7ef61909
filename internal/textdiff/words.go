package textdiff

import (
	"unicode"
	"unicode/utf8"
)

// maxWordBytes bounds the bytes of a pair of lines compared word by
// word, beyond what the two share at their ends: a line of a megabyte
// with one word changed is compared, two different ones are not.
const maxWordBytes = 64 << 10

// pairWords pairs the removed and added lines of each change block and
// sets their Changed spans; a block holding lines of the ranges skip
// (parts given up as removed and added whole, their order no guide to
// which line became which) is not paired. It reports false when the budget
// ran out, or a pair was too long, and some pairs were left without
// spans.
func pairWords(lines []Line, skip [][2]int, budget int) bool {
	w := wordDiff{budget: budget}
	complete := true
	for i := 0; i < len(lines); {
		if lines[i].Op == opSame {
			i++
			continue
		}
		dels := i
		for dels < len(lines) && lines[dels].Op == opDel {
			dels++
		}
		ins := dels
		for ins < len(lines) && lines[ins].Op == opIns {
			ins++
		}
		for len(skip) > 0 && skip[0][1] <= i {
			skip = skip[1:]
		}
		if len(skip) > 0 && skip[0][0] < ins {
			i = ins
			continue
		}
		complete = w.pairBlock(lines[i:dels], lines[dels:ins]) && complete
		i = ins
	}
	return complete
}

// pairWindow is how many added lines a removed line looks among for its
// partner.
const pairWindow = 8

// pairBlock pairs the removed lines of a change block with its added
// lines, in order: each removed line with the first of the next
// pairWindow added lines after the last one paired that is the same text
// or shares enough words with it to be highlighted (compare), so that a
// line inserted or removed in the middle of a block does not leave every
// line after it paired with the wrong one. It reports false when a bound
// left a pair uncompared.
func (w *wordDiff) pairBlock(removed, added []Line) bool {
	complete := true
	next := 0
	for r := range removed {
		a := &removed[r]
		for k := next; k < len(added) && k < next+pairWindow; k++ {
			b := &added[k]
			if a.Text == b.Text {
				next = k + 1
				break
			}
			ca, cb, ok := w.compare(a.Text, b.Text)
			complete = complete && ok
			if ca != nil {
				a.Changed, b.Changed = ca, cb
				next = k + 1
				break
			}
		}
	}
	return complete
}

// wordDiff compares pairs of lines word by word within one budget, its
// buffers reused from pair to pair.
type wordDiff struct {
	budget int
	ids    *interner
	ta, tb []Span
	sa, sb []string
	whole  bool // tokenize the whole lines, not only what their shared ends leave (for tests)
}

// table is the interner for a pair of n words: the last one emptied, or
// a new one for a pair much larger or smaller than the last.
func (w *wordDiff) table(n int) *interner {
	if w.ids == nil || cap(w.ids.strs) < n || len(w.ids.slots) > 16*(n+8) {
		w.ids = newInterner(n)
	} else {
		w.ids.reset()
	}
	return w.ids
}

// pairCost is the work charged for each pair besides its words, so that
// many short pairs spend the budget too.
const pairCost = 16

// compare is the spans of a and b outside the words they share. Both are
// nil when the pair shares too little: the bytes of the words they share
// (outside spaces) under a third of the mean of their bytes outside
// spaces. Both are nil too, with ok false, when the budget ran out or
// what the two do not share at their ends is longer than maxWordBytes.
func (w *wordDiff) compare(a, b string) (ca, cb []Span, ok bool) {
	if w.budget <= 0 {
		return nil, nil, false
	}
	pre, suf := 0, 0
	if !w.whole {
		pre, suf = sharedEnds(a, b)
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma) > maxWordBytes || len(mb) > maxWordBytes {
		return nil, nil, false
	}
	w.ta, w.tb = appendTokens(w.ta[:0], ma, pre), appendTokens(w.tb[:0], mb, pre)
	w.budget -= pairCost + len(w.ta) + len(w.tb)
	if w.budget <= 0 {
		return nil, nil, false
	}
	w.sa, w.sb = texts(w.sa[:0], a, w.ta), texts(w.sb[:0], b, w.tb)
	ids := w.table(len(w.sa) + len(w.sb))
	e := script(ids.number(w.sa), ids.number(w.sb), w.budget)
	w.budget = e.budget
	if len(e.coarse) > 0 {
		return nil, nil, false
	}
	ca, cb = []Span{}, []Span{}
	common := nonSpaceBytes(a[:pre]) + nonSpaceBytes(a[len(a)-suf:])
	i, j := 0, 0
	for _, op := range e.ops {
		switch op {
		case opSame:
			if !isSpaces(w.sa[i]) {
				common += len(w.sa[i])
			}
			i, j = i+1, j+1
		case opDel:
			ca = addSpan(ca, w.ta[i])
			i++
		default:
			cb = addSpan(cb, w.tb[j])
			j++
		}
	}
	if 6*common < nonSpaceBytes(a)+nonSpaceBytes(b) {
		return nil, nil, true
	}
	return ca, cb, true
}

// sharedEnds is how many bytes a and b share at their start and at their
// end, each cut back to where a word starts in both, so that the words of
// what is left are the words of the whole lines there. Such a place is
// the start of either line or an ASCII character other than a space after
// a space: appendTokens cuts there whatever came before.
func sharedEnds(a, b string) (pre, suf int) {
	n, same := min(len(a), len(b)), 0
	for same < n && a[same] == b[same] {
		same++
	}
	for i := same - 1; i > 0; i-- { // a[i-1] and a[i] shared
		if wordStart(a, i) {
			pre = i
			break
		}
	}
	same = 0
	for same < n-pre && a[len(a)-1-same] == b[len(b)-1-same] {
		same++
	}
	for i := len(a) - same + 1; i < len(a); i++ { // a[i-1] and a[i] shared
		if wordStart(a, i) {
			suf = len(a) - i
			break
		}
	}
	return pre, suf
}

// wordStart reports whether a word of appendTokens surely starts at s[i],
// whatever precedes s[i-1].
func wordStart(s string, i int) bool {
	if i == 0 || i >= len(s) || s[i-1] != ' ' {
		return false
	}
	c := s[i]
	return c < utf8.RuneSelf && c != ' ' && (c < '\t' || c > '\r')
}

// texts appends the text of each span of s to out.
func texts(out []string, s string, spans []Span) []string {
	for _, t := range spans {
		out = append(out, s[t.Start:t.End])
	}
	return out
}

// addSpan appends s to spans, merged with the last span when they touch.
func addSpan(spans []Span, s Span) []Span {
	if n := len(spans); n > 0 && spans[n-1].End == s.Start {
		spans[n-1].End = s.End
		return spans
	}
	return append(spans, s)
}

// appendTokens appends to out the words of s compared, their offsets
// shifted by base: runs of letters and digits, runs of spaces, and each
// other character. A character of a script written without spaces
// between words (Chinese, Japanese, Thai, …) is a word of its own, so
// that 東京は晴れ against 東京は雨 changes 晴れ, not all of it; a
// combining mark, a variation selector or an emoji modifier stays with
// the character before it, and a zero-width joiner joins the characters
// on either side (👩‍💻 is one). An invalid byte is a character of its own.
func appendTokens(out []Span, s string, base int) []Span {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		start := i
		i += n
		switch {
		case unspaced(r):
			i = extend(s, i)
		case isWord(r):
			for i < len(s) {
				r, n := utf8.DecodeRuneInString(s[i:])
				if !(isWord(r) || unicode.IsMark(r)) || unspaced(r) {
					break
				}
				i += n
			}
		case unicode.IsSpace(r):
			for i < len(s) {
				r, n := utf8.DecodeRuneInString(s[i:])
				if !unicode.IsSpace(r) {
					break
				}
				i += n
			}
		default:
			i = extend(s, i)
		}
		out = append(out, Span{base + start, base + i})
	}
	return out
}

// extend is the end of the character that ends at i, with the marks,
// modifiers and joined characters that follow it.
func extend(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\u200d': // zero-width joiner: the next character joins
			i += n
			if i < len(s) {
				_, n = utf8.DecodeRuneInString(s[i:])
				i += n
			}
		case unicode.IsMark(r), r >= 0x1f3fb && r <= 0x1f3ff: // marks, variation selectors, skin tones
			i += n
		default:
			return i
		}
	}
	return i
}

// unspaced reports whether r is of a script written without spaces
// between its words.
func unspaced(r rune) bool {
	return r >= 0x0e00 && // Thai, the first of them
		unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan)
}

// isWord reports whether r belongs in a run of letters and digits.
func isWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r)
}

// isSpaces reports whether s is a run of spaces (a word of appendTokens).
func isSpaces(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// nonSpaceBytes counts the bytes of s outside spaces.
func nonSpaceBytes(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf { // ASCII, most of a line
			if c != ' ' && (c < '\t' || c > '\r') {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			n += size
		}
		i += size
	}
	return n
}
