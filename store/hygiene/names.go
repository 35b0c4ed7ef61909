package hygiene

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
)

// findNames reports names that deceive: names that differ but are equal
// after NFKC normalisation and case folding ("folded"), names that are
// equal once confusable letters are replaced by the Latin ones they look
// like, or that mix a Latin letter with such a look-alike ("confusable"),
// and names holding invisible characters ("invisible", as
// internal/sanitize decides what is invisible).
func findNames(entries []store.Entry, _ *Options, r *Report) {
	// folded holds the folded names two entries or more share, with their
	// entries; first, each folded name's first entry (most names are
	// unique: a slice for each was a third of the check).
	folded := map[string][]*store.Entry{}
	first := make(map[string]int32, len(entries))
	// A skeleton group can deceive only if a folded name in it is not
	// ASCII (an ASCII name is its own skeleton, so a group of them is one
	// folded name): the skeletons of such names are found first, and an
	// ASCII folded name joins the group of its skeleton only if it is one
	// of those, saving a second map of every name.
	//
	// Most names are plain (plainName): their folded form is their lower
	// case, their own skeleton, and they hold nothing invisible, which is
	// learnt in one look at each name.
	fs := make([]string, len(entries))
	plain := make([]bool, len(entries))
	wanted := map[string]bool{}
	for i := range entries {
		if plain[i] = plainName(entries[i].Name); plain[i] {
			fs[i] = strings.ToLower(entries[i].Name)
			continue
		}
		fs[i] = fold(entries[i].Name)
		if !isASCII(fs[i]) {
			wanted[skeleton(fs[i])] = true
		}
	}
	skeletons := map[string][]*store.Entry{}
	for i := range entries {
		e, f := &entries[i], fs[i]
		if j, ok := first[f]; !ok {
			first[f] = int32(i)
		} else {
			if folded[f] == nil {
				folded[f] = []*store.Entry{&entries[j]}
			}
			folded[f] = append(folded[f], e)
		}
		sk := f
		if !plain[i] {
			sk = skeleton(f)
		}
		if wanted[sk] {
			skeletons[sk] = append(skeletons[sk], e)
		}
	}
	for i := range entries {
		e := &entries[i]
		if plain[i] {
			continue
		}
		if inv := invisibles(e.Name); len(inv) > 0 {
			reason := fmt.Sprintf("%q holds invisible characters (%s)", e.Name, strings.Join(inv, " "))
			if twin := twinOf(e, folded[fold(e.Name)]); twin != nil {
				reason += fmt.Sprintf("; it reads as %q, another entry's name", twin.Name)
			}
			r.Findings = append(r.Findings, Finding{Kind: Name, Check: "invisible", Entries: sortedRefs(e),
				Reason: reason, Name: &NameDetail{Invisible: inv}})
		}
	}
	r.Findings = append(r.Findings, collisions(folded, "folded", "are the same name but for case, spaces at either end, invisible characters or Unicode form")...)
	r.Findings = append(r.Findings, collisions(skeletons, "confusable", "look alike: they differ only in look-alike letters")...)
	r.Findings = append(r.Findings, mixedScripts(entries, plain, skeletons)...)
	sortByFirstID(r.Findings, Name)
}

// collisions reports each key shared by entries with different names
// (entries with the same name are a duplicate-id or name matter for
// `crmem check`, not a deception). A confusable group is reported only
// where the folded names differ: a folded group says it already.
func collisions(groups map[string][]*store.Entry, check, says string) []Finding {
	var out []Finding
	for key, es := range groups {
		if distinct(es, check == "confusable") < 2 {
			continue
		}
		f := Finding{Kind: Name, Check: check, Entries: sortedRefs(es...), Name: &NameDetail{Key: key}}
		f.Reason = fmt.Sprintf("%s %s", quoteNames(f.Entries), says)
		if fake := groupLookAlikes(es); check == "confusable" && len(fake) > 0 {
			f.Reason += " (" + strings.Join(fake, ", ") + ")"
		}
		out = append(out, f)
	}
	return out
}

// twinOf is the entry among same (the entries whose names fold alike) whose
// name is e's without its invisible characters, or else any other name
// that folds alike; nil when there is none.
func twinOf(e *store.Entry, same []*store.Entry) *store.Entry {
	var other *store.Entry
	for _, o := range same {
		if o.Name == e.Name {
			continue
		}
		if invisibles(o.Name) == nil {
			return o
		}
		if other == nil {
			other = o
		}
	}
	return other
}

