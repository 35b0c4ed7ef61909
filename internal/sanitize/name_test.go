package sanitize

import (
	"regexp"
	"testing"
)

// TestName_MarksWhatItDrops pins issue 10 item 14, issue 17 item 11 and
// issue 29 item 3: a name that holds an escape, an invisible character, an
// invalid byte or a space that reads as another never looks like a clean
// name, nor like another such name.
func TestName_MarksWhatItDrops(t *testing.T) {
	tests := []struct{ in, want string }{
		{"evil-name", "evil-name"},
		{"evil\x1b[31m-name", "evil⟨U+001B⟩[31m-name"},
		{"evil\x1b]2;title\x07-name", "evil⟨U+001B⟩]2;title⟨U+0007⟩-name"},
		{"evil\u202e-name", "evil⟨U+202E⟩-name"},
		{"zero\u200bwidth", "zero⟨U+200B⟩width"},
		{"tab\tname", "tab⟨U+0009⟩name"},
		{"bad\xffbyte", "bad⟨0xFF⟩byte"},
		{"café カニ", "café カニ"},
		{"dev \U0001F469\u200d\U0001F4BB", "dev \U0001F469\u200d\U0001F4BB"},
		{"esc\x1bate", "esc⟨U+001B⟩ate"}, // ESC a is a two-byte escape: the a stays
		{"c1\u009bate", "c1⟨U+009B⟩ate"}, // so does a C1 CSI's
		{"same", "same"},
		{"same ", "same⟨U+0020⟩"},
		{" same", "⟨U+0020⟩same"},
		{"two words", "two words"},
		{"same\u00a0", "same⟨U+00A0⟩"},
		{"same\u3000", "same⟨U+3000⟩"},
		{"", "⟨empty⟩"},
		{" ", "⟨U+0020⟩"},
		{"   ", "⟨U+0020⟩⟨U+0020⟩⟨U+0020⟩"},
		{"⟨empty⟩", "⟨U+27E8⟩empty⟩"},
		{"a⟨U+200B⟩b", "a⟨U+27E8⟩U+200B⟩b"},
	}
	for _, tt := range tests {
		if got := Name(tt.in); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if tt.in != tt.want && Name(tt.in) == Input(tt.in) {
			t.Errorf("%q looks clean", tt.in)
		}
		if Plain(tt.in) != (tt.in == tt.want) {
			t.Errorf("Plain(%q) = %v", tt.in, Plain(tt.in))
		}
	}
}

// TestReplaceMarkers: every marker Marker writes is found, and only those:
// the same matches as the pattern ⟨(?:U\+[0-9A-F]{4,6}|0x[0-9A-F]{2}|empty)⟩, without a regular
// expression in the code.
func TestReplaceMarkers(t *testing.T) {
	re := regexp.MustCompile(`⟨(?:U\+[0-9A-F]{4,6}|0x[0-9A-F]{2}|empty)⟩`)
	wrap := func(m string) string { return "[" + m + "]" }
	cases := []string{
		"", "plain", "a" + Marker(0x200b) + "b" + Marker(0x10ffff) + Marker(0x7f),
		"⟨U+12⟩ ⟨U+1234567⟩ ⟨u+200b⟩ ⟨U+200b⟩ ⟨U+ ⟨U+200B ⟨U+⟨U+200B⟩⟩ ⟨U+ABCDEF⟩",
		Name("x\u200by\x00z\u2028"), Name("a\xffb"), Name(""), "⟨0xF⟩ ⟨0xff⟩ ⟨0xFFF⟩ ⟨empt⟩ ⟨⟨empty⟩",
	}
	for _, s := range cases {
		if got, want := ReplaceMarkers(s, wrap), re.ReplaceAllStringFunc(s, wrap); got != want {
			t.Errorf("ReplaceMarkers(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestName_NeverTheSame: names that differ only inside an escape sequence,
// in an invalid byte, in the kind of space or in spaces at their ends show
// differently (SPEC §2).
func TestName_NeverTheSame(t *testing.T) {
	groups := [][]string{
		{"clip-\x1b]52;c;YQ==\x07-x", "clip-\x1b]52;c;Yg==\x07-x", "clip-\x1b[31m-x", "clip-\x1b[32m-x", "clip--x", "clip-\u009b1m-x"},
		{"a\xffb", "a\xfeb", "a\uFFFDb", "ab"},
		{"same", "same ", " same", "same\u00a0", "same\u3000", "same\u2009", "same\t", "same  "},
		{"", " ", "  ", "\u00a0", "⟨empty⟩"},
		{"e\x1bxit", "e\x1byit", "exit", "e\x1bit"},
		{"a\u200bb", "a⟨U+200B⟩b"},
	}
	for _, g := range groups {
		seen := map[string]string{}
		for _, n := range g {
			shown := Name(n)
			if prev, ok := seen[shown]; ok {
				t.Errorf("%q and %q both show as %q", prev, n, shown)
			}
			seen[shown] = n
		}
	}
}

// FuzzReplaceMarkers: ReplaceMarkers finds what the pattern finds, in any
// text.
func FuzzReplaceMarkers(f *testing.F) {
	re := regexp.MustCompile(`⟨(?:U\+[0-9A-F]{4,6}|0x[0-9A-F]{2}|empty)⟩`)
	f.Add("a⟨U+200B⟩b ⟨U+12⟩ ⟨U+1234567⟩")
	f.Add("⟨U+⟨U+200B⟩⟩")
	f.Add("⟨0xFF⟩⟨empty⟩⟨0x1⟩")
	f.Fuzz(func(t *testing.T, s string) {
		wrap := func(m string) string { return "[" + m + "]" }
		if got, want := ReplaceMarkers(s, wrap), re.ReplaceAllStringFunc(s, wrap); got != want {
			t.Errorf("ReplaceMarkers(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzName_Injective: two different names never show the same.
func FuzzName_Injective(f *testing.F) {
	f.Add("same", "same ")
	f.Add("a\x1b]2;x\x07b", "a\x1b]2;y\x07b")
	f.Add("a\xffb", "a⟨0xFF⟩b")
	f.Add("", "⟨empty⟩")
	f.Add("\U0001F469\u200d\U0001F4BB", "\U0001F469⟨U+200D⟩\U0001F4BB")
	f.Fuzz(func(t *testing.T, a, b string) {
		if a != b && Name(a) == Name(b) {
			t.Errorf("%q and %q both show as %q", a, b, Name(a))
		}
	})
}
