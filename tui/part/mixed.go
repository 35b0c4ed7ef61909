package part

import "github.com/crmem/crmem/store/hygiene"

// MixedMark follows a name that mixes Latin letters with letters that
// only look Latin ("dеploy-steps" with a Cyrillic е) wherever the screen
// lists names (the list, the findings), so that two names never read
// alike; the card, the questions and the prompts say which letter.
const MixedMark = " !"

// IsMixed reports whether name mixes scripts (hygiene.MixedScript).
func IsMixed(name string) bool { return len(hygiene.MixedScript(name)) > 0 }

// MixedNote says which letters of a mixed-script name only look Latin
// ("mixes scripts: е U+0435 CYRILLIC"); "" for any other name.
func MixedNote(name string) string {
	if ls := hygiene.MixedScript(name); len(ls) > 0 {
		return "mixes scripts: " + hygiene.DescribeMixed(ls)
	}
	return ""
}
