package sanitize

import "testing"

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
