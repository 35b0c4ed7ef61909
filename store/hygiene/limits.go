package hygiene

// The bounds that keep Run's time and memory in proportion to the memory's
// size whatever its entries hold. Each one reached is said in
// Report.Bounded.
const (
	// MaxNearPairs bounds the near pairs kept to list in the findings:
	// beyond it pairs still join their groups, but are not kept (a memory
	// written in a few hundred words has millions at the threshold).
	MaxNearPairs = 500_000
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

// The near-duplicate search's bounds (wording.go).
const (
	// SampleEvery samples an entry's word triples as candidate keys: those
	// whose hash is 0 modulo it (a quarter).
	SampleEvery = 4
	// BottomKeys is how many of an entry's smallest triple hashes are keys
	// whatever their value, so a short entry has some.
	BottomKeys = 2
	// MaxKeyDF is the most entries a candidate key may be held by to
	// propose pairs: a run of three words held by more is a phrase of the
	// memory, not a copied text (5,000 copies of one text are one exact
	// class, which takes part once).
	MaxKeyDF = 64
	// MinCandidateWork and CandidateWorkPerEntry bound the candidate pairs
	// the keys' lists form; past them the cut on a key's entries is
	// lowered until they fit, and the report says so.
	MinCandidateWork      = 1_000_000
	CandidateWorkPerEntry = 20
	// MinKeyShare: a candidate pair is scored only when the keys it shares
	// are at least 1/MinKeyShare of the fewer keys of its two entries.
	MinKeyShare = 10
	// MaxGroupEntries bounds a near group's entries (complete link checks
	// each new member against every member).
	MaxGroupEntries = 200
)
