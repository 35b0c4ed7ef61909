package hygiene

import (
	"hash/maphash"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/crmem/crmem/store"
)

// exactClasses groups the entries whose content is the same after
// normalising whitespace (every run of it is one space, none at either
// end), Unicode form (NFC, so a precomposed é and e with a combining
// accent are one) and case (full case folding: ß is ss, a final ς is σ,
// as Σ is), and returns each entry's class: -1
// for blank content or content no other entry has. Content is hashed, not
// copied; entries whose hashes agree are compared in full, so a collision
// never makes a false group. Only the first normalPrefix bytes of each
// normal form without its spaces (appendSolid) are hashed at first:
// contents equal once normalised begin alike, and most contents differ
// there, so only the entries that share a beginning are read to their end
// (on the 100k corpus, whose contents are 55 MB, the first 160 bytes of
// each, 16 MB, told all of them apart).
func exactClasses(entries []store.Entry) []int32 {
	seed := maphash.MakeSeed()
	shared := sharedBeginnings(entries, seed)
	byHash := map[uint64][]int32{}
	var buf []byte
	for _, i := range shared {
		buf = appendNormal(buf[:0], entries[i].Content, -1)
		h := maphash.Bytes(seed, buf)
		byHash[h] = append(byHash[h], i)
	}
	class := make([]int32, len(entries))
	for i := range class {
		class[i] = -1
	}
	n := 0
	for _, members := range byHash {
		for len(members) > 1 {
			var rest []int32
			first := members[0]
			same := 0
			for _, j := range members[1:] {
				if normalEqual(entries[first].Content, entries[j].Content) {
					class[j] = int32(n)
					same++
				} else {
					rest = append(rest, j)
				}
			}
			if same > 0 {
				class[first] = int32(n)
				n++
			}
			members = rest
		}
	}
	return class
}

// sharedBeginnings returns the entries whose beginning (appendSolid's
// first normalPrefix bytes) another entry shares: the beginnings' hashes,
// each with its entry, sorted (sortKeyed), then read in runs. A map from
// hash to entry cost a cache miss an entry (at 300,000 entries a tenth of
// exactClasses' cost); sorted, two hashes share a run when their top
// keyBits bits agree, which at worst compares two beginnings in vain.
// Blank content, or only whitespace, is in no class.
func sharedBeginnings(entries []store.Entry, seed maphash.Seed) []int32 {
	if len(entries) > MaxNearDocs { // an entry's index must fit in docBits
		return sharedBeginningsMap(entries, seed)
	}
	keys := make([]keyed, 0, len(entries))
	var buf []byte
	for i := range entries {
		if entries[i].Content == "" {
			continue
		}
		if buf = appendSolid(buf[:0], entries[i].Content, normalPrefix); len(buf) > 0 {
			keys = append(keys, pack(maphash.Bytes(seed, buf), int32(i)))
		}
	}
	sortKeyed(keys)
	var shared []int32
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].key() == keys[i].key() {
			j++
		}
		if j-i > 1 {
			for _, k := range keys[i:j] {
				shared = append(shared, k.doc())
			}
		}
		i = j
	}
	return shared
}

// sharedBeginningsMap is sharedBeginnings for more entries than an index
// in a keyed holds, by a map from each beginning's hash to its first
// entry.
func sharedBeginningsMap(entries []store.Entry, seed maphash.Seed) []int32 {
	// first holds the first entry of each beginning's hash, +1, or 0 once
	// a second entry shared it (its entries are then in shared).
	first := make(map[uint64]int32, len(entries))
	var shared []int32
	var buf []byte
	for i := range entries {
		if entries[i].Content == "" {
			continue
		}
		buf = appendSolid(buf[:0], entries[i].Content, normalPrefix)
		if len(buf) == 0 { // only whitespace: reported as empty, not as duplicates
			continue
		}
		h := maphash.Bytes(seed, buf)
		switch f, ok := first[h]; {
		case !ok:
			first[h] = int32(i) + 1
		case f > 0:
			shared = append(shared, f-1, int32(i))
			first[h] = 0
		default:
			shared = append(shared, int32(i))
		}
	}
	return shared
}

// normalPrefix is how much of each content's normal form exactClasses
// hashes first.
const normalPrefix = 160

