package sessions

import (
	"math/rand/v2"
	"testing"
)

// TestHashText_AsBytewise pins hashText, which takes eight bytes a step,
// to the polynomial taken a byte at a time, at every length around the
// step.
func TestHashText_AsBytewise(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for n := range 40 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		var want uint64
		for _, c := range b {
			want = want*hashBase + uint64(c)
		}
		if got := hashText(string(b)); got != want {
			t.Errorf("hashText of %d bytes = %x, bytewise %x", n, got, want)
		}
	}
}
