package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	safe "github.com/crmem/crmem/tui/sanitize"
)

// Names and content come from an agent and may carry terminal control
// sequences (title changes, OSC 52 clipboard writes, OSC 8 links, cursor
// jumps, hidden text) or characters that make one name look like another
// (bidi overrides, zero-width characters). Plain-text output never carries
// them raw and never drops them silently (SPEC §6): a name or alias that
// holds one is printed Go-quoted (nameText), a message or path has each one
// escaped in place (sanitizeLine), and multi-line content goes through the
// TUI's filter (sanitize). JSON output is escaped by export.EscapeJSON.

// sanitize drops escape sequences and control characters from multi-line
// content, keeping newlines and tabs.
func sanitize(s string) string { return safe.Text(s) }

// sanitizeLine makes a one-line message or path terminal-safe: newlines
// and tabs become spaces, every other control, format or invalid character
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
		case unsafeRune(r):
			b.WriteString(strings.Trim(strconv.QuoteRuneToASCII(r), "'"))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// nameText shows a name or alias: as it is when it reads as what it is,
// else Go-quoted ("ok\u202eexe.txt"), so two names never look the same.
func nameText(s string) string {
	if !needsEscape(s) && !(strings.HasPrefix(s, `"`) && strings.Contains(s, `\`)) {
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
// must change: an invalid byte, a control (newline and tab included) or
// format character.
func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune reports whether r must not reach a terminal raw: C0 and C1
// controls, DEL, format characters (Cf) and line/paragraph separators.
func unsafeRune(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}
