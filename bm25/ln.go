package bm25

import "math"

// The reference computes idf with the C library's log, which is correctly
// rounded on the fixtures' inputs where Go's math.Log is sometimes one ulp
// off. ln evaluates the logarithm in double-double arithmetic (about 106
// bits) and rounds once, so idf matches the reference to the last bit.

// dd is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

// twoSum returns a + b exactly as a dd (Knuth).
func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

// quickTwoSum is twoSum for |a| >= |b|.
func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

// twoProd returns a × b exactly as a dd.
func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func (a dd) add(b dd) dd {
	s, t := twoSum(a.hi, b.hi), twoSum(a.lo, b.lo)
	s = quickTwoSum(s.hi, s.lo+t.hi)
	return quickTwoSum(s.hi, s.lo+t.lo)
}

func (a dd) mul(b dd) dd {
	p := twoProd(a.hi, b.hi)
	return quickTwoSum(p.hi, p.lo+(a.hi*b.lo+a.lo*b.hi))
}

// div returns a / b by long division in three float64 quotients.
func (a dd) div(b dd) dd {
	q1 := a.hi / b.hi
	r := a.add(b.mul(dd{-q1, 0}))
	q2 := r.hi / b.hi
	r = r.add(b.mul(dd{-q2, 0}))
	q3 := r.hi / b.hi
	return quickTwoSum(q1, q2).add(dd{q3, 0})
}

// ln2dd is ln 2 in double-double.
var ln2dd = dd{0.6931471805599453, 2.3190468138462996e-17}

// atanhTerms is how many terms of the atanh series ln uses: with
// |s| <= (√2−1)/(√2+1), s² < 0.0295 and 22 terms reach 2⁻¹¹⁰.
const atanhTerms = 22

// oddInverses holds 1/(2k+1) in double-double for the series; computed
// once, never written again.
var oddInverses = func() (t [atanhTerms]dd) {
	for k := range t {
		t[k] = dd{1, 0}.div(dd{float64(2*k + 1), 0})
	}
	return t
}()

// Ln returns the natural logarithm of x, correctly rounded (see ln): what
// the C library's log gives, where Go's math.Log is sometimes one unit in
// the last place off. The agent computes idf with that log, so every idf
// crmem shows (RFC 0150 recall here, crabtalk's store recall in
// store/crabdb) uses Ln to match the agent's scores bit for bit.
func Ln(x float64) float64 { return ln(x) }

// ln returns the natural logarithm of x > 0, correctly rounded except in
// cases closer to a rounding boundary than 2⁻¹⁰⁰ relative. With x = f × 2ᵉ,
// f in [√½, √2): ln x = e × ln 2 + 2 atanh((f−1)/(f+1)).
func ln(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Log(x)
	}
	f, e := math.Frexp(x)
	if f < math.Sqrt2/2 {
		f, e = f*2, e-1
	}
	s := dd{f - 1, 0}.div(twoSum(f, 1)) // f − 1 is exact here
	s2 := s.mul(s)
	sum := oddInverses[atanhTerms-1]
	for k := atanhTerms - 2; k >= 0; k-- {
		sum = sum.mul(s2).add(oddInverses[k])
	}
	r := s.mul(sum).mul(dd{2, 0}).add(dd{float64(e), 0}.mul(ln2dd))
	return r.hi + r.lo
}
