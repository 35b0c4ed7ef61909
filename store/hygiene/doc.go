// Package hygiene finds what needs cleaning in a memory: one pass over its
// entries (and the sessions' references to archives) that reports
// duplicates, secrets, names that deceive, outsize entries and archives no
// session needs, each finding with its kind, its entries and a one-line
// reason. It reads and never writes the memory; the faces act on a finding
// with the operations they already have (edit, rename, delete).
//
// # Duplicates
//
// Exact duplicates have the same content once whitespace runs are one
// space, the text is in NFC and fully case folded (hashed, then compared
// in full); each such class is an exact finding. Near-duplicates are
// judged by wording, not topic (wording.go, shingle.go): an entry's words
// are its runs of letters, digits and marks after NFKC and full case
// folding, and two entries resemble by the mean Jaccard resemblance of
// their sets of word pairs and word triples (Broder), leaving out the
// pairs and triples common in the memory (held by CommonShare of a
// sample). Candidates are the pairs sharing sampled triples (hash 0 mod
// SampleEvery, and each entry's BottomKeys smallest) held by at most
// MaxKeyDF entries, counted per entry in time linear in the memory's
// words; those whose sampled triples resemble enough are scored exactly
// and kept at Options.MinSimilarity, sharing MinSharedTriples uncommon
// triples. An exact class takes part through its first entry, so an exact
// pair is never called near. Near groups are complete-link (nearGroups):
// every two entries of a group are near. Pairs the user marked as not
// duplicates (NotDuplicates, a file beside the memory) are never listed.
// The threshold given is searched as asked, on any memory.
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
// crmem adds five rules of its own (crmem-rules.toml, same format): a
// Stripe key ended by punctuation, a password in a URL
// (scheme://user:password@host), a password in prose ("password: …", "the
// password is …", "DB_PASSWORD=…"), a Google key ended by "&", an AWS
// secret key in prose. It allows keys that say they are examples (EXAMPLE) and
// a UUID on a line about an idempotency key, and keeps one finding per
// secret: of overlapping findings, a specific rule's over a generic one.
// Names are scanned as well as content and aliases.
//
// A secret is only ever reported redacted (Redact), and everything a
// report holds (names, reasons, shared terms, notes) is masked (Mask); the
// faces mask what else they print (MaskJSON, MaskEntry). MaskStrict, for
// --redact, lint --diff and search --why, also masks what looks like a
// credential by its shape alone (ShapeSpans).
//
// # Bounds
//
// The limits in limits.go keep time and memory in proportion to the
// memory's size whatever it holds (a huge entry, 100,000 near-identical
// ones, binary content); a limit reached is said in Report.Bounded.
package hygiene
