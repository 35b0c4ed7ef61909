// Package sanitize makes text from a memory file safe to show in a terminal.
//
// Entries are written by an AI agent and may hold terminal control sequences:
// window-title changes (OSC 0/2), hyperlinks (OSC 8), clipboard writes
// (OSC 52), device control strings, cursor movement, or a bare carriage
// return that hides what came before it. Every name, alias and content passes
// through this package before it is displayed or parsed as markdown, and the
// markdown renderer's output passes through [Output], which keeps only colour
// and text attributes (SGR).
package sanitize

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s without escape sequences or control characters, with
// newlines and tabs turned into spaces: a one-line label such as a name.
func Line(s string) string {
	if clean(s, false) {
		return s
	}
	return strip(s, false, func(r rune) string {
		if r == '\n' || r == '\t' {
			return " "
		}
		return ""
	})
}

// Text returns s without escape sequences or control characters, keeping
// newlines and tabs.
func Text(s string) string {
	if clean(s, true) {
		return s
	}
	return strip(s, false, keepLayout)
}

// Markdown returns s ready for the markdown renderer: [Text], then numeric
// character references that would decode to control characters (glamour
// turns "&#27;" into a real ESC) are escaped so they show as written.
func Markdown(s string) string {
	return ncr.ReplaceAllStringFunc(Text(s), func(ref string) string {
		if !controlRef(ref) {
			return ref
		}
		return "&amp;" + ref[1:]
	})
}

// Output filters rendered output: SGR sequences (colour, bold, …) and
// newlines are kept, every other escape sequence and control character is
// dropped and tabs become spaces.
func Output(s string) string {
	if clean(s, true) && !strings.Contains(s, "\t") {
		return s
	}
	return strip(s, true, func(r rune) string {
		switch r {
		case '\n':
			return "\n"
		case '\t':
			return "    "
		}
		return ""
	})
}

func keepLayout(r rune) string {
	if r == '\n' || r == '\t' {
		return string(r)
	}
	return ""
}

// ncr matches decimal and hexadecimal numeric character references.
var ncr = regexp.MustCompile(`&#(?:[xX][0-9a-fA-F]{1,8}|[0-9]{1,10});?`)

// controlRef reports whether a numeric character reference names a control
// character or a bidirectional override.
func controlRef(ref string) bool {
	body := strings.TrimSuffix(ref[2:], ";")
	base := 10
	if body != "" && (body[0] == 'x' || body[0] == 'X') {
		body, base = body[1:], 16
	}
	v, err := strconv.ParseUint(body, base, 32)
	if err != nil {
		return true // out of range: decoders substitute, but be safe
	}
	r := rune(v)
	return r != '\n' && r != '\t' && unsafeRune(r)
}

// unsafeRune reports whether r is a C0 or C1 control, DEL, or a Unicode
// bidirectional control that can reorder or hide text.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// clean reports whether s needs no filtering (fast path). keepNL allows
// newlines and tabs.
func clean(s string, keepNL bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 {
			if keepNL && (c == '\n' || c == '\t') {
				continue
			}
			return false
		}
		if c == 0x7f || c >= 0x80 {
			return cleanRunes(s[i:], keepNL)
		}
	}
	return true
}

func cleanRunes(s string, keepNL bool) bool {
	for _, r := range s {
		layout := r == '\n' || r == '\t'
		if r == utf8.RuneError || (unsafeRune(r) && !(keepNL && layout)) {
			return false
		}
	}
	return true
}

// Dropped is what Name shows in place of what it removed.
const Dropped = "\uFFFD"

// Name is Line for a name or an alias: what it removes (an escape
// sequence, a control or format character such as a zero-width space or a
// bidi override, an invalid byte) leaves the visible marker Dropped, so a
// name that lost characters never looks like a clean one.
func Name(s string) string {
	if clean(s, false) && !hasFormat(s) {
		return s
	}
	return stripMarked(s, false, func(r rune) string { return Dropped }, Dropped)
}

// hasFormat reports whether s holds a Unicode format character (Cf).
func hasFormat(s string) bool {
	for _, r := range s {
		if r >= 0x80 && unicode.Is(unicode.Cf, r) {
			return true
		}
	}
	return false
}

// strip walks s, drops escape sequences (keeping SGR when keepSGR) and maps
// remaining control characters through ctl.
func strip(s string, keepSGR bool, ctl func(rune) string) string {
	return stripMarked(s, keepSGR, ctl, "")
}

// stripMarked is strip writing mark where it drops something, and taking
// Unicode format characters as controls when mark is set.
func stripMarked(s string, keepSGR bool, ctl func(rune) string, mark string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w <= 1:
			b.WriteString(mark)
			i += w // invalid byte: drop
		case r == 0x1b:
			n, keep := escape(s[i:], keepSGR)
			if keep {
				b.WriteString(s[i : i+n])
			} else {
				b.WriteString(mark)
			}
			i += n
		case r >= 0x80 && r <= 0x9f:
			b.WriteString(mark)
			i += w + c1(s[i+w:], r)
		case unsafeRune(r), mark != "" && r >= 0x80 && unicode.Is(unicode.Cf, r):
			b.WriteString(ctl(r))
			i += w
		default:
			b.WriteString(s[i : i+w])
			i += w
		}
	}
	return b.String()
}

// escape measures the escape sequence at the start of s (s[0] is ESC) and
// reports whether it is an SGR sequence to keep.
func escape(s string, keepSGR bool) (int, bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[':
		n, sgr := csi(s[2:])
		return 2 + n, keepSGR && sgr
	case ']', 'P', '_', '^', 'X':
		return 2 + stringSeq(s[2:]), false
	}
	// nF / Fp / Fe / Fs escapes: intermediates then one final byte.
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i, false
}

// csi measures a control sequence's parameters, intermediates and final byte
// and reports whether it is SGR (digits, ';' and ':' ending in 'm').
func csi(s string) (int, bool) {
	sgr := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x40 && c <= 0x7e:
			return i + 1, sgr && c == 'm'
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c >= 0x20 && c <= 0x3f:
			sgr = false
		default:
			return i, false // malformed: stop before the stray byte
		}
	}
	return len(s), false
}

// stringSeq measures the body of an OSC/DCS/APC/PM/SOS string up to and
// including its terminator (BEL, ESC \ or the C1 ST). An unterminated string
// runs to the end of s, as it would in a terminal.
func stringSeq(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0x1b:
			return i // a new escape ends the string; measured on its own
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}

// c1 measures what follows a C1 control r that introduces a sequence.
func c1(s string, r rune) int {
	switch r {
	case 0x9b: // CSI
		n, _ := csi(s)
		return n
	case 0x9d, 0x90, 0x9f, 0x9e, 0x98: // OSC, DCS, APC, PM, SOS
		return stringSeq(s)
	}
	return 0
}
