package bm25

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// Tokenize returns the tokens of text (SPEC §4), in order, duplicates kept.
func Tokenize(text string) []string {
	var toks []string
	tz := tokenizer{text: text}
	for {
		tok, ok := tz.next()
		if !ok {
			return toks
		}
		toks = append(toks, tz.token(tok))
	}
}

// AppendTokens appends the tokens of text to dst and returns the result.
func AppendTokens(dst []string, text string) []string {
	tz := tokenizer{text: text}
	for {
		tok, ok := tz.next()
		if !ok {
			return dst
		}
		dst = append(dst, tz.token(tok))
	}
}

// QueryTerms returns the sorted (byte order), deduplicated tokens of a query.
func QueryTerms(query string) []string {
	return normalizeTerms(Tokenize(query))
}

// normalizeTerms sorts terms in byte order and drops duplicates, in place.
func normalizeTerms(terms []string) []string {
	slices.Sort(terms)
	return slices.Compact(terms)
}

// tokenizer walks a text piece by piece. next returns each token's lowercase
// bytes in a scratch buffer that is valid until the following call, so the
// indexer can look terms up without allocating.
type tokenizer struct {
	text string
	pos  int
	buf  []byte
	// sub is true when the last token is exactly text[subLo:subHi] (an
	// already-lowercase piece), so token can return a substring.
	sub          bool
	subLo, subHi int
}

// next returns the next token's bytes, or false at the end of the text.
func (tz *tokenizer) next() ([]byte, bool) {
	for tz.pos < len(tz.text) {
		lo, hi, runes, flags := tz.piece()
		if runes < 2 {
			continue
		}
		tok := tz.lower(lo, hi, flags)
		if isStopword(tok) {
			continue
		}
		return tok, true
	}
	return nil, false
}

// token returns the last token as a string, sharing the text's memory when
// the piece needed no lowercasing.
func (tz *tokenizer) token(tok []byte) string {
	if tz.sub {
		return tz.text[tz.subLo:tz.subHi]
	}
	return string(tok)
}

// Piece flags: what lowercasing a piece needs.
const (
	hasUpper    = 1 << iota // an ASCII capital
	hasNonASCII             // a multi-byte rune
)

// piece skips separators and returns the next maximal run of alphanumeric
// characters as text[lo:hi], its rune count and flags.
func (tz *tokenizer) piece() (lo, hi, runes, flags int) {
	s, i := tz.text, tz.pos
	for i < len(s) { // skip separators
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiClass[c] != 0 {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isAlnum(r) {
			break
		}
		i += size
	}
	lo = i
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			cl := asciiClass[c]
			if cl == 0 {
				break
			}
			flags |= int(cl) & hasUpper
			runes++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isAlnum(r) {
			break
		}
		flags |= hasNonASCII
		runes++
		i += size
	}
	tz.pos = i
	return lo, i, runes, flags
}

// asciiClass is 0 for ASCII separators, 1 (hasUpper) for capitals and 2 for
// other alphanumerics.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = 2
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 2
		t[c-'a'+'A'] = hasUpper
	}
	return t
}()

// lower returns text[lo:hi] lowercased, in tz.buf unless it is already
// lowercase ASCII (then tz.sub is set and the bytes still live in tz.buf).
func (tz *tokenizer) lower(lo, hi, flags int) []byte {
	p := tz.text[lo:hi]
	tz.buf = tz.buf[:0]
	switch {
	case flags&hasNonASCII != 0:
		tz.buf = appendLowerFull(tz.buf, p)
		tz.sub = false
	case flags&hasUpper != 0:
		for i := 0; i < len(p); i++ {
			c := p[i]
			if c <= 'Z' && c >= 'A' {
				c += 'a' - 'A'
			}
			tz.buf = append(tz.buf, c)
		}
		tz.sub = false
	default:
		tz.buf = append(tz.buf, p...)
		tz.sub, tz.subLo, tz.subHi = true, lo, hi
	}
	return tz.buf
}

// isAlnum reports whether r is alphanumeric in Rust's sense: Alphabetic
// (L*, Nl, Other_Alphabetic) or Numeric (Nd, Nl, No).
func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiClass[r] != 0
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Other_Alphabetic, r)
}

// Runes with special lowercase mappings.
const (
	capitalIWithDot = 'İ' // lowercases to "i̇" (SpecialCasing)
	capitalSigma    = 'Σ' // σ, or ς at the end of a word (Final_Sigma)
	smallSigma      = 'σ'
	finalSigma      = 'ς'
)

// appendLowerFull appends the full Unicode lowercase of s, as Rust's
// str::to_lowercase: per-rune simple mappings plus İ → i̇ and the Greek
// final-sigma rule.
func appendLowerFull(dst []byte, s string) []byte {
	for i, r := range s {
		switch r {
		case capitalIWithDot:
			dst = append(dst, "i\u0307"...)
		case capitalSigma:
			if isFinalSigma(s, i) {
				dst = utf8.AppendRune(dst, finalSigma)
			} else {
				dst = utf8.AppendRune(dst, smallSigma)
			}
		default:
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
	}
	return dst
}

// isFinalSigma applies Unicode's Final_Sigma condition to the Σ at s[i]:
// preceded by a cased letter and not followed by one, skipping
// case-ignorable characters on both sides.
func isFinalSigma(s string, i int) bool {
	return casedBefore(s[:i]) && !casedAfter(s[i+len(string(capitalSigma)):])
}

// casedBefore reports whether the last non-case-ignorable rune of s is cased.
func casedBefore(s string) bool {
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !isCaseIgnorable(r) {
			return isCased(r)
		}
		s = s[:len(s)-size]
	}
	return false
}

// casedAfter reports whether the first non-case-ignorable rune of s is cased.
func casedAfter(s string) bool {
	for _, r := range s {
		if !isCaseIgnorable(r) {
			return isCased(r)
		}
	}
	return false
}

// isCased is Unicode's Cased property: Lu, Ll, Lt, Other_Lowercase,
// Other_Uppercase.
func isCased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// isCaseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk
// and the Word_Break classes MidLetter, MidNumLet and Single_Quote. Inside a
// token only alphanumerics occur, but the full set keeps the rule honest.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0x00B7, 0x0387, 0x055F, 0x05F4, 0x2018, 0x2019,
		0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
