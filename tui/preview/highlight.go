package preview

import (
	"strings"
	"unicode/utf8"

	"github.com/crmem/crmem/bm25"
)

// highlight marks every whole word of the rendered text whose token (the
// bm25 tokenizer's lower-casing, final sigma included) is one of terms,
// wrapping it in on…"\x1b[27m".
// Escape sequences in the text are copied through untouched, so the
// highlight survives glamour's own colours.
func highlight(text string, terms []string, on string) string {
	if len(terms) == 0 || text == "" {
		return text
	}
	set := make(map[string]bool, len(terms))
	for _, t := range terms {
		set[t] = true
	}
	norm := map[string]string{} // word -> its token, as the index lowercases it
	match := func(w string) bool {
		t, ok := norm[w]
		if !ok {
			if toks := bm25.Tokenize(w); len(toks) == 1 {
				t = toks[0]
			}
			norm[w] = t
		}
		return set[t]
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = highlightLine(l, match, on)
	}
	return strings.Join(lines, "\n")
}

// highlightLine highlights the matching words of one line.
func highlightLine(line string, match func(string) bool, on string) string {
	words := visibleWords(line)
	var b strings.Builder
	last := 0
	for _, w := range words {
		if !match(w.text) {
			continue
		}
		b.WriteString(line[last:w.start])
		b.WriteString(on)
		b.WriteString(line[w.start:w.end])
		b.WriteString("\x1b[27m")
		last = w.end
	}
	if last == 0 {
		return line
	}
	b.WriteString(line[last:])
	return b.String()
}

// word is one run of letters and digits in a line, with its byte range in
// the line (which may include escape sequences inside the run).
type word struct {
	start, end int
	text       string
}

// visibleWords finds the runs of word runes (as the tokenizer splits) of
// the visible text, skipping escape
// sequences (SGR only: the text has been sanitized).
func visibleWords(line string) []word {
	var words []word
	var cur strings.Builder
	start, end := -1, -1
	flush := func() {
		if start >= 0 {
			words = append(words, word{start, end, cur.String()})
		}
		cur.Reset()
		start = -1
	}
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			i += escLen(line[i:])
			continue
		}
		r, w := utf8.DecodeRuneInString(line[i:])
		if bm25.IsWordRune(r) {
			if start < 0 {
				start = i
			}
			cur.WriteRune(r)
			end = i + w
		} else {
			flush()
		}
		i += w
	}
	flush()
	return words
}

// escLen measures an SGR (or any CSI) sequence at the start of s.
func escLen(s string) int {
	if len(s) < 2 || s[1] != '[' {
		return 1
	}
	for i := 2; i < len(s); i++ {
		if s[i] >= 0x40 && s[i] <= 0x7e {
			return i + 1
		}
	}
	return len(s)
}
