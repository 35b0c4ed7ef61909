package sanitize

import "testing"

// TestShown: plain-text content keeps every character visible: an escape
// sequence's introducer (ESC or a C1 control) becomes a marker and its
// body stays as text; Text drops the same sequence.
func TestShown(t *testing.T) {
	for in, want := range map[string]string{
		"plain\nline\ttab":   "plain\nline\ttab",
		"a\x1b[31mred":       "a⟨U+001B⟩[31mred",
		"t\x1b]0;title\x07x": "t⟨U+001B⟩]0;title⟨U+0007⟩x",
		"c1\u009b31m":        "c1⟨U+009B⟩31m",
		"zero\u200bwidth":    "zero⟨U+200B⟩width",
		"crlf\r\nkept":       "crlf\nkept",
		"bad\xffbyte":        "bad\uFFFDbyte",
	} {
		if got := Shown(in); got != want {
			t.Errorf("Shown(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Text("a\x1b[31mred"); got != "ared" {
		t.Errorf("Text drops the sequence: %q", got)
	}
}
