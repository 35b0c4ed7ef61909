package sanitize

import "testing"

// TestName_MarksWhatItDrops pins issue 10 item 14: a name whose escapes
// were removed must not look like a clean name.
func TestName_MarksWhatItDrops(t *testing.T) {
	tests := []struct{ in, want string }{
		{"evil-name", "evil-name"},
		{"evil\x1b[31m-name", "evil\uFFFD-name"},
		{"evil\x1b]2;title\x07-name", "evil\uFFFD-name"},
		{"evil\u202e-name", "evil\uFFFD-name"},
		{"zero\u200bwidth", "zero\uFFFDwidth"},
		{"tab\tname", "tab\uFFFDname"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
		{"café カニ", "café カニ"},
	}
	for _, tt := range tests {
		if got := Name(tt.in); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if tt.in != tt.want && Name(tt.in) == Line(tt.in) && Line(tt.in) == Name(tt.want) {
			t.Errorf("%q looks clean", tt.in)
		}
	}
}
