package textdiff

import (
	"unicode"
	"unicode/utf8"
)

// pairWords pairs the removed and added lines of each change block and
// sets their Changed spans. It reports false when budget ran out and some
// pairs were left without spans.
func pairWords(lines []Line, budget int) bool {
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
		for p := 0; p < dels-i && p < ins-dels; p++ {
			a, b := &lines[i+p], &lines[dels+p]
			if a.Text == b.Text {
				continue
			}
			if budget <= 0 {
				complete = false
				continue
			}
			var ok bool
			a.Changed, b.Changed, budget, ok = compareWords(a.Text, b.Text, budget)
			complete = complete && ok
		}
		i = ins
	}
	return complete
}

// compareWords is the spans of a and b outside the words they share, and
// the budget left. Both are nil when the pair shares less than a third of
// its bytes outside spaces, and when the budget ran out (ok false).
func compareWords(a, b string, budget int) (ca, cb []Span, left int, ok bool) {
	ta, tb := tokens(a), tokens(b)
	budget -= len(ta) + len(tb)
	if budget <= 0 {
		return nil, nil, budget, false
	}
	sa, sb := make([]string, len(ta)), make([]string, len(tb))
	for i, t := range ta {
		sa[i] = a[t.Start:t.End]
	}
	for i, t := range tb {
		sb[i] = b[t.Start:t.End]
	}
	ia, ib := intern(sa, sb)
	ops, work, bounded := script(ia, ib, budget)
	budget -= work
	if bounded {
		return nil, nil, budget, false
	}
	ca, cb = []Span{}, []Span{}
	common := 0
	i, j := 0, 0
	for _, op := range ops {
		switch op {
		case opSame:
			if !isSpaces(sa[i]) {
				common += len(sa[i])
			}
			i, j = i+1, j+1
		case opDel:
			ca = addSpan(ca, ta[i])
			i++
		default:
			cb = addSpan(cb, tb[j])
			j++
		}
	}
	if 6*common < nonSpaceBytes(a)+nonSpaceBytes(b) {
		return nil, nil, budget, true
	}
	return ca, cb, budget, true
}

// addSpan appends s to spans, merged with the last span when they touch.
func addSpan(spans []Span, s Span) []Span {
	if n := len(spans); n > 0 && spans[n-1].End == s.Start {
		spans[n-1].End = s.End
		return spans
	}
	return append(spans, s)
}

// tokens cuts s into the words compared: runs of letters and digits, runs
// of spaces, and each other character; a character of a script written
// without spaces between words (Chinese, Japanese, Thai, …) is a word of
// its own, so that 東京は晴れ against 東京は雨 changes 晴れ, not all of it; a combining mark, a variation
// selector or an emoji modifier stays with the character before it, and
// a zero-width joiner joins the characters on either side (👩‍💻 is one).
// An invalid byte is a character of its own.
func tokens(s string) []Span {
	var out []Span
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
		out = append(out, Span{start, i})
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

// isSpaces reports whether s is a run of spaces (a token of tokens).
func isSpaces(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// nonSpaceBytes counts the bytes of s outside spaces.
func nonSpaceBytes(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			n += size
		}
		i += size
	}
	return n
}
