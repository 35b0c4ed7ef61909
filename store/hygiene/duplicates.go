package hygiene

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// findDuplicates reports groups of entries with the same content once
// normalised (exact: exactClasses) and groups of entries whose wording
// resembles at or above the threshold (near: resemblance of their word
// pairs and triples). Near pairs are proposed by the sampled word triples
// they share (nearCandidates: linear in the memory's words, no search over
// all pairs) and each is scored exactly. Near groups are complete-link:
// every two entries of a group are near each other (nearGroups), never
// joined through a chain. A pair the user said is not a duplicate is never
// listed.
func findDuplicates(entries []store.Entry, o *Options, r *Report) {
	threshold := o.MinSimilarity
	if threshold <= 0 {
		threshold = DefaultMinSimilarity
	}
	g := newGrouping(entries, o.NotDuplicates)
	g.joinExact()
	w := newWording(entries, g.repeated())
	g.df = w.wordDF
	if w.left > 0 {
		r.bound(fmt.Sprintf("near-duplicates: the first %s entries compared, %s left out", humanize.Count(MaxNearDocs), humanize.Count(w.left)))
	}
	w.nearPairs(threshold, r, func(a, b int32, sim float64) { g.joinNear(w.entry[a], w.entry[b], sim) })
	if g.dropped > 0 {
		r.bound(fmt.Sprintf("near-duplicates: %s pairs reached the threshold; the first %s are listed",
			humanize.Count(len(g.pairs)+g.dropped), humanize.Count(MaxNearPairs)))
	}
	r.Findings = append(r.Findings, g.findings()...)
}

// grouping joins entries into duplicate groups.
type grouping struct {
	entries []store.Entry
	ignore  *NotDuplicates
	class   []int32 // exact class of each entry, -1 if none
	parent  []int32 // union-find over entries: exact classes
	// df is how many of a sample of the entries hold a word
	// (wording.wordDF), to list the rarest words a group shares first.
	df      func(word string) int
	pairs   []entryPair        // near pairs joined (MaxNearPairs at most)
	dropped int                // near pairs joined beyond MaxNearPairs
	secrets map[int32][]string // entry index → its secrets, lower case (secretsOf)
	mask    *masker
}

// entryPair is a near pair as entry indexes.
type entryPair struct {
	a, b int32
	sim  float64
}

// newGrouping prepares the union-find over entries and their exact
// classes.
func newGrouping(entries []store.Entry, ignore *NotDuplicates) *grouping {
	g := &grouping{entries: entries, ignore: ignore, parent: make([]int32, len(entries)),
		df: func(string) int { return 0 }}
	for i := range entries {
		g.parent[i] = int32(i)
	}
	g.class = exactClasses(entries)
	return g
}

func find(parent []int32, i int32) int32 {
	for parent[i] != i {
		parent[i] = parent[parent[i]]
		i = parent[i]
	}
	return i
}

func union(parent []int32, a, b int32) {
	ra, rb := find(parent, a), find(parent, b)
	if ra != rb {
		parent[max(ra, rb)] = min(ra, rb)
	}
}

// repeated marks the entries that repeat an earlier one of their exact
// class: the near-duplicate search leaves them out (their class's first
// entry stands for them), so 5,000 copies of one text cost one.
func (g *grouping) repeated() []bool {
	out := make([]bool, len(g.entries))
	seen := map[int32]bool{}
	for i, c := range g.class {
		if c < 0 {
			continue
		}
		out[i] = seen[c]
		seen[c] = true
	}
	return out
}

// ignored reports whether the user said a and b are not duplicates. With
// nothing remembered (most memories) it reads neither entry: it runs for
// every pair at the threshold, millions on a memory of few words, and each
// read of an entry's name is a cache miss.
func (g *grouping) ignored(a, b int32) bool {
	if g.ignore == nil || len(g.ignore.pairs) == 0 {
		return false
	}
	return g.ignore.Has(g.entries[a].Name, g.entries[b].Name)
}

// joinExact joins each exact class, its members to its first one.
func (g *grouping) joinExact() {
	first := map[int32]int32{}
	for i, c := range g.class {
		if c < 0 {
			continue
		}
		f, ok := first[c]
		if !ok {
			first[c] = int32(i)
		} else if !g.ignored(f, int32(i)) {
			union(g.parent, f, int32(i))
		}
	}
}

// joinNear keeps a near pair of entries unless ignored or already one
// exact class.
func (g *grouping) joinNear(a, b int32, sim float64) {
	if g.ignored(a, b) || (g.class[a] >= 0 && g.class[a] == g.class[b]) {
		return
	}
	if len(g.pairs) >= MaxNearPairs {
		g.dropped++ // not listed: a memory of one text copied with edits has millions
		return
	}
	g.pairs = append(g.pairs, entryPair{min(a, b), max(a, b), sim})
}