// appendNormal appends s normalised to dst: lower case, every whitespace
// run one space, none leading or trailing; an invalid byte is U+FFFD. With
// limit >= 0 it stops once it appended at least limit bytes (all of s when
// limit < 0). An ASCII byte takes one look in asciiNormal.
func appendNormal(dst []byte, s string, limit int) []byte {
	s = foldUnicode(s, limit)
	end := math.MaxInt
	if limit >= 0 {
		end = len(dst) + limit
	}
	dst = slices.Grow(dst, min(len(s), end-len(dst)))
	space, started := false, false
	for i := 0; i < len(s) && len(dst) < end; {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c = asciiNormal[c]; c == asciiSpace {
				space = started
				continue
			}
			if space {
				dst = append(dst, ' ')
				space = false
			}
			dst, started = append(dst, c), true
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		if unicode.IsSpace(r) {
			space = started
			continue
		}
		dst, space, started = appendSpace(dst, space), false, true
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// appendSolid appends s's normal form without its spaces to dst: each rune
// that is not white space, in simple lower case (an invalid byte U+FFFD).
// It stops once it appended at least limit bytes. Contents equal once
// normalised are equal so: it keeps no state between bytes, and an ASCII
// byte costs a look in asciiNormal and a store, whitespace or not.
//
// A beginning that is ASCII and followed by ASCII (or nothing) is its own
// normal form, whatever follows: folding works a character at a time, and
// NFC composes a character only with marks after it, before the next
// character that starts a composition, as any ASCII character does. So
// only a text with a character beyond ASCII in its beginning is put in
// normal form (foldUnicode), not one with such a character further on (on
// the 100k corpus, one entry in 25 within the first 704 bytes).
func appendSolid(dst []byte, s string, limit int) []byte {
	n := len(dst)
	end := n + limit
	dst = slices.Grow(dst, limit+utf8.UTFMax)[:end+utf8.UTFMax]
	i := 0
	for ; i < len(s) && n < end && s[i] < utf8.RuneSelf; i++ {
		c := asciiNormal[s[i]]
		dst[n] = c
		if c != asciiSpace {
			n++
		}
	}
	if i == len(s) || s[i] < utf8.RuneSelf {
		return dst[:n]
	}
	n = end - limit
	s = foldUnicode(s, limit)
	for i := 0; i < len(s) && n < end; {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			c = asciiNormal[c]
			dst[n] = c
			if c != asciiSpace {
				n++
			}
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		if !unicode.IsSpace(r) {
			n += utf8.EncodeRune(dst[n:], unicode.ToLower(r))
		}
	}
	return dst[:n]
}

// foldUnicode returns s in NFC with full case folding (cases.Fold), or s
// itself when it is ASCII (most contents), where both change nothing the
// byte loops do not. With limit >= 0 only a beginning of s long enough
// for limit bytes of the result is folded.
func foldUnicode(s string, limit int) string {
	if cut := 4*limit + 64; limit >= 0 && len(s) > cut {
		// A beginning of limit bytes needs at most this much, but for
		// runs of whitespace: ASCII there, s is taken as it is (what is
		// past it is lowered rune by rune, by appendSolid).
		if isASCII(s[:cut]) {
			return s
		}
		s = s[:cut]
	}
	if isASCII(s) {
		return s
	}
	return norm.NFC.String(cases.Fold().String(norm.NFD.String(s)))
}

// asciiNormal is an ASCII byte as appendNormal writes it: asciiSpace for
// whitespace, the lower case of a letter, every other byte itself.
var asciiNormal = func() (t [utf8.RuneSelf]byte) {
	for c := range t {
		b := byte(c)
		switch {
		case b == ' ' || b-'\t' <= '\r'-'\t':
			t[c] = asciiSpace
		case 'A' <= b && b <= 'Z':
			t[c] = b + 'a' - 'A'
		default:
			t[c] = b
		}
	}
	return t
}()

// asciiSpace marks whitespace in asciiNormal (no ASCII byte is 0x80).
const asciiSpace = 0x80

// appendSpace appends the one space a whitespace run becomes, if one was
// pending.
func appendSpace(dst []byte, pending bool) []byte {
	if pending {
		return append(dst, ' ')
	}
	return dst
}

// normalEqual reports whether a and b are equal once normalised (only
// contents whose hashes agree are compared, so this rarely runs).
func normalEqual(a, b string) bool {
	return string(appendNormal(nil, a, -1)) == string(appendNormal(nil, b, -1))
}
