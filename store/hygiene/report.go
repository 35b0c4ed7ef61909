package hygiene

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// Kind is a kind of finding. Its value is the name the command line, JSON
// and --kind use.
type Kind string

// The kinds of finding, in the order a report lists them.
const (
	// Duplicate is a group of entries with the same content (after
	// normalising whitespace and case) or content so similar that they
	// compete for the same recall queries.
	Duplicate Kind = "duplicate"
	// Secret is an API key, token, private key or password in an entry's
	// content or aliases, found by a gitleaks rule.
	Secret Kind = "secret"
	// Name is a name that deceives: equal to another after Unicode
	// normalisation and case folding, made of characters confusable with
	// another name's, or holding invisible characters.
	Name Kind = "name"
	// Outsize is an entry far above the memory's median size or token
	// count, or one with empty content.
	Outsize Kind = "outsize"
	// Archive is an archive no session references (an orphan) or one older
	// than Options.OlderThan.
	Archive Kind = "archive"
)

// Kinds lists every kind in report order.
var Kinds = [...]Kind{Duplicate, Secret, Name, Outsize, Archive}

// ParseKind accepts a kind's name or its plural ("duplicates").
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if s == string(k) || s == string(k)+"s" {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown finding kind %q (want duplicate, secret, name, outsize or archive)", s)
}

// Ref names an entry a finding is about.
// A name holding a secret is given masked (Mask): act on the id.
type Ref struct {
	ID   uint64 `json:"id"`
	Name string `json:"name"`
}

// refOf is e's Ref.
func refOf(e *store.Entry) Ref { return Ref{ID: e.ID, Name: e.Name} }

// Finding is one problem: its kind, the entries it is about, a one-line
// reason for a person, and the detail of its kind (exactly one of the
// pointers is set, the one named like Kind).
type Finding struct {
	Kind Kind `json:"kind"`
	// Check says which check of the kind found it: "exact" or "near"
	// (duplicate); the gitleaks rule id (secret); "folded", "confusable" or
	// "invisible" (name); "size", "tokens" or "empty" (outsize); "orphan"
	// or "old" (archive).
	Check string `json:"check"`
	// Entries are the entries concerned, ascending by id.
	Entries []Ref `json:"entries"`
	// Reason is one line saying what is wrong, without any secret in it:
	// names are quoted with their secrets masked (Mask), not otherwise
	// changed, so sanitize before printing.
	Reason string `json:"reason"`

	Duplicate *DuplicateDetail `json:"duplicate,omitempty"`
	Secret    *SecretDetail    `json:"secret,omitempty"`
	Name      *NameDetail      `json:"name,omitempty"`
	Outsize   *OutsizeDetail   `json:"outsize,omitempty"`
	Archive   *ArchiveDetail   `json:"archive,omitempty"`
}

// IDs returns the ids of the finding's entries.
func (f *Finding) IDs() []uint64 {
	ids := make([]uint64, len(f.Entries))
	for i, r := range f.Entries {
		ids[i] = r.ID
	}
	return ids
}

// Key identifies the finding across runs over a changing memory (its
// kind, check and entry ids; a secret's field and offset too), so a view
// can keep its place when the report is computed again.
func (f *Finding) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s", f.Kind, f.Check)
	for _, r := range f.Entries {
		fmt.Fprintf(&b, "/%d", r.ID)
	}
	if f.Secret != nil {
		fmt.Fprintf(&b, "/%s@%d", f.Secret.Field, f.Secret.Start)
	}
	return b.String()
}

// DuplicateDetail describes a group of duplicates.
type DuplicateDetail struct {
	// Exact is true when every entry has the same content after
	// normalising whitespace and case.
	Exact bool `json:"exact"`
	// Similarity is the highest tf-idf cosine among the group's pairs (1
	// for an exact group).
	Similarity float64 `json:"similarity"`
	// Pairs are the pairs found at or above the threshold that joined the
	// group, highest similarity first (empty for an exact group).
	Pairs []Pair `json:"pairs,omitempty"`
	// Shared are the rarest terms every entry of the group holds, rarest
	// first (at most MaxSharedTerms): why they compete for a recall.
	Shared []string `json:"shared_terms,omitempty"`
}

// Pair is two near-duplicate entries and their tf-idf cosine similarity.
type Pair struct {
	A          uint64  `json:"a"`
	B          uint64  `json:"b"`
	Similarity float64 `json:"similarity"`
}

// SecretDetail says where a secret is and what it looks like, redacted.
type SecretDetail struct {
	// Rule is the gitleaks rule id that matched; Description its text.
	Rule        string `json:"rule"`
	Description string `json:"description"`
	// Redacted is the secret with all but a few characters at each end
	// replaced (ghp_…x9Q2); the secret itself is never kept.
	Redacted string `json:"redacted"`
	// Field is "content", "alias" or "name"; Line is the 1-based line in
	// the content, or the 1-based alias number (1 for the name).
	Field string `json:"field"`
	Line  int    `json:"line"`
	// Start and End are the secret's byte offsets in the content or the
	// alias, for an editor to select it (they reveal nothing of it).
	Start int `json:"start"`
	End   int `json:"end"`
}

