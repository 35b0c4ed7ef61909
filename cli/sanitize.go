package cli

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crmem/crmem/internal/humanize"
	safe "github.com/crmem/crmem/internal/sanitize"
)

// Names and content come from an agent and may carry terminal control
// sequences (title changes, OSC 52 clipboard writes, OSC 8 links, cursor
// jumps, hidden text) or characters that make one name look like another
// (bidi overrides, zero-width characters). Which characters do not show as
// themselves is one policy, the TUI's (safe.Invisible). Plain-text output
// never carries them raw and never drops them silently (SPEC §6): a name or
// alias that holds one is printed Go-quoted (nameText), a message or path
// has each one escaped in place (sanitizeLine), and multi-line content
// shows each as a visible marker, ⟨U+200B⟩, as the TUI does (sanitize).
// JSON output is escaped by export.EscapeJSON.

// sanitize makes multi-line content terminal-safe for plain-text output:
// invisible characters shown as ⟨U+200B⟩, an escape sequence made inert
// and shown (⟨U+001B⟩[31m) rather than dropped silently, newlines and tabs
// kept (safe.Text).
func sanitize(s string) string { return safe.Text(s) }

// sanitizeLine makes a one-line message or path terminal-safe: newlines
// and tabs become spaces, every other invisible character or invalid byte
// is shown escaped (\x1b, \u202e) in place.
func sanitizeLine(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case safe.Invisible(s, i):
			b.WriteString(strings.Trim(strconv.QuoteRuneToASCII(r), "'"))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// nameText shows a name or alias: as it is when it reads as what it is
// (safe.Plain: the TUI's one rule, so a name with a space at either end,
// a space other than U+0020, an empty name and one with an invisible
// character are all quoted), else Go-quoted ("ok\u202eexe.txt", "same ",
// "same\u00a0", ""), so two names never look the same.
func nameText(s string) string {
	if safe.Plain(s) && !(strings.HasPrefix(s, `"`) && strings.Contains(s, `\`)) {
		return s
	}
	return quoteName(s)
}

// quoteName quotes s Go-style, keeping printable non-ASCII text readable.
func quoteName(s string) string {
	return strconv.Quote(s) // escapes controls, Cf and invalid bytes; keeps printable runes
}

// quotePath shows a path in a message: as it is, or quoted when it holds
// anything that would not read as itself.
func quotePath(p string) string { return nameText(p) }

// needsEscape reports whether s holds a character sanitizeLine or nameText
// must change: an invalid byte or an invisible character (safe.Invisible:
// controls, newline and tab included, and format characters).
func needsEscape(s string) bool {
	if printableASCII(s) { // most names: nothing in 0x20–0x7e is invisible
		return false
	}
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		if safe.Invisible(s, i) {
			return true
		}
		i += n
	}
	return false
}

// maxReportName is the most display cells a report line gives one name:
// the longest name crmem creates (SPEC §2), so every such name shows whole.
const maxReportName = 255

// maxReportLine is the most display cells of one line of a report that
// quotes names (an anomaly's detail).
const maxReportLine = 1024

// reportName shows a name in a report line as nameText does, cut at
// maxReportName cells with "…" and the name's size when longer: a marker
// in a session or a name in a file may be any length, and a 200 MB name
// would be a 200 MB line.
func reportName(s string) string { return capName(s, nameText) }

// reportQuoted is reportName always quoted (quoteName), for a report that
// quotes the names it lists.
func reportQuoted(s string) string { return capName(s, quoteName) }

// capName shows s with show, cut as reportName says.
func capName(s string, show func(string) string) string {
	if len(s) <= maxReportName {
		return show(s)
	}
	return truncate(show(cutBytes(s, 4*maxReportName)), maxReportName) + fmt.Sprintf(" (%s bytes)", humanize.Count(len(s)))
}

// reportLine is a one-line message of a report (sanitizeLine), cut at
// maxReportLine cells.
func reportLine(s string) string {
	if len(s) <= maxReportLine {
		return sanitizeLine(s)
	}
	return truncate(sanitizeLine(cutBytes(s, 4*maxReportLine)), maxReportLine)
}

// cutBytes is s's first n bytes at most, not splitting a character.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
