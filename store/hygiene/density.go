package hygiene

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/crmem/crmem/internal/humanize"
)

// AdaptedSearch says that the near-duplicate search ran at a higher
// threshold than the default because, at the default, the memory's entries
// are too alike for a report to list their near pairs (Report.Adapted).
type AdaptedSearch struct {
	// Asked is the threshold asked (the default); Searched the one the
	// search ran at, to completion unless a bound says otherwise.
	Asked    float64 `json:"asked"`
	Searched float64 `json:"searched"`
	// EstimatedPairs is the near pairs estimated at Asked, from Sampled
	// entries compared with every other.
	EstimatedPairs int `json:"estimated_pairs"`
	Sampled        int `json:"sampled"`
}

// adaptSteps are the thresholds the default is raised to, lowest first,
// when its near pairs are too many to list: the first whose estimated
// pairs fit is searched (the last when none does).
func adaptSteps() []float64 { return []float64{0.75, 0.85, 0.9, 0.95, 0.99} }

// density is a sample's estimate of a memory's near pairs.
type density struct {
	ths     []float64 // the thresholds counted, ascending
	sampled int       // entries sampled
	docs    int       // entries in the search (skip not set)
	near    []int     // per threshold: the sampled entries' near others, summed
}

// pairs estimates the near pairs of the whole memory at ths[k]: the
// sampled entries' mean number of near others, times the entries, halved
// (each pair has two ends).
func (dn *density) pairs(k int) int {
	if dn.sampled == 0 {
		return 0
	}
	return int(math.Round(float64(dn.near[k]) * float64(dn.docs) / float64(dn.sampled) / 2))
}

// adaptThreshold returns the threshold the default search runs at: the
// default itself unless a sample of the memory (sampleDensity) estimates
// more than MaxListedPairs near pairs at it, and then the lowest of
// adaptSteps whose estimate fits, with what the report says of it.
func (s *space) adaptThreshold(asked float64, skip []bool) (float64, *AdaptedSearch) {
	ths := []float64{asked}
	for _, t := range adaptSteps() {
		if t > asked {
			ths = append(ths, t)
		}
	}
	dn := s.sampleDensity(skip, ths)
	if len(ths) == 1 || dn.pairs(0) <= MaxListedPairs {
		return asked, nil
	}
	k := len(ths) - 1
	for i := 1; i < len(ths); i++ {
		if dn.pairs(i) <= MaxListedPairs {
			k = i
			break
		}
	}
	return ths[k], &AdaptedSearch{Asked: asked, Searched: ths[k], EstimatedPairs: dn.pairs(0), Sampled: dn.sampled}
}

// note is the one line a report gives an adapted search.
func (a *AdaptedSearch) note() string {
	return fmt.Sprintf("near-duplicates: searched at similarity %.2f, not %.2f: at %.2f about %s pairs (estimated by comparing %s with all the others), the entries are too alike to list; --min-similarity %.2f searches there anyway, within the work bounds",
		a.Searched, a.Asked, a.Asked, roughCount(a.EstimatedPairs), humanize.Plural(a.Sampled, "entry"), a.Asked)
}

// roughCount writes n to two significant digits (250,000,000 as "250
// million"): an estimate's digits beyond those say nothing.
func roughCount(n int) string {
	if n < 1000 {
		return humanize.Count(n)
	}
	digits := int(math.Floor(math.Log10(float64(n)))) + 1
	unit := math.Pow(10, float64(digits-2))
	r := int(math.Round(float64(n)/unit) * unit)
	switch {
	case r >= 1e9:
		return fmt.Sprintf("%s billion", trimFloat(float64(r)/1e9))
	case r >= 1e6:
		return fmt.Sprintf("%s million", trimFloat(float64(r)/1e6))
	}
	return humanize.Count(r)
}

// trimFloat writes x with at most one decimal, none when it is whole.
func trimFloat(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// sampleDensity compares up to DensitySample entries, drawn at random but
// the same on every run over the same memory (the generator is seeded from
// its ids), with every other entry not marked in skip, and counts their
// near others at each threshold of ths. The sample's terms are indexed and
// every entry's terms walked once against them, so the work is the sum of
// the sampled entries' terms' document frequencies, bounded by DensityWork
// (the sample stops growing there: on a memory of few words an entry's
// terms are held by tens of thousands, and 20 entries already tell
// hundreds of millions of pairs from a hundred thousand).
func (s *space) sampleDensity(skip []bool, ths []float64) density {
	v := s.v
	n := v.Docs()
	live := make([]int32, 0, n)
	seed := uint64(n)
	for d := range n {
		if !skip[d] {
			live = append(live, int32(d))
		}
		seed = (seed ^ v.IDs[d]) * 0x100000001b3 // FNV-1a's prime over the ids
	}
	dn := density{ths: ths, docs: len(live), near: make([]int, len(ths))}
	if len(live) < 2 {
		return dn
	}
	rng := rand.New(rand.NewPCG(seed, 0x63726d656d)) // "crmem"
	// Draw the sample by a partial shuffle of a copy of live, stopping
	// where the next entry's work would pass the bound.
	pool := slices.Clone(live)
	var sample []int32
	work := 0
	for len(sample) < min(DensitySample, len(pool)) {
		i := len(sample) + rng.IntN(len(pool)-len(sample))
		pool[len(sample)], pool[i] = pool[i], pool[len(sample)]
		d := pool[len(sample)]
		w := 0
		for _, t := range v.Terms[v.Start[d]:v.Start[d+1]] {
			w += int(v.DF[t])
		}
		if len(sample) > 0 && work+w > DensityWork {
			break
		}
		work += w
		sample = append(sample, d)
	}
	dn.sampled = len(sample)
	// The sample's postings by term: term t's are at start[t]:start[t+1].
	start := make([]int32, len(v.DF)+1)
	for _, d := range sample {
		for _, t := range v.Terms[v.Start[d]:v.Start[d+1]] {
			start[t+1]++
		}
	}
	for t := range v.DF {
		start[t+1] += start[t]
	}
	type spost struct {
		j int32 // position in sample
		w float32
	}
	post := make([]spost, start[len(v.DF)])
	fill := slices.Clone(start[:len(v.DF)])
	for j, d := range sample {
		for i := v.Start[d]; i < v.Start[d+1]; i++ {
			t := v.Terms[i]
			post[fill[t]] = spost{int32(j), s.weight[i]}
			fill[t]++
		}
	}
	acc := make([]float32, len(sample))
	var touched []int32
	lowest := float32(ths[0] - 1e-6)
	for _, e := range live {
		touched = touched[:0]
		lo, hi := v.Start[e], v.Start[e+1]
		weights := s.weight[lo:hi]
		for k, t := range v.Terms[lo:hi] {
			a, b := start[t], start[t+1]
			if a == b {
				continue // no sampled entry holds t: most terms of a varied memory
			}
			w := weights[k]
			for _, p := range post[a:b] {
				if acc[p.j] == 0 {
					touched = append(touched, p.j)
				}
				acc[p.j] += w * p.w
			}
		}
		for _, j := range touched {
			sum := acc[j]
			acc[j] = 0
			if sum < lowest || sample[j] == e {
				continue
			}
			for k, th := range ths {
				if float64(sum) >= th-1e-6 {
					dn.near[k]++
				}
			}
		}
	}
	return dn
}
