package bm25

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// Tokenize returns the tokens of text (SPEC §4), in order, duplicates kept.
func Tokenize(text string) []string {
	return AppendTokens(nil, text)
}

// AppendTokens appends the tokens of text to dst and returns the result.
// Tokens that needed no lowercasing share text's memory.
func AppendTokens(dst []string, text string) []string {
	tz := tokenizer{}
	tz.reset(text)
	for tz.next() {
		dst = append(dst, tz.token())
	}
	return dst
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

// tokenizer walks a text token by token without allocating. After next
// returns true the token came from the piece text[lo:hi]; key packs it
// (packKey) when it is at most eight bytes long; sub says it equals the
// piece (already lowercase ASCII); otherwise a longer token is in buf,
// valid until the following call.
type tokenizer struct {
	text   string
	pos    int
	lo, hi int
	key    uint64
	sub    bool
	buf    []byte
	// atStart says text[pos] is known to start a piece (an ASCII
	// alphanumeric or a multi-byte rune), so no separators need skipping.
	atStart bool
}

// reset starts tokenizing text, keeping the scratch buffer.
func (tz *tokenizer) reset(text string) {
	tz.text, tz.pos, tz.atStart = text, 0, false
}

// token returns the current token as a string, allocating only when the
// piece needed lowercasing.
func (tz *tokenizer) token() string {
	switch {
	case tz.sub:
		return tz.text[tz.lo:tz.hi]
	case tz.key != 0:
		return unpackKey(tz.key)
	}
	return string(tz.buf)
}

// Byte classes for the ASCII fast path.
const (
	clSep   = 0    // separator
	clUpper = 1    // A-Z
	clLower = 2    // a-z, 0-9
	clMulti = 0x80 // a byte of a multi-byte rune
)

// byteClass classifies every byte value.
var byteClass = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = clLower
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clLower
		t[c-'a'+'A'] = clUpper
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = clMulti
	}
	return t
}()

// next advances to the next token and reports whether there is one. A
// pure-ASCII piece of up to seven bytes with eight bytes readable takes the
// word-at-a-time path; others are scanned byte by byte, and multi-byte runes
// take the general Unicode path.
func (tz *tokenizer) next() bool {
	s, i := tz.text, tz.pos
	for {
		if !tz.atStart {
			i = skipSeparators(s, i)
		}
		tz.atStart = false
		if i >= len(s) {
			tz.pos = i
			return false
		}
		lo := i
		if i+8 <= len(s) && s[i] < utf8.RuneSelf {
			if n, skip, key, upper, known, ok := shortPiece(s, i); ok {
				i += skip
				tz.atStart = known
				if n < 2 || n <= 4 && isStopKey(key) {
					continue
				}
				tz.lo, tz.hi, tz.pos, tz.key, tz.sub = lo, lo+n, i, key, !upper
				return true
			}
		}
		var flags uint8
		i, flags = tz.piece(lo)
		tz.pos = i
		if tz.accept(lo, i, flags) {
			return true
		}
	}
}

// piece scans the piece starting at lo (an alphanumeric or a multi-byte
// rune) and returns its end and byte classes; classes 0 mean text[lo:end]
// is one multi-byte separator rune.
func (tz *tokenizer) piece(lo int) (int, uint8) {
	s := tz.text
	i, flags := scanASCII(s, lo)
	if i >= len(s) || byteClass[s[i]] != clMulti {
		return i, flags
	}
	end, flags := tz.multiPiece(i, flags)
	if end == lo {
		_, size := utf8.DecodeRuneInString(s[lo:])
		return lo + size, 0
	}
	return end, flags
}

// accept makes the piece text[lo:hi] the current token if it has more than
// one character and is not a stopword once lowercased.
func (tz *tokenizer) accept(lo, hi int, flags uint8) bool {
	if flags == 0 || hi-lo < 2 || flags&clMulti != 0 && utf8.RuneCountInString(tz.text[lo:hi]) < 2 {
		return false
	}
	tz.lo, tz.hi = lo, hi
	return tz.lower(flags)
}

// multiPiece continues a piece through text[i:], which starts with a
// multi-byte rune, and returns where the piece ends and its classes.
func (tz *tokenizer) multiPiece(i int, flags uint8) (int, uint8) {
	s := tz.text
	for i < len(s) {
		cl := byteClass[s[i]]
		if cl == clSep {
			break
		}
		if cl == clMulti {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isAlnumMulti(r) {
				break
			}
			i += size - 1
		}
		flags |= cl
		i++
	}
	return i, flags
}

// lower sets the current token from the piece text[lo:hi] and reports
// whether it survives the stopword filter.
func (tz *tokenizer) lower(flags uint8) bool {
	p := tz.text[tz.lo:tz.hi]
	if flags == clLower {
		tz.sub, tz.key = true, packKey(p)
		return !isStopKey(tz.key)
	}
	if flags&clMulti != 0 {
		tz.buf = appendLowerFull(tz.buf[:0], p)
	} else {
		buf := append(tz.buf[:0], p...)
		for i, c := range buf {
			if byteClass[c] == clUpper {
				buf[i] = c + 'a' - 'A'
			}
		}
		tz.buf = buf
	}
	tz.sub, tz.key = false, packKey(tz.buf)
	return !isStopKey(tz.key)
}

// IsWordRune reports whether r belongs to a token's piece of text (is
// alphanumeric as the tokenizer counts it); every other rune separates.
func IsWordRune(r rune) bool { return isAlnum(r) }

// Lower returns s lowercased as the tokenizer lowercases a piece: full
// Unicode case mapping, İ → i̇ and the final-sigma rule included.
func Lower(s string) string { return string(appendLowerFull(nil, s)) }

// isAlnum reports whether r is alphanumeric in Rust's sense: Alphabetic
// (L*, Nl, Other_Alphabetic) or Numeric (Nd, Nl, No).
func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return byteClass[r] != clSep
	}
	return isAlnumMulti(r)
}

// isAlnumMulti is isAlnum for runes outside ASCII. utf8.RuneError (an
// invalid byte) is not alphanumeric.
func isAlnumMulti(r rune) bool {
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
