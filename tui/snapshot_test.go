package tui

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

func TestNameIndexFind(t *testing.T) {
	es := []store.Entry{
		{ID: 1, Name: "apis"},
		{ID: 2, Name: "x", Aliases: []string{"y", "API", "z"}},
		{ID: 3, Name: "rapid"},
		{ID: 4, Name: "Api"},
		{ID: 5, Name: "b", Aliases: []string{"api-b"}},
	}
	n := buildNameIndex(es, []int{4, 3, 2, 1, 0}) // newest first
	tests := []struct {
		q       string
		limit   int
		want    []int
		classes []int
		total   int
	}{
		// equal names and aliases, then names starting with q, then
		// aliases starting with it, then the rest (issue 10 item 14: /de
		// lists deploy-steps before ext-added)
		{"api", 10, []int{3, 1, 0, 4, 2}, []int{nameEqual, nameEqual, namePrefix, aliasPrefix, nameContains}, 5},
		{"api", 3, []int{3, 1, 0}, []int{nameEqual, nameEqual, namePrefix}, 5},
		{"api", 1, []int{3, 1}, []int{nameEqual, nameEqual}, 5}, // whole names are never cut
		{"y", 10, []int{1}, []int{nameEqual}, 1},
		{"pid", 10, []int{2}, []int{nameContains}, 1},
		{"s\x01", 10, nil, nil, 0},
	}
	for _, tt := range tests {
		got, classes, total, every := n.find(tt.q, tt.limit)
		if !slices.Equal(got, tt.want) || !slices.Equal(classes, tt.classes) || total != tt.total {
			t.Errorf("find(%q, %d) = %v %v %d; want %v %v %d", tt.q, tt.limit, got, classes, total, tt.want, tt.classes, tt.total)
		}
		if len(every) != total || !isSubset(got, every) {
			t.Errorf("find(%q, %d): every %v, want %d entries holding %v", tt.q, tt.limit, every, total, got)
		}
	}
}

// isSubset reports whether every element of a is in b.
func isSubset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// The name index's keys are each entry's name and aliases lower-cased by
// strings.ToLower and joined by NUL, whatever the text: ASCII of either
// case, letters whose lower case is longer or shorter (İ, K), invalid
// UTF-8, empty names and aliases, separators in names.
func TestBuildNameIndex_KeysAreToLower(t *testing.T) {
	names := []string{"", "deploy", "Deploy-Steps", "ÀPI Ünïcode", "İstanbul", "\u212aelvin", "caf\xe9 bad", "\xff", "MiXeD\xc3", "ΣΊΣΥΦΟΣ", "tab\tNUL\x00one\x01", "ASCII then Ωmega THEN"}
	var es []store.Entry
	for i, n := range names {
		es = append(es, store.Entry{ID: uint64(i + 1), Name: n})
		es = append(es, store.Entry{ID: uint64(100 + i), Name: n, Aliases: []string{strings.ToUpper(n), "", n + "X"}})
	}
	order := make([]int, len(es))
	for i := range order {
		order[i] = len(es) - 1 - i
	}
	n := buildNameIndex(es, order)
	var want strings.Builder
	want.WriteByte(1)
	for k, i := range order {
		key := strings.ToLower(strings.Join(append([]string{es[i].Name}, es[i].Aliases...), "\x00"))
		if n.offs[k] != want.Len() {
			t.Fatalf("key %d at %d, want %d", k, n.offs[k], want.Len())
		}
		want.WriteString(key)
		want.WriteByte(1)
	}
	if n.buf != want.String() {
		t.Errorf("keys\n%q\nwant\n%q", n.buf, want.String())
	}
}