// findings turns the groups into findings, most similar first: each exact
// class (as the user's not-duplicates split it) is an exact finding, and
// each near group (nearGroups) a near one (an exact class takes part
// through its first entry, so an exact pair is never called near).
func (g *grouping) findings() []Finding {
	members := map[int32][]int32{}
	for i := range g.entries {
		if g.class[i] < 0 {
			continue // in no exact class: joined to no other entry
		}
		root := find(g.parent, int32(i))
		members[root] = append(members[root], int32(i))
	}
	var out []Finding
	for _, ms := range members {
		if len(ms) > 1 {
			out = append(out, g.finding(ms, nil))
		}
	}
	for _, grp := range nearGroups(g.pairs) {
		out = append(out, g.finding(grp.members, grp.top))
	}
	slices.SortFunc(out, compareGroups)
	return out
}

// nearGroup is a group of entries every two of which are a near pair,
// and its most similar pairs (addTop).
type nearGroup struct {
	members []int32
	top     []entryPair
}

// nearGroups joins near pairs into groups by complete link: the pairs are
// taken most similar first, and a pair joins its two entries' groups only
// when every entry of the one is near every entry of the other, so no
// group holds two entries that are not near each other (a chain of
// pairs, each a little edited from the last, is not one group). A pair
// whose entries stay in different groups is a group of its own two, so
// every near pair is listed: an entry can be in more than one group. A
// group stops growing at MaxGroupEntries.
func nearGroups(pairs []entryPair) []nearGroup {
	sorted := slices.Clone(pairs)
	slices.SortFunc(sorted, func(x, y entryPair) int {
		if c := cmp.Compare(y.sim, x.sim); c != 0 {
			return c
		}
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	})
	near := make(map[uint64]bool, len(sorted))
	key := func(a, b int32) uint64 { return uint64(min(a, b))<<32 | uint64(max(a, b)) }
	for _, p := range sorted {
		near[key(p.a, p.b)] = true
	}
	groupOf := map[int32]int{}
	var groups []nearGroup
	var alone []entryPair
	allNear := func(x, y []int32) bool {
		for _, a := range x {
			for _, b := range y {
				if !near[key(a, b)] {
					return false
				}
			}
		}
		return true
	}
	for _, p := range sorted {
		ga, oka := groupOf[p.a]
		gb, okb := groupOf[p.b]
		switch {
		case !oka && !okb:
			groupOf[p.a], groupOf[p.b] = len(groups), len(groups)
			groups = append(groups, nearGroup{members: []int32{p.a, p.b}})
		case oka && okb && ga == gb:
		case oka && !okb && len(groups[ga].members) < MaxGroupEntries && allNear(groups[ga].members, []int32{p.b}):
			groupOf[p.b] = ga
			groups[ga].members = append(groups[ga].members, p.b)
		case okb && !oka && len(groups[gb].members) < MaxGroupEntries && allNear(groups[gb].members, []int32{p.a}):
			groupOf[p.a] = gb
			groups[gb].members = append(groups[gb].members, p.a)
		case oka && okb && len(groups[ga].members)+len(groups[gb].members) <= MaxGroupEntries &&
			allNear(groups[ga].members, groups[gb].members):
			into, from := min(ga, gb), max(ga, gb)
			for _, m := range groups[from].members {
				groupOf[m] = into
			}
			groups[into].members = append(groups[into].members, groups[from].members...)
			groups[from].members = nil
		default:
			alone = append(alone, p)
		}
	}
	// Each group's pairs, most similar first, and the pairs of none.
	for _, p := range sorted {
		if ga, ok := groupOf[p.a]; ok && groupOf[p.b] == ga {
			groups[ga].top = addTop(groups[ga].top, p, MaxPairsPerGroup)
		}
	}
	out := groups[:0]
	for _, grp := range groups {
		if len(grp.members) > 0 {
			out = append(out, grp)
		}
	}
	for _, p := range alone {
		if ga, ok := groupOf[p.a]; ok && groupOf[p.b] == ga {
			continue // joined later, when the two groups merged
		}
		out = append(out, nearGroup{members: []int32{p.a, p.b}, top: []entryPair{p}})
	}
	return out
}

// compareGroups orders duplicate findings: most similar first, then by
// their entries' ids (the first, then the next…), an exact group before a
// near one with the same entries: a total order, so the report is the
// same on every run whatever order the groups were found in (an exact
// class's first entry takes part in near groups, and a reordered copy is
// near with similarity 1, so ties on the first entry happen).
func compareGroups(a, b Finding) int {
	if c := cmp.Compare(b.Duplicate.Similarity, a.Duplicate.Similarity); c != 0 {
		return c
	}
	if c := slices.CompareFunc(a.Entries, b.Entries, func(x, y Ref) int { return cmpID(x.ID, y.ID) }); c != 0 {
		return c
	}
	switch {
	case a.Duplicate.Exact == b.Duplicate.Exact:
		return 0
	case a.Duplicate.Exact:
		return -1
	}
	return 1
}

