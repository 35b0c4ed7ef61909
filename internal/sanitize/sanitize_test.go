package sanitize

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello world", "hello world"},
		{"unicode", "naïve café 日本語 🦀", "naïve café 日本語 🦀"},
		{"newline and tab kept", "a\n\tb", "a\n\tb"},
		{"osc title bel", "x\x1b]2;pwned\x07y", "x⟨U+001B⟩]2;pwned⟨U+0007⟩y"},
		{"osc title st", "x\x1b]0;pwned\x1b\\y", "x⟨U+001B⟩]0;pwned⟨U+001B⟩\\y"},
		{"osc 8 link", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "⟨U+001B⟩]8;;http://evil⟨U+001B⟩\\click⟨U+001B⟩]8;;⟨U+001B⟩\\"},
		{"osc 52 clipboard", "a\x1b]52;c;ZXZpbA==\x07b", "a⟨U+001B⟩]52;c;ZXZpbA==⟨U+0007⟩b"},
		{"osc unterminated", "a\x1b]2;rest of it", "a⟨U+001B⟩]2;rest of it"},
		{"csi colour", "\x1b[31mred\x1b[0m", "⟨U+001B⟩[31mred⟨U+001B⟩[0m"},
		{"csi cursor", "a\x1b[2J\x1b[H\x1b[10;20Hb", "a⟨U+001B⟩[2J⟨U+001B⟩[H⟨U+001B⟩[10;20Hb"},
		{"csi private", "a\x1b[?1049hb", "a⟨U+001B⟩[?1049hb"},
		{"csi malformed", "a\x1b[12\x01b", "a⟨U+001B⟩[12⟨U+0001⟩b"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "a⟨U+001B⟩Pq#0;2;0;0;0⟨U+001B⟩\\b"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "a⟨U+001B⟩_Gf=100;AAAA⟨U+001B⟩\\b"},
		{"pm sos", "a\x1b^x\x1b\\b\x1bXy\x1b\\c", "a⟨U+001B⟩^x⟨U+001B⟩\\b⟨U+001B⟩Xy⟨U+001B⟩\\c"},
		{"two-byte escape: no letter eaten", "a\x1bcb\x1b7c\x1b(Bd", "a⟨U+001B⟩cb⟨U+001B⟩7c⟨U+001B⟩(Bd"},
		{"lone esc at end", "ab\x1b", "ab⟨U+001B⟩"},
		{"bel", "ding\x07dong", "ding⟨U+0007⟩dong"},
		{"carriage return hides text", "secret\rshown", "secret⟨U+000D⟩shown"},
		{"crlf is a newline", "a\r\nb", "a\nb"},
		{"other c0", "a\x00b\x08c\x0bd\x0ce\x7ff", "a⟨U+0000⟩b⟨U+0008⟩c⟨U+000B⟩d⟨U+000C⟩e⟨U+007F⟩f"},
		{"c1 csi", "a\u009b31mb", "a⟨U+009B⟩31mb"},
		{"c1 osc", "a\u009d2;t\u009cb", "a⟨U+009D⟩2;t⟨U+009C⟩b"},
		{"c1 other", "a\u0085b\u0084c", "a⟨U+0085⟩b⟨U+0084⟩c"},
		{"bidi override", "a\u202eb\u2066c\u2069", "a⟨U+202E⟩b⟨U+2066⟩c⟨U+2069⟩"},
		{"invalid utf8", "a\xffb\xc0", "a\uFFFDb\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"name", "name"},
		{"two\nlines", "two lines"},
		{"tab\there", "tab here"},
		{"ti\x1b]0;x\x07tle\r", "ti⟨U+001B⟩]0;x⟨U+0007⟩tle⟨U+000D⟩"},
		{"no\u00a0break", "no⟨U+00A0⟩break"},
		{"bad\xffbyte", "bad⟨0xFF⟩byte"},
		{"zero\u200bwidth", "zero⟨U+200B⟩width"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"esc decimal", "a&#27;]2;x&#7;b", "a&amp;#27;]2;x&amp;#7;b"},
		{"esc hex", "&#x1b;[2J &#X1B;", "&amp;#x1b;[2J &amp;#X1B;"},
		{"leading zeros", "&#0000027;", "&amp;#0000027;"},
		{"c1 csi", "&#155;31m &#x9b;", "&amp;#155;31m &amp;#x9b;"},
		{"del and cr", "&#127;&#13;", "&amp;#127;&amp;#13;"},
		{"no semicolon", "&#27[31m", "&amp;#27[31m"},
		{"huge", "&#99999999999;", "&amp;#99999999999;"},
		{"bidi", "&#x202E;", "&amp;#x202E;"},
		{"harmless kept", "&#65; &#x263A; &#10; &amp; &lt;", "&#65; &#x263A; &#10; &amp; &lt;"},
		{"raw escape shown too", "\x1b]2;t\x07ok", "⟨U+001B⟩]2;t⟨U+0007⟩ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Markdown(tt.in); got != tt.want {
				t.Errorf("Markdown(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestOutput(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"sgr kept", "\x1b[1;38;5;203mbold\x1b[0m", "\x1b[1;38;5;203mbold\x1b[0m"},
		{"sgr colon", "\x1b[38:2:1:2:3mx\x1b[m", "\x1b[38:2:1:2:3mx\x1b[m"},
		{"osc dropped", "\x1b]8;;http://x\x1b\\l\x1b]8;;\x1b\\", "l"},
		{"cursor dropped", "a\x1b[2Kb\x1b[?25l", "ab"},
		{"private sgr-looking dropped", "a\x1b[>4;1mb", "ab"},
		{"real esc from entity", "\x1b]2;pwned\x07text", "text"},
		{"tab to spaces", "a\tb", "a    b"},
		{"cr dropped", "a\r\nb", "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Output(tt.in); got != tt.want {
				t.Errorf("Output(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

var sgrOnly = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkSafe fails when s still holds anything a terminal would act on.
func checkSafe(t *testing.T, fn, in, s string, allowSGR bool) {
	t.Helper()
	if allowSGR {
		s = sgrOnly.ReplaceAllString(s, "")
	}
	if !utf8.ValidString(s) {
		t.Fatalf("%s(%q) is not valid UTF-8: %q", fn, in, s)
	}
	for i, r := range s {
		if r != '\n' && r != '\t' && Invisible(s, i) {
			t.Fatalf("%s(%q) = %q keeps invisible %U", fn, in, s, r)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"plain", "\x1b]2;pwned\x07", "\x1b[31mred\x1b[0m", "&#27;[2J", "a\rb",
		"\u009b1m\u009d0;t\u009c", "\x1bP\x1b\\", "\x1b", "\xff\xfe", "&#x9b;",
		"zero\u200bwidth \U0001F469\u200d\U0001F4BB a\u200db", "<details>\n<b>x</b>\n</details>", "\U0001F3F4\U000E0067\U000E007F",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		text := Text(in)
		checkSafe(t, "Text", in, text, false)
		if Text(text) != text {
			t.Fatalf("Text not idempotent on %q", in)
		}
		line := Line(in)
		checkSafe(t, "Line", in, line, false)
		if strings.ContainsAny(line, "\n\t") {
			t.Fatalf("Line(%q) = %q keeps a newline or tab", in, line)
		}
		md := Markdown(in)
		checkSafe(t, "Markdown", in, md, false)
		for _, ref := range ncr().FindAllString(md, -1) {
			if controlRef(ref) && !strings.Contains(md, "&amp;"+ref[1:]) {
				t.Fatalf("Markdown(%q) = %q keeps reference %q", in, md, ref)
			}
		}
		checkSafe(t, "Output", in, Output(in), true)
		for fn, f := range map[string]func(string) string{"Name": Name, "Input": Input} {
			out := f(in)
			checkSafe(t, fn, in, out, false)
			if strings.ContainsAny(out, "\n\t") {
				t.Fatalf("%s(%q) = %q keeps a newline or tab", fn, in, out)
			}
		}
	})
}
