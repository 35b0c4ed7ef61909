package sanitize

import (
	"strings"
	"testing"
)

// TestPolicy_CharacterClasses is the one policy of the package (and of the
// CLI, which asks Invisible) over each class of character: how content
// (Text), a one-line label (Line), a name (Name) and typed input (Input)
// show it, and whether Invisible calls it invisible.
//
// A zero-width joiner inside an emoji sequence is kept raw: it is part of
// the glyph (woman, ZWJ, laptop is one picture), marking it would split the picture into
// two emoji and a marker, and it hides nothing. Anywhere else (a\u200db) a
// ZWJ only joins invisibly and is marked. The tag characters of an emoji
// flag are kept for the same reason. Variation selectors and combining
// marks modify the character before them and are kept.
func TestPolicy_CharacterClasses(t *testing.T) {
	family := "\U0001F468\u200d\U0001F469\u200d\U0001F467"
	coder := "\U0001F469\U0001F3FD\u200d\U0001F4BB" // skin tone before the ZWJ
	heart := "\u2764\ufe0f\u200d\U0001F525"         // VS16 before the ZWJ
	scotland := "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
	tests := []struct {
		class, in              string
		text, line, name, inpt string
		invisible              bool // Invisible at the class's character (after the leading "a")
	}{
		{"plain", "ab", "ab", "ab", "ab", "ab", false},
		{"C0 BEL", "a\x07b", "a⟨U+0007⟩b", "a⟨U+0007⟩b", "a⟨U+0007⟩b", "ab", true},
		{"C0 CR", "a\rb", "a⟨U+000D⟩b", "a⟨U+000D⟩b", "a⟨U+000D⟩b", "ab", true},
		{"C0 NUL", "a\x00b", "a⟨U+0000⟩b", "a⟨U+0000⟩b", "a⟨U+0000⟩b", "ab", true},
		{"newline", "a\nb", "a\nb", "a b", "a⟨U+000A⟩b", "a b", true},
		{"tab", "a\tb", "a\tb", "a b", "a⟨U+0009⟩b", "a b", true},
		{"DEL", "a\x7fb", "a⟨U+007F⟩b", "a⟨U+007F⟩b", "a⟨U+007F⟩b", "ab", true},
		{"C1 NEL", "a\u0085b", "a⟨U+0085⟩b", "a⟨U+0085⟩b", "a⟨U+0085⟩b", "ab", true},
		{"C1 CSI sequence", "a\u009b31mb", "a⟨U+009B⟩31mb", "a⟨U+009B⟩31mb", "a⟨U+009B⟩31mb", "ab", true},
		{"ESC sequence", "a\x1b[31mb", "a⟨U+001B⟩[31mb", "a⟨U+001B⟩[31mb", "a⟨U+001B⟩[31mb", "ab", true},
		{"Cf bidi RLO", "a\u202eb", "a⟨U+202E⟩b", "a⟨U+202E⟩b", "a⟨U+202E⟩b", "ab", true},
		{"Cf bidi isolate", "a\u2066b", "a⟨U+2066⟩b", "a⟨U+2066⟩b", "a⟨U+2066⟩b", "ab", true},
		{"Cf LRM", "a\u200eb", "a⟨U+200E⟩b", "a⟨U+200E⟩b", "a⟨U+200E⟩b", "ab", true},
		{"Cf ALM", "a\u061cb", "a⟨U+061C⟩b", "a⟨U+061C⟩b", "a⟨U+061C⟩b", "ab", true},
		{"ZWSP", "a\u200bb", "a⟨U+200B⟩b", "a⟨U+200B⟩b", "a⟨U+200B⟩b", "ab", true},
		{"ZWNJ", "a\u200cb", "a⟨U+200C⟩b", "a⟨U+200C⟩b", "a⟨U+200C⟩b", "ab", true},
		{"ZWJ between letters", "a\u200db", "a⟨U+200D⟩b", "a⟨U+200D⟩b", "a⟨U+200D⟩b", "ab", true},
		{"word joiner", "a\u2060b", "a⟨U+2060⟩b", "a⟨U+2060⟩b", "a⟨U+2060⟩b", "ab", true},
		{"BOM", "a\ufeffb", "a⟨U+FEFF⟩b", "a⟨U+FEFF⟩b", "a⟨U+FEFF⟩b", "ab", true},
		{"soft hyphen", "a\u00adb", "a⟨U+00AD⟩b", "a⟨U+00AD⟩b", "a⟨U+00AD⟩b", "ab", true},
		{"tag outside a flag", "a\U000E0041b", "a⟨U+E0041⟩b", "a⟨U+E0041⟩b", "a⟨U+E0041⟩b", "ab", true},
		{"Zl line separator", "a\u2028b", "a⟨U+2028⟩b", "a⟨U+2028⟩b", "a⟨U+2028⟩b", "ab", true},
		{"Zp paragraph separator", "a\u2029b", "a⟨U+2029⟩b", "a⟨U+2029⟩b", "a⟨U+2029⟩b", "ab", true},
		{"invalid byte", "a\xffb", "a\uFFFDb", "a⟨0xFF⟩b", "a⟨0xFF⟩b", "ab", true},
		{"no-break space", "a\u00a0b", "a\u00a0b", "a⟨U+00A0⟩b", "a⟨U+00A0⟩b", "a\u00a0b", false},
		{"ideographic space", "a\u3000b", "a\u3000b", "a⟨U+3000⟩b", "a⟨U+3000⟩b", "a\u3000b", false},
		{"variation selector", "a\ufe0eb", "a\ufe0eb", "a\ufe0eb", "a\ufe0eb", "a\ufe0eb", false},
		{"combining mark", "ae\u0301b", "ae\u0301b", "ae\u0301b", "ae\u0301b", "ae\u0301b", false},
		{"ZWJ in an emoji sequence", "a" + family, "a" + family, "a" + family, "a" + family, "a" + family, false},
		{"ZWJ after a skin tone", "a" + coder, "a" + coder, "a" + coder, "a" + coder, "a" + coder, false},
		{"ZWJ after VS16", "a" + heart, "a" + heart, "a" + heart, "a" + heart, "a" + heart, false},
		{"ZWJ after an emoji, before a letter", "a\U0001F600\u200db", "a\U0001F600⟨U+200D⟩b", "a\U0001F600⟨U+200D⟩b", "a\U0001F600⟨U+200D⟩b", "a\U0001F600b", false},
		{"flag tag sequence", "a" + scotland, "a" + scotland, "a" + scotland, "a" + scotland, "a" + scotland, false},
		{"CJK and RTL text", "a日本語 שלום", "a日本語 שלום", "a日本語 שלום", "a日本語 שלום", "a日本語 שלום", false},
	}
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			for _, c := range []struct {
				fn   string
				f    func(string) string
				want string
			}{{"Text", Text, tt.text}, {"Line", Line, tt.line}, {"Name", Name, tt.name}, {"Input", Input, tt.inpt}} {
				if got := c.f(tt.in); got != c.want {
					t.Errorf("%s(%q) = %q, want %q", c.fn, tt.in, got, c.want)
				}
			}
			if got := Invisible(tt.in, 1); got != tt.invisible {
				t.Errorf("Invisible(%q, 1) = %v, want %v", tt.in, got, tt.invisible)
			}
		})
	}
}