// finding describes one group: an exact one without pairs, a near one with
// its most similar pairs, most similar first (addTop).
func (g *grouping) finding(ms []int32, pairs []entryPair) Finding {
	es := make([]*store.Entry, len(ms))
	for i, m := range ms {
		es[i] = &g.entries[m]
	}
	d := &DuplicateDetail{Exact: len(pairs) == 0, Similarity: 1}
	if !d.Exact {
		d.Similarity = pairs[0].sim
		for _, p := range pairs {
			a, b := g.entries[p.a].ID, g.entries[p.b].ID
			d.Pairs = append(d.Pairs, Pair{A: min(a, b), B: max(a, b), Similarity: p.sim})
		}
	}
	d.Shared = g.shared(ms)
	f := Finding{Kind: Duplicate, Check: "near", Entries: sortedRefs(es...), Duplicate: d}
	if d.Exact {
		f.Check = "exact"
	}
	f.Reason = duplicateReason(&f)
	return f
}

// addTop adds p to top, the k most similar pairs so far (most similar
// first, ties in the order added), if it is one of them.
func addTop(top []entryPair, p entryPair, k int) []entryPair {
	if len(top) == k && p.sim <= top[k-1].sim {
		return top
	}
	if top == nil {
		top = make([]entryPair, 0, k+1)
	}
	i, _ := slices.BinarySearchFunc(top, p, func(x, y entryPair) int {
		if c := cmp.Compare(y.sim, x.sim); c != 0 {
			return c
		}
		return -1 // after the equal ones: the earlier added stays first
	})
	top = slices.Insert(top, i, p)
	if len(top) > k {
		top = top[:k]
	}
	return top
}

// duplicateReason says what a duplicate group is in one line.
func duplicateReason(f *Finding) string {
	d := f.Duplicate
	n := len(f.Entries)
	what := fmt.Sprintf("%d entries", n)
	if n == 2 {
		what = fmt.Sprintf("%q and %q", f.Entries[0].Name, f.Entries[1].Name)
	}
	s := what + " have the same content (ignoring case, spacing and Unicode form)"
	if !d.Exact {
		s = fmt.Sprintf("%s are near-duplicates (wording %.2f alike)", what, d.Similarity)
	}
	if len(d.Shared) > 0 {
		s += "; they share " + strings.Join(d.Shared[:min(len(d.Shared), 4)], ", ")
	}
	return s
}

// shared returns the rarest of the recall's terms (bm25.Tokenize) every
// member's content and aliases hold, rarest first (by g.df; in the first
// member's order among equals).
func (g *grouping) shared(ms []int32) []string {
	var common []string
	for i, m := range ms {
		e := &g.entries[m]
		terms := bm25.Tokenize(e.Content)
		for _, a := range e.Aliases {
			terms = bm25.AppendTokens(terms, a)
		}
		if i == 0 {
			seen := map[string]bool{}
			for _, t := range terms {
				if !seen[t] {
					seen[t] = true
					common = append(common, t)
				}
			}
			continue
		}
		has := make(map[string]bool, len(terms))
		for _, t := range terms {
			has[t] = true
		}
		common = slices.DeleteFunc(common, func(t string) bool { return !has[t] })
		if len(common) == 0 {
			return nil
		}
	}
	df := make(map[string]int, len(common))
	for _, t := range common {
		df[t] = g.df(t)
	}
	slices.SortStableFunc(common, func(a, b string) int { return cmp.Compare(df[a], df[b]) })
	var out []string
	for _, t := range common {
		if len(out) == MaxSharedTerms {
			break
		}
		if !g.inSecret(ms, t) {
			out = append(out, t)
		}
	}
	return out
}

// inSecret reports whether term is part of a secret in one of the members'
// contents or aliases (or holds one): the rarest terms two entries share
// are often a token they both hold, and a report never prints one.
func (g *grouping) inSecret(ms []int32, term string) bool {
	for _, m := range ms {
		for _, s := range g.secretsOf(m) {
			if strings.Contains(s, term) || strings.Contains(term, s) {
				return true
			}
		}
	}
	return false
}

// secretsOf returns the secrets in entry i's content and aliases, in lower
// case, found once per entry.
func (g *grouping) secretsOf(i int32) []string {
	if g.secrets == nil {
		g.secrets = map[int32][]string{}
		g.mask = newMasker()
	}
	if s, ok := g.secrets[i]; ok {
		return s
	}
	e := &g.entries[i]
	var out []string
	for _, text := range append([]string{e.Content}, e.Aliases...) {
		for _, sp := range g.mask.spans(text) {
			out = append(out, strings.ToLower(text[sp.Start:sp.End]))
		}
	}
	g.secrets[i] = out
	return out
}
