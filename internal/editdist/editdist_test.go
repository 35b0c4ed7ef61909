package editdist

import "testing"

func TestOSA(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"search", "search", 0},
		{"serch", "search", 1},  // a deletion
		{"saerch", "search", 1}, // a swap of neighbours
		{"lsit", "list", 1},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
	} {
		if got := OSA([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("OSA(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if got := OSA([]rune("naïve"), []rune("naive")); got != 1 { // by runes: one substitution
		t.Errorf("runes: %d, want 1", got)
	}
	if got := OSA([]byte("naïve"), []byte("naive")); got != 2 { // by bytes: ï is two
		t.Errorf("bytes: %d, want 2", got)
	}
}
