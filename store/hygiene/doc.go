// Package hygiene finds what needs cleaning in a memory: one pass over its
// entries (and the sessions' references to archives) that reports
// duplicates, secrets, names that deceive, outsize entries and archives no
// session needs, each finding with its kind, its entries and a one-line
// reason. It reads and never writes the memory; the faces act on a finding
// with the operations they already have (edit, rename, delete).
//
// # Duplicates
//
// Exact duplicates have the same content once whitespace runs are one space
// and case is lowered (hashed, then compared in full); each such class is
// an exact finding. Near-duplicates are pairs whose tf-idf cosine reaches
// Options.MinSimilarity, computed over bm25's own tokens and postings
// (bm25.Index.Vectors): a term weighs (1 + ln tf) × ln(N / df), so two
// entries score high exactly when they hold the same rare words, that is
// when they compete for the same recall queries. Every pair at the
// threshold is compared: pairs sharing a term held by at most
// max(MinRareDF, N/RareDivisor) entries are proposed through those terms
// (their exact cosine computed unless the rare terms' share plus the most
// the other terms can add falls short), and a pair sharing none can reach
// the threshold only if both entries hold that much weight in common
// words: those entries are compared with one another by the all-pairs
// method (allPairs), which leaves the pairs sharing a rare term to the
// first search, so each pair is found once. An exact class takes part
// through its first entry, so an exact pair is never called near. Near pairs join groups by
// union-find. Pairs the user marked as not duplicates (NotDuplicates, a
// file beside the memory) never join a group by themselves.
//
// The default threshold rises when the entries are too alike to list:
// a sample of entries, each compared with all the others
// (sampleDensity), estimates the pairs at DefaultMinSimilarity, and past
// MaxListedPairs the search runs at the lowest of a few higher thresholds
// whose estimate fits (Report.Adapted, and a line in Report.Bounded). A
// threshold given in Options is searched as asked.
//
// # Secrets
//
// gitleaks v8's default rule set (config/gitleaks.toml, MIT, embedded as
// data in gitleaks/) is parsed with go-toml on the first scan; a rule's
// regular expression is compiled only when one of its keywords occurs in a
// text, and a match is kept as gitleaks keeps it: above the rule's entropy,
// not allowed by the global or the rule's allowlists (regexes and stop
// words; path checks never hold for an entry), not on a line marked
// "gitleaks:allow". Rules that need a file path are not applied. The
// generic key rule is tried at each of its keywords that can begin an
// assignment rather than over windows (its expression costs about a
// microsecond per byte where "key" is everywhere), and a line's allowlists
// look within 1 KiB of the match.
//
// crmem adds three rules of its own (crmem-rules.toml, same format): a
// Stripe key ended by punctuation, a password in a URL
// (scheme://user:password@host), a password in prose ("password: …", "the
// password is …"). It allows keys that say they are examples (EXAMPLE) and
// a UUID on a line about an idempotency key, and keeps one finding per
// secret: of overlapping findings, a specific rule's over a generic one.
// Names are scanned as well as content and aliases.
//
// A secret is only ever reported redacted (Redact), and everything a
// report holds (names, reasons, shared terms, notes) is masked (Mask); the
// faces mask what else they print (MaskJSON, MaskEntry).
//
// # Bounds
//
// The limits in limits.go keep time and memory in proportion to the
// memory's size whatever it holds (a huge entry, 100,000 near-identical
// ones, binary content); a limit reached is said in Report.Bounded, and a
// near-duplicate search that reaches one names the entry it stopped at.
package hygiene