// NameDetail explains a deceptive name.
type NameDetail struct {
	// Key is what the names have in common: their folded or skeleton
	// form (folded, confusable checks).
	Key string `json:"key,omitempty"`
	// Invisible lists the invisible characters as U+XXXX (invisible check).
	Invisible []string `json:"invisible,omitempty"`
}

// OutsizeDetail gives an outsize entry's size against the memory's median.
type OutsizeDetail struct {
	Bytes        int     `json:"bytes"`
	Tokens       int     `json:"tokens"`
	MedianBytes  int     `json:"median_bytes"`
	MedianTokens int     `json:"median_tokens"`
	Times        float64 `json:"times_median"` // the larger of the two ratios
}

// ArchiveDetail says why an archive is listed.
type ArchiveDetail struct {
	Orphan    bool   `json:"orphan"`
	CreatedAt uint64 `json:"created_at"`
}

// Report is the result of Run.
type Report struct {
	// Entries is how many entries were examined.
	Entries int `json:"entries"`
	// Findings are grouped by kind in Kinds order; within a kind, the
	// most serious first (duplicates by similarity, outsize by ratio,
	// others by the first entry's id).
	Findings []Finding `json:"findings"`
	// Bounded lists the limits that cut work short on this memory (see
	// Limits), in words; empty when everything was examined in full.
	Bounded []string `json:"bounded,omitempty"`
	// Took is how long each kind's checks took.
	Took map[Kind]time.Duration `json:"-"`
}

// Count returns how many findings are of kind k.
func (r *Report) Count(k Kind) int {
	n := 0
	for i := range r.Findings {
		if r.Findings[i].Kind == k {
			n++
		}
	}
	return n
}

// Options choose what Run looks for.
type Options struct {
	// Kinds are the kinds to look for; empty means all.
	Kinds []Kind
	// MinSimilarity is the resemblance of wording (resemblance: the mean
	// Jaccard resemblance of two entries' word pairs and word triples) at
	// or above which two entries are near-duplicates; 0 means
	// DefaultMinSimilarity. It is searched as asked, on any memory.
	MinSimilarity float64
	// Index is the memory's bm25 index over the same entries, if built
	// (store.Memory.Index): the outsize check reads the entries' lengths
	// from it; nil counts them.
	Index *bm25.Index
	// NotDuplicates are the pairs of names the user said are not
	// duplicates: they never join a group.
	NotDuplicates *NotDuplicates
	// Refs are the sessions' references to archives; nil means the
	// sessions are unknown and no archive is called an orphan.
	Refs *sessions.Refs
	// OlderThan lists archives created more than this long before Now; 0
	// lists none for age.
	OlderThan time.Duration
	// Now is the time ages are measured from; the zero time means
	// time.Now().
	Now time.Time
	// OutsizeTimes is how many times the median size or token count an
	// entry must reach to be outsize; 0 means DefaultOutsizeTimes.
	OutsizeTimes float64
}

// DefaultMinSimilarity is the near-duplicate threshold on resemblance of
// wording, chosen by measurement on a memory of 2,500 notes on six topics
// with edited copies planted (TestNearDuplicates_Topical): every copy with
// a sentence replaced, paragraphs moved or 10 % of its words changed and
// about three quarters of those with 30 % changed reach it, while the most
// alike of two unrelated notes on one topic score about 0.11; precision
// 1.00.
const DefaultMinSimilarity = 0.18

// DefaultOutsizeTimes is how many times the median an outsize entry is.
const DefaultOutsizeTimes = 20

// wants reports whether opts ask for kind k.
func (o *Options) wants(k Kind) bool { return len(o.Kinds) == 0 || slices.Contains(o.Kinds, k) }

// now is Options.Now or the clock.
func (o *Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}

// Run examines entries (a memory's, as store.Memory.Entries returns them)
// and reports what needs cleaning. It never fails: on bad input (binary
// content, invalid UTF-8, huge entries, many near-identical entries) it
// works within the bounds in Limits and says in Report.Bounded when one
// was reached.
func Run(entries []store.Entry, opts Options) Report {
	r := Report{Entries: len(entries), Findings: []Finding{}, Took: map[Kind]time.Duration{}}
	checks := []struct {
		kind Kind
		run  func([]store.Entry, *Options, *Report)
	}{
		{Duplicate, findDuplicates},
		{Secret, findSecrets},
		{Name, findNames},
		{Outsize, findOutsize},
		{Archive, findArchives},
	}
	for _, c := range checks {
		if opts.wants(c.kind) {
			start := time.Now()
			c.run(entries, &opts, &r)
			r.Took[c.kind] = time.Since(start)
		}
	}
	r.maskReport()
	return r
}

// bound records that a limit was reached, once per text.
func (r *Report) bound(text string) {
	if !slices.Contains(r.Bounded, text) {
		r.Bounded = append(r.Bounded, text)
	}
}

// sortedRefs returns the entries' refs ascending by id.
func sortedRefs(es ...*store.Entry) []Ref {
	refs := make([]Ref, len(es))
	for i, e := range es {
		refs[i] = refOf(e)
	}
	slices.SortFunc(refs, func(a, b Ref) int { return cmpID(a.ID, b.ID) })
	return refs
}

func cmpID(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