// exactKeys finds the keys holding q whole, as the four framed patterns
// (each separator before and after) found anywhere, overlapping or not,
// did: on random names and aliases over a small alphabet, where q is often
// a prefix, a suffix, inside or repeated.
func TestNameIndex_ExactKeysAsFramedPatterns(t *testing.T) {
	framed := func(n *nameIndex, q string) []int {
		var keys []int
		for _, pat := range [...]string{"\x01" + q + "\x01", "\x01" + q + "\x00", "\x00" + q + "\x00", "\x00" + q + "\x01"} {
			for pos := 0; ; {
				j := strings.Index(n.buf[pos:], pat)
				if j < 0 {
					break
				}
				keys = append(keys, sort.SearchInts(n.offs, pos+j+2)-1)
				pos += j + 1
			}
		}
		slices.Sort(keys)
		return slices.Compact(keys)
	}
	rng := rand.New(rand.NewPCG(40, 7))
	word := func() string { return randomWord(rng, 0, 4, "aAb") }
	for round := range 200 {
		es, order := randomNamed(rng, 30, word)
		n := buildNameIndex(es, order)
		for _, q := range []string{"a", "aa", "ab", "b", "aaa", "ba", "aba", "bb"} {
			if got, want := n.exactKeys(q), framed(n, q); !slices.Equal(got, want) {
				t.Fatalf("round %d, %q in %q: keys %v, framed patterns %v", round, q, n.buf, got, want)
			}
		}
	}
}

// Two keys side by side that both start with the query are both "name
// starts with" (the firsthits helper's finding: the scan went on past the
// separator in front of the next key, so /deploy listed deploy-b, next to
// deploy-a, as one that merely contains it), and every class agrees with
// one worked out key by key, on random names and aliases.
func TestNameIndexFind_ClassesAsKeyByKey(t *testing.T) {
	es := []store.Entry{{ID: 1, Name: "deploy-a"}, {ID: 2, Name: "deploy-b"}, {ID: 3, Name: "deploy-c"}}
	n := buildNameIndex(es, []int{2, 1, 0})
	if got, classes, _, _ := n.find("deploy", 10); !slices.Equal(got, []int{2, 1, 0}) || !slices.Equal(classes, []int{namePrefix, namePrefix, namePrefix}) {
		t.Errorf("find(deploy) = %v %v, want [2 1 0], each namePrefix", got, classes)
	}

	r := rand.New(rand.NewPCG(7, 40))
	word := func() string { return randomWord(r, 1, 4, "ab-") }
	for round := range 300 {
		es, order := randomNamed(r, 12, word)
		n := buildNameIndex(es, order)
		q := word()
		want := map[int]int{}
		for _, i := range order {
			e := es[i]
			keys := append([]string{e.Name}, e.Aliases...)
			switch {
			case slices.Contains(keys, q):
				want[i] = nameEqual
			case strings.HasPrefix(e.Name, q):
				want[i] = namePrefix
			case slices.ContainsFunc(e.Aliases, func(a string) bool { return strings.HasPrefix(a, q) }):
				want[i] = aliasPrefix
			case strings.Contains(strings.Join(keys, "\x00"), q):
				want[i] = nameContains
			}
		}
		found, classes, total, _ := n.find(q, len(es)+1)
		got := map[int]int{}
		for j, i := range found {
			got[i] = classes[j]
		}
		if len(got) != len(want) || total != len(want) {
			t.Fatalf("round %d: find(%q) in %v = %v (total %d), want %v", round, q, es, got, total, want)
		}
		for i, c := range want {
			if got[i] != c {
				t.Fatalf("round %d: find(%q): %q is class %d, want %d (keys %v)", round, q, es[i].Name, got[i], c, es)
			}
		}
	}
}

// randomWord is a word of lo to hi bytes drawn from letters.
func randomWord(rng *rand.Rand, lo, hi int, letters string) string {
	b := make([]byte, lo+rng.IntN(hi-lo+1))
	for i := range b {
		b[i] = letters[rng.IntN(len(letters))]
	}
	return string(b)
}

// randomNamed is one to most entries named by word, each with up to two
// aliases, and a random order of them (the name index's, newest first).
func randomNamed(rng *rand.Rand, most int, word func() string) ([]store.Entry, []int) {
	es := make([]store.Entry, 1+rng.IntN(most))
	for i := range es {
		es[i] = store.Entry{ID: uint64(i + 1), Name: word()}
		for range rng.IntN(3) {
			es[i].Aliases = append(es[i].Aliases, word())
		}
	}
	return es, rng.Perm(len(es))
}
