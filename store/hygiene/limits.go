package hygiene

// The bounds that keep Run's time and memory in proportion to the memory's
// size whatever its entries hold. Each one reached is said in
// Report.Bounded.
const (
	// MinRareDF is the smallest document-frequency cut for candidate
	// terms: two entries are compared only if they share a term held by at
	// most max(MinRareDF, N/RareDivisor) entries.
	MinRareDF = 50
	// RareDivisor divides the entry count into the candidate terms' cut.
	RareDivisor = 100
	// MaxCandidateWork bounds candidate generation: the sum over
	// candidate terms of df² / 2, the pairs their posting lists can form
	// (when the memory's terms would exceed it, the cut is lowered until
	// they fit, which moves pairs to the all-pairs search and loses none).
	MaxCandidateWork = 60_000_000
	// PairWorkPerEntry and ExactWorkPerEntry are the near-duplicate
	// search's default work bounds per entry: postings the all-pairs
	// search visits, and term comparisons of exact cosines in each of the
	// two searches (pairs sharing a rare word, the others). The rest of
	// lint grows with the memory's size (decoding, tokenizing, the secret
	// scan: about 2.5 times what ls --json costs), so a bound per entry
	// keeps the search a fixed share of it: on the 100k corpus 3 million
	// postings and 10 million comparisons (about 0.05 s) hold lint --json
	// at about 2.5 times ls --json, within the 3 times asked, where the
	// former absolute 60 and 200 million made it 4.8 times. A search that
	// ends within them is complete; one that reaches them says which
	// entries it compared (Report.Partial), and Options.Exhaustive (lint
	// --exhaustive) lifts them.
	PairWorkPerEntry  = 30
	ExactWorkPerEntry = 100
	// MinPairWork and MinExactWork are the least of the default bounds,
	// for a small memory, whose search is quick whatever it compares: the
	// graded near-duplicate sets (3,300 entries) need 1.4 million postings
	// and 3.4 million comparisons, about half and a third of them.
	MinPairWork  = 3_000_000
	MinExactWork = 10_000_000
	// PairWorkPerFound and ExactWorkPerFound raise the bounds for each
	// near pair the search found so far: a search that keeps finding pairs
	// goes on, one that scores millions of candidates in vain stops at the
	// bound. A memory of notes so alike that thousands of pairs reach the
	// threshold costs that much to report (2,010 notes in 30 words: 73
	// million comparisons for 4,341 pairs at 0.85, 17,000 a pair); the
	// 100k corpus found 14 pairs in 3.6 million candidates scored at 0.95
	// and stops where the per-entry bound says.
	PairWorkPerFound  = 2_000
	ExactWorkPerFound = 30_000
	// MaxNearPairs bounds the near pairs kept to list in the findings:
	// beyond it pairs still join their groups, but are not kept (a memory
	// written in a few hundred words has millions at the threshold).
	MaxNearPairs = 500_000
	// MaxListedPairs is the most near pairs the default threshold
	// searches for: when a sample (DensitySample entries) estimates more
	// at DefaultMinSimilarity, the entries are too alike for any report
	// to list their pairs (the groups join into one of thousands of
	// entries), and the search runs at the lowest higher threshold whose
	// estimate fits, and says so. A hundred thousand is twice what the
	// report's groups can show of pairs on the 100k corpus, and what the
	// search finds in about a second of work; an explicit
	// Options.MinSimilarity is searched as asked.
	MaxListedPairs = 100_000
	// DensitySample is how many entries the estimate of near pairs
	// compares with every other.
	DensitySample = 200
	// DensityWork bounds the estimate's work: the sampled entries' terms'
	// document frequencies, summed (each a multiply-add, about 20 ms for
	// all of it). On the 100k corpus, written in 1,242 words, it stops the
	// sample at a dozen entries, which tell 260 million pairs from a
	// hundred thousand by far; on a memory of varied words all
	// DensitySample are drawn for a few milliseconds.
	DensityWork = 5_000_000
	// MaxPairsPerGroup bounds the pairs a duplicate group lists.
	MaxPairsPerGroup = 20
	// MaxSharedTerms bounds the shared terms a duplicate group lists.
	MaxSharedTerms = 8
	// MaxScanBytes bounds the bytes of one content or alias scanned for
	// secrets (its beginning).
	MaxScanBytes = 1 << 20
	// MaxSecretsPerEntry bounds the secrets reported for one entry.
	MaxSecretsPerEntry = 20
)
