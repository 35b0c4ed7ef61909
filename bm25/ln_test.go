package bm25

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigLn computes ln x with 256-bit floats (an atanh series after reducing
// x to [0.5, 1)) and rounds once: the oracle for ln.
func bigLn(x float64) float64 {
	const prec = 256
	newF := func() *big.Float { return new(big.Float).SetPrec(prec) }
	lnOf := func(v *big.Float) *big.Float { // 2 atanh((v−1)/(v+1))
		one := newF().SetInt64(1)
		z := newF().Quo(newF().Sub(v, one), newF().Add(v, one))
		z2 := newF().Mul(z, z)
		sum, term := newF(), newF().Set(z)
		for k := int64(1); k < 300; k += 2 {
			sum.Add(sum, newF().Quo(term, newF().SetInt64(k)))
			term.Mul(term, z2)
		}
		return sum.Mul(sum, newF().SetInt64(2))
	}
	f, e := math.Frexp(x)
	r := lnOf(newF().SetFloat64(f))
	r.Add(r, newF().Mul(lnOf(newF().SetInt64(2)), newF().SetInt64(int64(e))))
	out, _ := r.Float64()
	return out
}

func TestLn_CorrectlyRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{1, 2, math.E, 0.5, 1.5, 3, 10, 1e6, 1 + 1e-12, math.Sqrt2, math.Sqrt2 / 2, math.MaxFloat64, 5e-324}
	for range 400 {
		xs = append(xs, 1+rng.Float64()*10, math.Exp(rng.Float64()*25))
	}
	// idf's own inputs: (N − df + 0.5)/(df + 0.5) + 1.
	for range 400 {
		n := 1 + rng.IntN(200000)
		df := 1 + rng.IntN(n)
		xs = append(xs, (float64(n)-float64(df)+0.5)/(float64(df)+0.5)+1)
	}
	for _, x := range xs {
		if got, want := ln(x), bigLn(x); got != want {
			t.Errorf("ln(%v) = %v, want %v (math.Log %v)", x, got, want, math.Log(x))
		}
	}
}
