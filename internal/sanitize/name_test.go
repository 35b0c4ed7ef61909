package sanitize

import "testing"

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
