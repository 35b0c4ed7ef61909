package hygiene

import (
	"fmt"
	"strings"
	"unicode"
)

// LookAlike is a letter of a name that only looks Latin: a Cyrillic е
// (U+0435) in "dеploy-steps".
type LookAlike struct {
	Rune   rune   // the letter as the name holds it
	Latin  rune   // the Latin letter it looks like
	Script string // its script, upper-case: CYRILLIC, GREEK, ARMENIAN
}

// String names the letter, its code point and its script: "е U+0435
// CYRILLIC".
func (l LookAlike) String() string {
	return fmt.Sprintf("%c U+%04X %s", l.Rune, l.Rune, l.Script)
}

// MixedScript lists the letters of a name that mixes Latin letters with
// letters that only look Latin (the confusable table lint's confusable
// check reads, case-folded); nil for a name in one script. The screen and
// `crmem ls` mark such a name where they show it, so "dеploy-steps" never
// reads as "deploy-steps".
func MixedScript(name string) []LookAlike {
	if isASCII(name) || !hasLatin(name) {
		return nil
	}
	var out []LookAlike
	for _, r := range name {
		if l, ok := confusables[unicode.ToLower(r)]; ok {
			out = append(out, LookAlike{Rune: r, Latin: l, Script: scriptOf(r)})
		}
	}
	return out
}

// DescribeMixed is the look-alike letters of a name, each once, as
// LookAlike.String writes them, joined with ", "; "" for none.
func DescribeMixed(ls []LookAlike) string {
	var parts []string
	seen := map[rune]bool{}
	for _, l := range ls {
		if !seen[l.Rune] {
			seen[l.Rune] = true
			parts = append(parts, l.String())
		}
	}
	return strings.Join(parts, ", ")
}

// scriptOf is the upper-case name of the script of a confusable letter.
func scriptOf(r rune) string {
	for _, s := range []struct {
		name string
		t    *unicode.RangeTable
	}{{"CYRILLIC", unicode.Cyrillic}, {"GREEK", unicode.Greek}, {"ARMENIAN", unicode.Armenian}} {
		if unicode.Is(s.t, r) {
			return s.name
		}
	}
	return "NON-LATIN"
}
