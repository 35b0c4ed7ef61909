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
	// MaxPairWork bounds candidate generation: the sum over candidate
	// terms of df² / 2, the pairs their posting lists can form (when the
	// memory's terms would exceed it, the cut is lowered until they fit,
	// which moves pairs to the all-pairs search and loses none); and the
	// postings the all-pairs search visits, which stops at the entry where
	// it is reached.
	MaxPairWork = 60_000_000
	// MaxExactWork bounds the exact cosines computed by each search, in
	// term comparisons (each costs the two entries' distinct terms): the
	// search stops at the entry where it is reached.
	MaxExactWork = 200_000_000
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
