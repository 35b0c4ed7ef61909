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
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// What this package does with each kind of character is one policy, for
// the TUI and the command line alike (the CLI's one-line messages and names
// use [Invisible] and escape Go-style instead, as SPEC §6 asks):
//
//   - Escape sequences (ESC or a C1 control introducing CSI, OSC, DCS, APC,
//     PM or SOS, with their bodies) are terminal commands: content loses
//     them; a name or one-line label shows [Dropped] in their place.
//   - An invalid UTF-8 byte shows as [Dropped].
//   - Every other character that would not show as itself ([Invisible]: a
//     lone C0 or C1 control, DEL, a format character such as a bidi
//     control, a zero-width space or joiner or a BOM, a line or paragraph
//     separator) shows as a visible marker, ⟨U+200B⟩ ([Marker]): memory is
//     inspected, not published, so "zero\u200bwidth" must not read as
//     "zerowidth". Content keeps newlines and tabs (and reads CRLF as a
//     newline); a one-line label turns them into spaces; a name marks them.
//   - Text typed or pasted into an input ([Input]) drops all of the above.
//
// Variation selectors and combining marks are not invisible: they change
// the character before them, and stay.

// Line returns s as a one-line label: newlines and tabs become spaces,
// escape sequences and invalid bytes [Dropped], other invisible characters
// a [Marker].
func Line(s string) string { return apply(s, labelPolicy) }

// Text returns multi-line content safe to show: escape sequences removed,
// invalid bytes [Dropped], newlines and tabs kept, every other invisible
// character shown as a [Marker].
func Text(s string) string { return apply(s, textPolicy) }

// Shown returns multi-line content as plain-text output prints it: [Text],
// except that an escape sequence is not removed but made inert and shown,
// its introducer a [Marker] and the rest as the text it is
// ("⟨U+001B⟩]0;title"), as JSON output shows it escaped: plain-text
// output never drops a character silently (SPEC §6).
func Shown(s string) string { return apply(s, shownPolicy) }

// Name is a name or an alias as shown: escape sequences and invalid bytes
// leave [Dropped], every invisible character (newline and tab included) a
// [Marker], so a name that holds one never looks like a clean one.
func Name(s string) string { return apply(s, namePolicy) }

// Input returns text typed or pasted into a one-line input: newlines and
// tabs become spaces, and escape sequences, invalid bytes and invisible
// characters are dropped.
func Input(s string) string { return apply(s, inputPolicy) }

// Markdown returns s ready for the markdown renderer: [Text], then numeric
// character references that would decode to invisible characters (glamour
// turns "&#27;" into a real ESC) are escaped so they show as written, and
// raw HTML is escaped so it shows as the text it is rather than vanishing
// (see escapeHTML).
func Markdown(s string) string {
	md := ncr().ReplaceAllStringFunc(Text(s), func(ref string) string {
		if !controlRef(ref) {
			return ref
		}
		return "&amp;" + ref[1:]
	})
	return escapeHTML(md)
}

// Output filters rendered output: SGR sequences (colour, bold, …) and
// newlines are kept, every other escape sequence and invisible character is
// dropped and tabs become spaces.
func Output(s string) string { return apply(s, outputPolicy) }

// Dropped is what a name or label shows in place of an escape sequence or
// an invalid byte it removed.
const Dropped = "\uFFFD"

// The marker's parts: ⟨U+, the code point in 4 to 6 upper-case hex digits,
// ⟩.
const (
	markerOpen  = "⟨U+"
	markerClose = "⟩"
)

// Marker is how an invisible character shows: ⟨U+200B⟩.
func Marker(r rune) string { return fmt.Sprintf(markerOpen+"%04X"+markerClose, r) }

// ReplaceMarkers returns s with each marker Marker writes (⟨U+200B⟩)
// replaced by what fn returns for it, so a face can style markers
// without parsing them again; text that only looks like one (⟨U+12⟩,
// lower-case digits) is left alone.
func ReplaceMarkers(s string, fn func(marker string) string) string {
	if !strings.Contains(s, markerOpen) {
		return s
	}
	var b strings.Builder
	at := 0
	for i := 0; ; {
		j := strings.Index(s[i:], markerOpen)
		if j < 0 {
			break
		}
		start := i + j
		k := start + len(markerOpen)
		digits := 0
		for digits < 6 && k+digits < len(s) && isUpperHex(s[k+digits]) {
			digits++
		}
		end := k + digits
		if digits < 4 || !strings.HasPrefix(s[end:], markerClose) {
			i = start + len(markerOpen)
			continue
		}
		end += len(markerClose)
		b.WriteString(s[at:start])
		b.WriteString(fn(s[start:end]))
		at, i = end, end
	}
	if at == 0 {
		return s
	}
	b.WriteString(s[at:])
	return b.String()
}

// isUpperHex reports whether c is a digit or A–F.
func isUpperHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' }

// policy says what apply does with each kind of character.
type policy struct {
	layout  func(r rune) string // a newline or tab
	escape  string              // an escape sequence
	markESC bool                // an escape sequence's introducer is shown as a marker, its body as text
	invalid string              // an invalid byte
	keepSGR bool                // SGR sequences are kept (rendered output)
	crlf    bool                // a CR before a newline is dropped
	shown   func(r rune) string // any other invisible character
}

