package bm25

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlockBounds_SameAsGo compares blockBounds (assembly on amd64 with
// POPCNT) with blockBoundsGo on random texts of words, edge bytes and runs
// of alphanumerics as long as a block, from every offset, with a byte of
// 0x80 or more in some block or none, a carry in or not, and bounds
// already written: the blocks taken, the bounds and the carry out.
func TestBlockBounds_SameAsGo(t *testing.T) {
	words := []string{"a", "Z", "0", "9", "the", "Deploy", "x86", " ", " ", ".", "\x00", "\x7f", "@", "[", "`", "{", "/", ":",
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"}
	rng := rand.New(rand.NewPCG(41, 1))
	for k := range 3000 {
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
