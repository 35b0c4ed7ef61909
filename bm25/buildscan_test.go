package bm25

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unsafe"
)

// TestBlockBounds_SameAsGo compares blockBounds (assembly on amd64 with
// POPCNT, with BMI1 or not) with blockBoundsGo on random texts of words, edge bytes and runs
// of alphanumerics as long as a block, from every offset, with a byte of
// 0x80 or more in some block or none, a carry in or not, and bounds
// already written: the blocks taken, the bounds and the carry out.
func TestBlockBounds_SameAsGo(t *testing.T) {
	words := []string{"a", "Z", "0", "9", "the", "Deploy", "x86", " ", " ", ".", "\x00", "\x7f", "@", "[", "`", "{", "/", ":",
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"}
	defer func(had bool) { hasBMI1 = had }(hasBMI1)
	bmi1 := hasBMI1
	rng := rand.New(rand.NewPCG(41, 1))
	for k := range 3000 {
		hasBMI1 = bmi1 && k%2 == 0 // on amd64, both ways of blockBoundsAsm where the CPU has BMI1
		var b []byte
		for size := rng.IntN(64 * 10); len(b) < size; {
			b = append(b, words[rng.IntN(len(words))]...)
		}
		if k%3 == 0 && len(b) > 0 {
			b[rng.IntN(len(b))] = byte(0x80 + rng.IntN(0x80))
		}
		s := string(b)
		i := 0
		if len(s) > 0 {
			i = rng.IntN(len(s) + 1)
		}
		blocks := (len(s) - i) / 64
		if blocks > 0 {
			blocks = 1 + rng.IntN(blocks)
		}
		carry := uint64(rng.IntN(2)) << 7
		n := rng.IntN(5)
		got := make([]uint32, n+64*blocks+72)
		for j := range n {
			got[j] = uint32(rng.Uint64())
		}
		want := slices.Clone(got)
		gk, gn, gc := blockBounds(got, n, s, i, blocks, carry)
		wk, wn, wc := blockBoundsGo(want, n, s, i, blocks, carry)
		if gk != wk || gn != wn || gc != wc || !slices.Equal(got[:gn], want[:wn]) {
			t.Fatalf("blockBounds(%q from %d, %d blocks, carry %#x) = %d %d %#x %v; blockBoundsGo %d %d %#x %v",
				s, i, blocks, carry, gk, gn, gc, got[:gn], wk, wn, wc, want[:wn])
		}
	}
}

// TestTailBounds_SameAsGo compares tailBounds (assembly on amd64 with
// POPCNT, with BMI1 or not) with tailBoundsGo on the last bytes of random
// texts, none to 63 of them, with a byte of 0x80 or more among them or
// none, a carry in or not, and bounds already written.
func TestTailBounds_SameAsGo(t *testing.T) {
	defer func(had bool) { hasBMI1 = had }(hasBMI1)
	bmi1 := hasBMI1
	words := []string{"a", "Z", "0", "9", "the", "Deploy", "x86", " ", ".", "\x00", "\x7f", "@", "[", "`", "{", "/", ":", "abcdefghijklmnopqrstuvwxyz"}
	rng := rand.New(rand.NewPCG(41, 3))
	for k := range 3000 {
		hasBMI1 = bmi1 && k%2 == 0
		var b []byte
		for size := rng.IntN(200); len(b) < size; {
			b = append(b, words[rng.IntN(len(words))]...)
		}
		i := max(0, len(b)-rng.IntN(64))
		if k%3 == 0 && i < len(b) {
			b[i+rng.IntN(len(b)-i)] = byte(0x80 + rng.IntN(0x80))
		}
		s := string(b)
		carry := uint64(rng.IntN(2)) << 7
		n := rng.IntN(5)
		got := make([]uint32, n+64+72)
		for j := range n {
			got[j] = uint32(rng.Uint64())
		}
		want := slices.Clone(got)
		gn, gok := tailBounds(got, n, s, i, carry)
		wn, wok := tailBoundsGo(want, n, s, i, carry)
		if gn != wn || gok != wok || !slices.Equal(got[:gn], want[:wn]) {
			t.Fatalf("tailBounds(%q from %d, carry %#x) = %d %v %v; tailBoundsGo %d %v %v", s, i, carry, gn, gok, got[:gn], wn, wok, want[:wn])
		}
	}
}

// TestLookKnown_SameAsGo compares lookKnown (assembly on amd64) with
// lookKnownGo on the piece bounds of random texts of words of one to 20
// bytes in any case, some in the fixed tables and some not, some pieces
// near the text's end, from every pair of bounds, with counts for every
// id or for only some: the pairs taken, the ids appended and the counts.
func TestLookKnown_SameAsGo(t *testing.T) {
	known := []string{"a", "x", "of", "the", "with", "deploy", "canary", "abcdefgh", "abcdefghi", "rollbacks", "kubernetes",
		"internationaliz", "abcdefghijklmnop", "k8s", "x86", "42"}
	other := []string{"b", "zz", "Deployed", "abcdefgz", "abcdefghz", "abcdefghijklmnoz", "abcdefghijklmnopq", "1234567890123", "internationalization"}
	seps := []string{" ", " ", ". ", "\x00", "\x7f", "@", "[", "`", "{", "/", ":"}
	rng := rand.New(rand.NewPCG(41, 2))
	for k := range 2000 {
		voc := newBuildTerms()
		for _, w := range known {
			if len(w) <= 8 {
				voc.shortID(packKey(w))
			} else {
				voc.longID([]byte(w))
			}
		}
		var sb strings.Builder
		for size := 8 + rng.IntN(600); sb.Len() < size; {
			w := known[rng.IntN(len(known))]
			if rng.IntN(4) == 0 {
				w = other[rng.IntN(len(other))]
			}
			if rng.IntN(3) == 0 { // some letters in upper case
				b := []byte(w)
				for i := range b {
					if rng.IntN(2) == 0 {
						b[i] = byte(unicode.ToUpper(rune(b[i])))
					}
				}
				w = string(b)
			}
			sb.WriteString(w + seps[rng.IntN(len(seps))])
		}
		text := sb.String()
		if k%2 == 0 { // a piece at the very end
			text = strings.TrimRight(text, " .\x00\x7f@[`{/:")
		}
		sc := scanner{}
		st := stretch{}
		sc.bounds(text, &st)
		at := sc.at
		if len(at)%2 != 0 {
			at = append(at, uint32(len(text)))
		}
		from := 2 * rng.IntN(len(at)/2+1)
		counts := make([]uint32, len(voc.terms))
		for i := range counts {
			counts[i] = uint32(rng.IntN(2))
		}
		if k%5 == 0 { // no count for the last ids
			counts = counts[:rng.IntN(len(counts)+1)]
		}
		tf, wantTF := slices.Clone(counts), slices.Clone(counts)
		buf, want := make([]uint32, len(at)/2), make([]uint32, len(at)/2)
		took, added := lookKnown(at[from:], text, voc.shortCache, voc.pairCache, tf, buf)
		wantTook, wantAdded := lookKnownGo(at[from:], text, voc.shortCache, voc.pairCache, wantTF, want)
		if took != wantTook || added != wantAdded || !slices.Equal(buf[:added], want[:wantAdded]) || !slices.Equal(tf, wantTF) {
			t.Fatalf("lookKnown(%q, pairs from %d) = %d %d %v; lookKnownGo %d %d %v", text, from/2, took, added, buf[:added], wantTook, wantAdded, want[:wantAdded])
		}
	}
}

// TestLookKnown_Layout holds the fixed tables to the slots, sizes and
// hash shifts lookKnownAsm reads them with.
func TestLookKnown_Layout(t *testing.T) {
	if unsafe.Sizeof(shortSlot{}) != 16 || unsafe.Offsetof(shortSlot{}.val) != 8 ||
		unsafe.Sizeof(pairSlot{}) != 24 || unsafe.Offsetof(pairSlot{}.hi) != 8 || unsafe.Offsetof(pairSlot{}.id) != 16 ||
		shortCacheBits != 12 || pairCacheBits != 10 || fibMul != 0x9E3779B97F4A7C15 {
		t.Fatal("the fixed tables' layout changed: change lookKnownAsm with it")
	}
}
