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
// use [Invisible] and [Plain] and escape Go-style instead, as SPEC §6 asks):
//
//   - Escape sequences (ESC or a C1 control introducing CSI, OSC, DCS, APC,
//     PM or SOS, with their bodies) are terminal commands. What is shown
//     (content, a label, a name) keeps their text and shows the ESC or C1
//     control that would make the terminal act on it as a [Marker]: an
//     OSC 52 payload, an OSC 8 link's address or a window title is not
//     hidden from the person reading, and no letter after an ESC is eaten.
//     Typed input drops them; the renderer's output keeps SGR only.
//   - An invalid UTF-8 byte shows as [Dropped] in content and as its value,
//     ⟨0xFF⟩ ([ByteMarker]), in a label or a name.
//   - Every other character that would not show as itself ([Invisible]: a
//     lone C0 or C1 control, DEL, a format character such as a bidi
//     control, a zero-width space or joiner or a BOM, a line or paragraph
//     separator) shows as a visible marker, ⟨U+200B⟩ ([Marker]): memory is
//     inspected, not published, so "zero\u200bwidth" must not read as
//     "zerowidth". Content keeps newlines and tabs (and reads CRLF as a
//     newline); a one-line label turns them into spaces; a name marks them.
//   - A label or a name marks a space other than U+0020 (no-break, ideographic,
//     …); a name marks its leading and trailing spaces too, and an empty
//     name shows as ⟨empty⟩: "same", "same ", "same\u00a0" and "same\u3000"
//     are four names and never read as one. A name marks a ⟨ of its own,
//     ⟨U+27E8⟩, so no name reads as a marker: what Name shows tells one
//     name from every other.
//   - Text typed or pasted into an input ([Input]) drops all of the above.
//
// Variation selectors and combining marks are not invisible: they change
// the character before them, and stay.

// Line returns s as a one-line label: newlines and tabs become spaces,
// invalid bytes a [ByteMarker], other invisible characters (the ESC or C1
// control of an escape sequence among them) and spaces other than U+0020
// a [Marker].
func Line(s string) string { return apply(s, labelPolicy) }

// Text returns multi-line content safe to show: invalid bytes [Dropped],
// newlines and tabs kept, every other invisible character (the ESC or C1
// control of an escape sequence among them, whose text stays) shown as a
// [Marker].
func Text(s string) string { return apply(s, textPolicy) }

// Name is a name or an alias as shown: invalid bytes a [ByteMarker], every
// invisible character (newline, tab and the ESC or C1 control of an escape
// sequence included), a space other than U+0020 and a leading or trailing
// space a [Marker], an empty name [Empty]; so a name never looks like
// another one.
func Name(s string) string {
	if s == "" {
		return Empty
	}
	out := apply(s, namePolicy)
	if out[0] != ' ' && out[len(out)-1] != ' ' {
		return out
	}
	body := strings.Trim(out, " ")
	lead := len(out) - len(strings.TrimLeft(out, " "))
	trail := len(out) - len(strings.TrimRight(out, " "))
	if body == "" {
		trail = 0
	}
	return strings.Repeat(Marker(' '), lead) + body + strings.Repeat(Marker(' '), trail)
}

// NameRunes is how [Name] shows each rune of rs, one string per rune: the
// rune itself, or its [Marker] (an invisible character in its context, a
// space other than U+0020, a ⟨). An input that holds a name exactly (the
// rename prompt) draws it so, a marker standing for one rune the cursor
// moves over and deletes whole. Leading and trailing spaces are not
// marked: the cursor shows them.
func NameRunes(rs []rune) []string {
	s := string(rs)
	out := make([]string, 0, len(rs))
	for i, r := range s {
		if Invisible(s, i) || otherSpace(r) || r == markerBracket {
			out = append(out, Marker(r))
			continue
		}
		out = append(out, string(r))
	}
	return out
}

// Plain reports whether the name s shows as itself ([Name] leaves it as
// it is): the CLI prints such a name bare and quotes any other.
func Plain(s string) bool { return Name(s) == s }

// Empty is how [Name] shows an empty name.
const Empty = "⟨empty⟩"

// ByteMarker is how a label or a name shows an invalid byte: ⟨0xFF⟩.
func ByteMarker(b byte) string { return fmt.Sprintf("⟨0x%02X⟩", b) }

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

// Dropped is what content shows in place of an invalid byte.
const Dropped = "\uFFFD"

