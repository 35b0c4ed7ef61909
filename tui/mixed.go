package tui

import (
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
