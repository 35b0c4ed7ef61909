package sanitize

import (
	"strings"
	"testing"
)

// TestText_ShowsWhatEscapesHold: content keeps every character visible
// (issue 27 item 9, issue 29 item 4): an escape sequence's introducer (ESC
// or a C1 control) becomes a marker and its body stays as text, so plain
// `show`, the preview and the pager hide nothing recall can find.
func TestText_ShowsWhatEscapesHold(t *testing.T) {
	for in, want := range map[string]string{
		"plain\nline\ttab":   "plain\nline\ttab",
		"a\x1b[31mred":       "a⟨U+001B⟩[31mred",
		"t\x1b]0;title\x07x": "t⟨U+001B⟩]0;title⟨U+0007⟩x",
		"c1\u009b31m":        "c1⟨U+009B⟩31m",
		"zero\u200bwidth":    "zero⟨U+200B⟩width",
		"crlf\r\nkept":       "crlf\nkept",
		"bad\xffbyte":        "bad\uFFFDbyte",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNameRunes_OneStringPerRune: an input that holds a name exactly
// draws each rune as Name shows it, one string per rune, so the cursor
// moves over a marker as over the one character it stands for (issue 42
// item 2).
func TestNameRunes_OneStringPerRune(t *testing.T) {
	for in, want := range map[string]string{
		"c1-\u009d-x":        "c1-|⟨U+009D⟩|-x",
		"ctl-\x02-x":         "ctl-|⟨U+0002⟩|-x",
		"same\u200b":         "same|⟨U+200B⟩",
		"tab\tname":          "tab|⟨U+0009⟩|name",
		"cr-safe\rEVIL":      "cr-safe|⟨U+000D⟩|EVIL",
		"evil-\u202etxt.exe": "evil-|⟨U+202E⟩|txt.exe",
		"nb\u00a0sp ⟨x":      "nb|⟨U+00A0⟩|sp |⟨U+27E8⟩|x",
		"👩\u200d💻":           "👩|\u200d|💻",
	} {
		rs := []rune(in)
		got := NameRunes(rs)
		if len(got) != len(rs) {
			t.Fatalf("NameRunes(%q): %d strings for %d runes", in, len(got), len(rs))
		}
		// runes that show as themselves are joined for the comparison
		var parts []string
		run := ""
		for i, g := range got {
			if g == string(rs[i]) && rs[i] != '\u200d' {
				run += g
				continue
			}
			if run != "" {
				parts = append(parts, run)
				run = ""
			}
			parts = append(parts, g)
		}
		if run != "" {
			parts = append(parts, run)
		}
		if s := strings.Join(parts, "|"); s != want {
			t.Errorf("NameRunes(%q) = %q, want %q", in, s, want)
		}
	}
}