// The marker's parts: ⟨U+, the code point in 4 to 6 upper-case hex digits,
// ⟩.
const (
	markerOpen  = "⟨U+"
	markerClose = "⟩"
)

// Marker is how an invisible character shows: ⟨U+200B⟩.
func Marker(r rune) string { return fmt.Sprintf(markerOpen+"%04X"+markerClose, r) }

// ReplaceMarkers returns s with each marker this package writes
// ([Marker]'s ⟨U+200B⟩, [ByteMarker]'s ⟨0xFF⟩ and [Empty]) replaced by
// what fn returns for it, so a face can style markers without parsing
// them again; text that only looks like one (⟨U+12⟩, lower-case digits)
// is left alone.
func ReplaceMarkers(s string, fn func(marker string) string) string {
	const open = "⟨"
	if !strings.Contains(s, open) {
		return s
	}
	var b strings.Builder
	at := 0
	for i := 0; ; {
		j := strings.Index(s[i:], open)
		if j < 0 {
			break
		}
		start := i + j
		n := markerLen(s[start:])
		if n == 0 {
			i = start + len(open)
			continue
		}
		end := start + n
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

// markerLen is the length of the marker s starts with, or 0.
func markerLen(s string) int {
	switch {
	case strings.HasPrefix(s, Empty):
		return len(Empty)
	case strings.HasPrefix(s, markerOpen):
		return hexMarkerLen(s, len(markerOpen), 4, 6)
	case strings.HasPrefix(s, "⟨0x"):
		return hexMarkerLen(s, len("⟨0x"), 2, 2)
	}
	return 0
}

// hexMarkerLen is the length of a marker whose prefix of length k is
// followed by lo to hi upper-case hex digits and ⟩, or 0.
func hexMarkerLen(s string, k, lo, hi int) int {
	digits := 0
	for digits < hi && k+digits < len(s) && isUpperHex(s[k+digits]) {
		digits++
	}
	end := k + digits
	if digits < lo || !strings.HasPrefix(s[end:], markerClose) {
		return 0
	}
	return end + len(markerClose)
}

// isUpperHex reports whether c is a digit or A–F.
func isUpperHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' }

// policy says what apply does with each kind of character.
type policy struct {
	layout  func(r rune) string // a newline or tab
	escape  string              // an escape sequence, unless markEsc
	markEsc bool                // an escape sequence's ESC or C1 control is shown, its text kept
	spaces  bool                // a space other than U+0020 is shown as a Marker
	bracket bool                // a ⟨ is shown as a Marker, so every ⟨ shown starts one
	invalid func(b byte) string // an invalid byte
	keepSGR bool                // SGR sequences are kept (rendered output)
	crlf    bool                // a CR before a newline is dropped
	shown   func(r rune) string // any other invisible character
}

var (
	textPolicy   = policy{layout: keep, markEsc: true, invalid: dropped, crlf: true, shown: Marker}
	labelPolicy  = policy{layout: space, markEsc: true, spaces: true, invalid: ByteMarker, shown: Marker}
	namePolicy   = policy{layout: Marker, markEsc: true, spaces: true, bracket: true, invalid: ByteMarker, shown: Marker}
	inputPolicy  = policy{layout: space, invalid: dropByte, shown: drop}
	outputPolicy = policy{layout: outputLayout, keepSGR: true, invalid: dropByte, shown: drop}
)

func dropped(byte) string  { return Dropped }
func dropByte(byte) string { return "" }

// markerBracket opens a marker; a name shows a ⟨ of its own as one, so
// every ⟨ a name shows starts a marker.
const markerBracket = '⟨'

// otherSpace reports whether r is a space other than U+0020: it reads as
// one, or as nothing, and is not one.
func otherSpace(r rune) bool { return r > 0x7f && unicode.Is(unicode.Zs, r) }

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
			b.WriteString(p.invalid(s[i]))
		case p.markEsc && Invisible(s, i):
			if r == '\n' || r == '\t' {
				b.WriteString(p.layout(r))
			} else if r == '\r' && p.crlf && strings.HasPrefix(s[i+1:], "\n") {
				// a CRLF is a newline
			} else {
				b.WriteString(p.shown(r))
			}
		case p.spaces && otherSpace(r), p.bracket && r == markerBracket:
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
		} else if Invisible(s, i) || p.spaces && otherSpace(r) || p.bracket && r == markerBracket {
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
