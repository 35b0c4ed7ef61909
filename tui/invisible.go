package tui

import (
	"regexp"
	"strings"
	"sync"
)

// markerRE matches the markers sanitize shows in place of an invisible
// character (⟨U+200B⟩), an invalid byte (⟨0xFF⟩) or an empty name.
var markerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`⟨(?:U\+[0-9A-F]{4,6}|0x[0-9A-F]{2}|empty)⟩`) })

// dimMarkers shows the markers of invisible characters dim (SGR 2 … 22),
// so they read as annotations rather than text; the plain style (notty,
// NO_COLOR) stays plain.
func dimMarkers(s, style string) string {
	if style == "notty" || !strings.Contains(s, "⟨") {
		return s
	}
	return markerRE().ReplaceAllString(s, "\x1b[2m$0\x1b[22m")
}