var (
	textPolicy   = policy{layout: keep, invalid: Dropped, crlf: true, shown: Marker}
	shownPolicy  = policy{layout: keep, markESC: true, invalid: Dropped, crlf: true, shown: Marker}
	labelPolicy  = policy{layout: space, escape: Dropped, invalid: Dropped, shown: Marker}
	namePolicy   = policy{layout: Marker, escape: Dropped, invalid: Dropped, shown: Marker}
	inputPolicy  = policy{layout: space, shown: drop}
	outputPolicy = policy{layout: outputLayout, keepSGR: true, shown: drop}
)

func keep(r rune) string { return string(r) }
func space(rune) string  { return " " }
func drop(rune) string   { return "" }
func outputLayout(r rune) string {
	if r == '\t' {
		return "    "
	}
	return "\n"
}

// ncr matches decimal and hexadecimal numeric character references.
var ncr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`&#(?:[xX][0-9a-fA-F]{1,8}|[0-9]{1,10});?`) })

// controlRef reports whether a numeric character reference names an
// invisible character other than a newline or tab.
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
	return r != '\n' && r != '\t' && invisibleRune(r)
}

// Invisible reports whether the character starting at s[i] does not show
// as itself: see invisibleRune, except that a zero-width joiner between two
// emoji and the tag characters of an emoji flag show as part of the glyph
// they build (woman, ZWJ, laptop is one picture; so is the flag of Scotland,
// a black flag and tags): marked, the glyph would fall apart into pieces and
// markers, and nothing is hidden by them. An invalid byte is invisible.
func Invisible(s string, i int) bool {
	r, w := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && w <= 1:
		return true
	case r == zwj:
		return !emojiBefore(s[:i]) || !emojiAt(s[i+w:])
	case r >= tagFirst && r <= tagLast:
		return !inFlag(s[:i])
	}
	return invisibleRune(r)
}

// invisibleRune reports whether r, on its own, does not show as itself: C0
// and C1 controls, DEL, format characters (Cf) and line and paragraph
// separators (Zl, Zp).
func invisibleRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r < 0xad:
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

const (
	zwj      = 0x200d  // zero-width joiner
	vs16     = 0xfe0f  // emoji presentation selector
	blackFlg = 0x1f3f4 // the base of an emoji tag sequence
	tagFirst = 0xe0020 // tag characters
	tagLast  = 0xe007f // CANCEL TAG ends a tag sequence
	maxTags  = 32      // a flag's tag sequence is far shorter
)

// isEmoji reports whether r is a pictographic symbol (So: emoji, dingbats,
// regional indicators); U+FFFD, which is So too, is not one.
func isEmoji(r rune) bool { return r > 0x7f && r != utf8.RuneError && unicode.Is(unicode.So, r) }

// emojiBefore reports whether s ends in an emoji, possibly followed by its
// presentation selector or a skin-tone modifier.
func emojiBefore(s string) bool {
	for range 3 {
		r, w := utf8.DecodeLastRuneInString(s)
		switch {
		case w == 0:
			return false
		case r == vs16, r >= 0x1f3fb && r <= 0x1f3ff:
			s = s[:len(s)-w]
		default:
			return isEmoji(r)
		}
	}
	return false
}

// emojiAt reports whether s starts with an emoji.
func emojiAt(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isEmoji(r)
}

// inFlag reports whether s ends inside an emoji tag sequence: the black
// flag, then fewer than maxTags tag characters.
func inFlag(s string) bool {
	for range maxTags {
		r, w := utf8.DecodeLastRuneInString(s)
		switch {
		case r == blackFlg:
			return true
		case r >= tagFirst && r < tagLast:
			s = s[:len(s)-w]
		default:
			return false
		}
	}
	return false
}

// apply filters s by p; s comes back as it is when nothing needs changing.
func apply(s string, p policy) string {
	if clean(s, p) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w <= 1:
			b.WriteString(p.invalid)
		case p.markESC && (r == 0x1b || r >= 0x80 && r <= 0x9f):
			b.WriteString(Marker(r))
		case r == 0x1b:
			n, keep := escape(s[i:], p.keepSGR)
			if keep {
				b.WriteString(s[i : i+n])
			} else {
				b.WriteString(p.escape)
			}
			w = n
		case r >= 0x80 && r <= 0x9f && c1Introducer(r):
			b.WriteString(p.escape)
			w += c1(s[i+w:], r)
		case r == '\n' || r == '\t':
			b.WriteString(p.layout(r))
		case r == '\r' && p.crlf && strings.HasPrefix(s[i+1:], "\n"):
		case Invisible(s, i):
			b.WriteString(p.shown(r))
		default:
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// clean reports whether s needs no filtering under p (fast path: ASCII
// text, newlines and tabs kept as they are).
func clean(s string, p policy) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' || c == '\t':
			if p.layout(rune(c)) != string(rune(c)) {
				return false
			}
		case c < 0x20 || c == 0x7f:
			return false
		case c >= 0x80:
			return cleanRunes(s, i, p)
		}
	}
	return true
}

// cleanRunes is clean from s[i] on, for text that is not all ASCII.
func cleanRunes(s string, i int, p policy) bool {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == '\n' || r == '\t' {
			if p.layout(r) != string(r) {
				return false
			}
		} else if Invisible(s, i) {
			return false
		}
		i += w
	}
	return true
}

// c1Introducer reports whether the C1 control r starts a sequence.
func c1Introducer(r rune) bool {
	switch r {
	case 0x9b, 0x9d, 0x90, 0x9f, 0x9e, 0x98:
		return true
	}
	return false
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
