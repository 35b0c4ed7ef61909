package sanitize

import (
	"regexp"
	"testing"
)

// TestName_MarksWhatItDrops pins issue 10 item 14 and issue 17 item 11: a
// name that held an escape or an invisible character must not look like
// a clean name.
func TestName_MarksWhatItDrops(t *testing.T) {
	tests := []struct{ in, want string }{
		{"evil-name", "evil-name"},
		{"evil\x1b[31m-name", "evil\uFFFD-name"},
		{"evil\x1b]2;title\x07-name", "evil\uFFFD-name"},
		{"evil\u202e-name", "evil⟨U+202E⟩-name"},
		{"zero\u200bwidth", "zero⟨U+200B⟩width"},
		{"tab\tname", "tab⟨U+0009⟩name"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
		{"café カニ", "café カニ"},
		{"dev \U0001F469\u200d\U0001F4BB", "dev \U0001F469\u200d\U0001F4BB"},
	}
	for _, tt := range tests {
		if got := Name(tt.in); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if tt.in != tt.want && Name(tt.in) == Input(tt.in) {
			t.Errorf("%q looks clean", tt.in)
		}
	}
}

// TestReplaceMarkers: every marker Marker writes is found, and only those:
// the same matches as the pattern ⟨U\+[0-9A-F]{4,6}⟩, without a regular
// expression in the code.
func TestReplaceMarkers(t *testing.T) {
	re := regexp.MustCompile(`⟨U\+[0-9A-F]{4,6}⟩`)
	wrap := func(m string) string { return "[" + m + "]" }
	cases := []string{
		"", "plain", "a" + Marker(0x200b) + "b" + Marker(0x10ffff) + Marker(0x7f),
		"⟨U+12⟩ ⟨U+1234567⟩ ⟨u+200b⟩ ⟨U+200b⟩ ⟨U+ ⟨U+200B ⟨U+⟨U+200B⟩⟩ ⟨U+ABCDEF⟩",
		Name("x\u200by\x00z\u2028"),
	}
	for _, s := range cases {
		if got, want := ReplaceMarkers(s, wrap), re.ReplaceAllStringFunc(s, wrap); got != want {
			t.Errorf("ReplaceMarkers(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzReplaceMarkers: ReplaceMarkers finds what the pattern finds, in any
// text.
func FuzzReplaceMarkers(f *testing.F) {
	re := regexp.MustCompile(`⟨U\+[0-9A-F]{4,6}⟩`)
	f.Add("a⟨U+200B⟩b ⟨U+12⟩ ⟨U+1234567⟩")
	f.Add("⟨U+⟨U+200B⟩⟩")
	f.Fuzz(func(t *testing.T, s string) {
		wrap := func(m string) string { return "[" + m + "]" }
		if got, want := ReplaceMarkers(s, wrap), re.ReplaceAllStringFunc(s, wrap); got != want {
			t.Errorf("ReplaceMarkers(%q) = %q, want %q", s, got, want)
		}
	})
}
