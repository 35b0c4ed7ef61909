package tui

import (
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// Names that mix Latin letters with letters that only look Latin
// ("dеploy-steps" with a Cyrillic е) read as the name they imitate; only
// L (lint) flagged them. The list marks such a row with mixedMark after
// the name; the card, the questions and the prompts say which letter
// (issue 42 item 4), as hygiene.MixedScript finds them.

// mixedMark follows a mixed-script name in the list (part.MixedMark, as
// in the findings).
const mixedMark = part.MixedMark

// mixedNote says which letters of a mixed-script name only look Latin
// ("mixes scripts: е U+0435 CYRILLIC"); "" for any other name.
func mixedNote(name string) string { return part.MixedNote(name) }

// mixedWarning is a question's warning about the mixed-script names among
// es (the first n, those it names): " ⚠ dеploy-steps mixes scripts: е
// U+0435 CYRILLIC", or "".
func mixedWarning(es []store.Entry, n int) string {
	out := ""
	for _, e := range es[:min(n, len(es))] {
		if note := mixedNote(e.Name); note != "" {
			out += " ⚠ " + sanitize.Name(e.Name) + " " + note
		}
	}
	return out
}

// mixedParen is " (mixes scripts: е U+0435 CYRILLIC)" for a prompt's
// title about a mixed-script name, else "".
func mixedParen(name string) string {
	if note := mixedNote(name); note != "" {
		return " (" + note + ")"
	}
	return ""
}
