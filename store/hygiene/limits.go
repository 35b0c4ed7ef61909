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
	BottomKeys = 4
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
	// MinSharedKeys and MinKeyResemblance: a candidate pair is scored only
	// when it shares at least MinSharedKeys keys, and its keys' resemblance
	// (shared over all) is at least MinKeyResemblance (worthScoring).
	MinSharedKeys     = 2
	MinKeyResemblance = 0.05
	// CommonSample, CommonShare and CommonMinEntries find the phrases of a
	// memory (commonShingles): a word pair or triple held by CommonShare
	// of CommonSample entries spread over it, and by at least
	// CommonMinEntries of them, is common and does not count in the
	// resemblance.
	CommonSample     = 2000
	CommonShare      = 0.02
	CommonMinEntries = 10
	// MinSharedTriples is the fewest uncommon runs of three words a near
	// pair shares (or half the shorter entry's at MinShortSimilarity, when
	// it has fewer than twice as many: enough): on the 100k corpus, notes
	// from one checklist template that share a title and two rows word for
	// word share five or six.
	MinSharedTriples = 8
	// MinShortSimilarity is the resemblance a near pair needs when it
	// shares fewer than MinSharedTriples uncommon triples because one of
	// its entries is short (enough): on the 100k corpus, checklist notes
	// from one template that share a line or two score 0.18–0.35, a
	// one-line note and its copy with a word changed 0.5 or more.
	MinShortSimilarity = 0.36
	// MaxGroupEntries bounds a near group's entries (complete link checks
	// each new member against every member).
	MaxGroupEntries = 200
)
