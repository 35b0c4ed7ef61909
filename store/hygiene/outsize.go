package hygiene

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// MinOutsizeBytes is the size below which no entry is outsize, however
// small the median: in a memory of one-line notes a paragraph is not a
// problem.
const MinOutsizeBytes = 8 << 10

// OutsizeSample is how many entries, spread evenly over a memory, the
// median token count is taken over when the entries' tokens are not
// known already (Options.Index): counting every entry's
// tokens would cost a third of lint on the 100k corpus, and a median of
// thousands spread evenly is the median.
const OutsizeSample = 4001

// findOutsize reports entries with empty content, and entries whose size
// in bytes or in tokens is at least OutsizeTimes the median of the
// memory's non-empty entries (and at least MinOutsizeBytes). The token
// median is over every entry when their tokens are known, else over
// OutsizeSample of them spread evenly; the tokens of an entry are counted
// only when it is sampled or big enough to be outsize.
func findOutsize(entries []store.Entry, o *Options, r *Report) {
	times := o.OutsizeTimes
	if times <= 0 {
		times = DefaultOutsizeTimes
	}
	count := o.tokenCounter()
	known := o.Index != nil
	tokens := make([]int, len(entries))
	empty := make([]bool, len(entries))
	var bytesOf, tokensOf []int
	nonEmpty := 0
	for i := range entries {
		if strings.TrimSpace(entries[i].Content) != "" {
			nonEmpty++
		}
	}
	step, k := max(1, nonEmpty/OutsizeSample), 0
	for i := range entries {
		e := &entries[i]
		if strings.TrimSpace(e.Content) == "" {
			empty[i] = true
			r.Findings = append(r.Findings, Finding{Kind: Outsize, Check: "empty", Entries: sortedRefs(e),
				Reason: fmt.Sprintf("%q has no content", e.Name), Outsize: &OutsizeDetail{Bytes: len(e.Content)}})
			continue
		}
		sampled := known || k%step == 0
		k++
		if sampled || len(e.Content) >= MinOutsizeBytes {
			tokens[i] = count(e)
		}
		bytesOf = append(bytesOf, len(e.Content))
		if sampled {
			tokensOf = append(tokensOf, tokens[i])
		}
	}
	mb, mt := median(bytesOf), median(tokensOf)
	var big []Finding
	for i := range entries {
		e := &entries[i]
		if empty[i] {
			continue // one finding: it has no content, however many spaces
		}
		if f, ok := outsize(e, tokens[i], mb, mt, times); ok {
			big = append(big, f)
		}
	}
	slices.SortFunc(big, func(a, b Finding) int { return cmp.Compare(b.Outsize.Times, a.Outsize.Times) })
	r.Findings = append(r.Findings, big...)
}

// tokenCounter returns an entry's bm25 length: from Index when given,
// else its own tokens counted.
func (o *Options) tokenCounter() func(e *store.Entry) int {
	if o.Index != nil {
		return func(e *store.Entry) int { return o.Index.DocLen(e.ID) }
	}
	return (*store.Entry).Tokens
}

// outsize reports e as outsize against medians mb (bytes) and mt (tokens).
func outsize(e *store.Entry, tokens, mb, mt int, times float64) (Finding, bool) {
	b := len(e.Content)
	if b < MinOutsizeBytes || mb == 0 {
		return Finding{}, false
	}
	rb, rt := float64(b)/float64(mb), 0.0
	if mt > 0 {
		rt = float64(tokens) / float64(mt)
	}
	if rb < times && rt < times {
		return Finding{}, false
	}
	d := &OutsizeDetail{Bytes: b, Tokens: tokens, MedianBytes: mb, MedianTokens: mt, Times: max(rb, rt)}
	check, reason := "size", fmt.Sprintf("%q is %s, %.0f× the median entry (%s)", e.Name, humanize.Size(b), rb, humanize.Size(mb))
	if rt > rb {
		check = "tokens"
		reason = fmt.Sprintf("%q has %s tokens, %.0f× the median entry (%s)", e.Name, humanize.Count(tokens), rt, humanize.Count(mt))
	}
	return Finding{Kind: Outsize, Check: check, Entries: sortedRefs(e), Reason: reason, Outsize: d}, true
}

// median of xs (the lower middle for an even count), 0 for none; xs is
// sorted in place.
func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[(len(xs)-1)/2]
}