// TestMarkdown_RawHTMLShowsAsText: raw HTML is escaped so the renderer
// shows it as written; code spans and blocks, autolinks and HTML-looking
// text in code stay as they are.
func TestMarkdown_RawHTMLShowsAsText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"inline script", "a <script>x</script> b", `a \<script\>x\</script\> b`},
		{"img onerror", `<img src=x onerror="alert(1)">`, `\<img src=x onerror="alert\(1\)"\>`},
		{"entity inside", `<a title="&lt;">`, `\<a title="&amp;lt;"\>`},
		{"details block keeps its lines", "<details>\n<summary>s</summary>\nhidden\n</details>\n\nafter",
			"\\<details\\>\\\n\\<summary\\>s\\</summary\\>\\\nhidden\\\n\\</details\\>\n\nafter"},
		{"comment", "a <!-- hidden --> b", `a \<\!\-\- hidden \-\-\> b`},
		{"code span", "`<b>x</b>`", "`<b>x</b>`"},
		{"fenced code", "```\n<div>x</div>\n```", "```\n<div>x</div>\n```"},
		{"autolink", "<https://example.com>", "<https://example.com>"},
		{"less-than in prose", "a < b and 3<4", "a < b and 3<4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Markdown(tt.in); got != tt.want {
				t.Errorf("Markdown(%q) =\n%q, want\n%q", tt.in, got, tt.want)
			}
		})
	}
	if got := Markdown("a &#x200B; b"); !strings.Contains(got, "&amp;#x200B;") {
		t.Errorf("a reference to U+200B is left for the renderer to decode: %q", got)
	}
}