// groupLookAlikes lists the look-alike letters in the names of es, each
// once.
func groupLookAlikes(es []*store.Entry) []string {
	var out []string
	for _, e := range es {
		for _, l := range lookAlikes(e.Name) {
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return out
}

// distinct counts the different names among es; with folded set, the
// different folded names.
func distinct(es []*store.Entry, folded bool) int {
	var names []string
	for _, e := range es {
		n := e.Name
		if folded {
			n = fold(n)
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return len(names)
}

// mixedScripts reports a name that mixes Latin letters with letters that
// only look Latin (Cyrillic а in "pаyments"), unless a confusable group
// already holds it. plain marks the plain names (plainName), which mix
// nothing.
func mixedScripts(entries []store.Entry, plain []bool, skeletons map[string][]*store.Entry) []Finding {
	var out []Finding
	for i := range entries {
		e := &entries[i]
		if plain[i] || isASCII(e.Name) {
			continue
		}
		fake := lookAlikes(e.Name)
		if len(fake) == 0 || !hasLatin(e.Name) {
			continue
		}
		f := fold(e.Name)
		if distinct(skeletons[skeleton(f)], true) > 1 {
			continue
		}
		out = append(out, Finding{Kind: Name, Check: "confusable", Entries: sortedRefs(e),
			Reason: fmt.Sprintf("%q mixes Latin letters with look-alikes from another script (%s)", e.Name, strings.Join(fake, " ")),
			Name:   &NameDetail{Key: skeleton(f)}})
	}
	return out
}

// fold is a name's NFKC, case-folded form, without its invisible
// characters and the white space at either end (a name that differs from
// another only by those reads as the other); an ASCII name without
// control characters or outer spaces (NFKC leaves it as it is) is only
// lowered.
func fold(s string) string {
	if isASCII(s) && !hasControl(s) && strings.TrimSpace(s) == s {
		return strings.ToLower(s)
	}
	if invisibles(s) != nil {
		var b strings.Builder
		for i, r := range s {
			if !sanitize.Invisible(s, i) {
				b.WriteRune(r)
			}
		}
		s = b.String()
	}
	s = strings.TrimFunc(s, unicode.IsSpace)
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return cases.Fold().String(norm.NFKC.String(s))
}

// isASCII reports whether every byte of s is ASCII, reading eight bytes a
// load.
func isASCII(s string) bool {
	var or8 uint64
	for ; len(s) >= 8; s = s[8:] {
		or8 |= load8(s)
	}
	var or byte
	for i := 0; i < len(s); i++ {
		or |= s[i]
	}
	return or < utf8.RuneSelf && or8&0x8080808080808080 == 0
}

// plainName reports whether a name is printable ASCII (no control
// character, no DEL) without a space at either end: fold lowers it and
// does no more, it is its own skeleton, and nothing in it is invisible.
func plainName(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// skeleton replaces each confusable letter of s with the Latin letter it
// looks like.
func skeleton(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if l, ok := confusables[r]; ok {
			return l
		}
		return r
	}, s)
}

// lookAlikes lists the confusable letters of s as U+XXXX with the letter
// they imitate.
func lookAlikes(s string) []string {
	var out []string
	for _, r := range s {
		if l, ok := confusables[r]; ok {
			out = append(out, fmt.Sprintf("U+%04X looks like %c", r, l))
		}
	}
	return out
}

// hasControl reports whether ASCII s holds a control character or DEL.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

func hasLatin(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Latin, r) {
			return true
		}
	}
	return false
}

// invisibles lists the invisible characters of s as U+XXXX (an invalid
// byte as its hex value).
func invisibles(s string) []string {
	if isASCII(s) && !hasControl(s) {
		return nil
	}
	var out []string
	for i, r := range s {
		if !sanitize.Invisible(s, i) {
			continue
		}
		if r == unicode.ReplacementChar && !strings.HasPrefix(s[i:], "\uFFFD") {
			out = append(out, fmt.Sprintf("byte 0x%02X", s[i]))
			continue
		}
		out = append(out, fmt.Sprintf("U+%04X", r))
	}
	return out
}

// quoteNames lists the refs' names quoted: "a", "b" and "c".
func quoteNames(refs []Ref) string {
	q := make([]string, len(refs))
	for i, r := range refs {
		q[i] = fmt.Sprintf("%q", r.Name)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// sortByFirstID orders the findings of kind k (a tail of fs) by their first
// entry's id, then check.
func sortByFirstID(fs []Finding, k Kind) {
	i := len(fs)
	for i > 0 && fs[i-1].Kind == k {
		i--
	}
	slices.SortStableFunc(fs[i:], func(a, b Finding) int {
		if c := cmpID(a.Entries[0].ID, b.Entries[0].ID); c != 0 {
			return c
		}
		return strings.Compare(a.Check, b.Check)
	})
}
