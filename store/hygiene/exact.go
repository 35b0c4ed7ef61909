package hygiene

import (
	"hash/maphash"
	"unicode"
	"unicode/utf8"

	"github.com/crmem/crmem/store"
)

// exactClasses groups the entries whose content is the same after
// normalising whitespace (every run of it is one space, none at either
// end) and case (simple lower case), and returns each entry's class: -1
// for blank content or content no other entry has. Content is hashed, not
// copied; entries whose hashes agree are compared in full, so a collision
// never makes a false group.
func exactClasses(entries []store.Entry) []int32 {
	seed := maphash.MakeSeed()
	byHash := make(map[uint64][]int32, len(entries))
	var buf []byte
	for i := range entries {
		if entries[i].Content == "" {
			continue
		}
		h := normalHash(seed, &buf, entries[i].Content)
		if len(buf) == 0 { // only whitespace: reported as empty, not as duplicates
			continue
		}
		byHash[h] = append(byHash[h], int32(i))
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

// appendNormal appends s normalised to dst: lower case, every whitespace
// run one space, none leading or trailing; an invalid byte is U+FFFD.
func appendNormal(dst []byte, s string) []byte {
	space, started := false, false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c == ' ' || c-'\t' <= '\r'-'\t' {
				space = started
				continue
			}
			dst, space, started = appendSpace(dst, space), false, true
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
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

// appendSpace appends the one space a whitespace run becomes, if one was
// pending.
func appendSpace(dst []byte, pending bool) []byte {
	if pending {
		return append(dst, ' ')
	}
	return dst
}

// normalHash hashes s's normalised form, built in *buf.
func normalHash(seed maphash.Seed, buf *[]byte, s string) uint64 {
	*buf = appendNormal((*buf)[:0], s)
	return maphash.Bytes(seed, *buf)
}

// normalEqual reports whether a and b are equal once normalised (only
// contents whose hashes agree are compared, so this rarely runs).
func normalEqual(a, b string) bool {
	return string(appendNormal(nil, a)) == string(appendNormal(nil, b))
}
