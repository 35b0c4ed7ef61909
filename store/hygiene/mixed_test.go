package hygiene

import "testing"

// TestMixedScript_NamesTheLetter: a name mixing Latin letters with
// look-alikes lists each, with its code point and script; names in one
// script list none (issue 42 item 4).
func TestMixedScript_NamesTheLetter(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"dеploy-steps", "е U+0435 CYRILLIC"},
		{"rοllback", "ο U+03BF GREEK"},
		{"DЕPLOY", "Е U+0415 CYRILLIC"},
		{"pаypаl", "а U+0430 CYRILLIC"},
		{"deploy-steps", ""},
		{"кошка", ""},        // Cyrillic alone: no Latin letter to mix with
		{"αβγ", ""},          // Greek alone
		{"café-notes", ""},   // Latin with an accent
		{"螃蟹-deploy", ""},    // Han is no look-alike
		{"hindi-हिन्दी", ""}, // nor Devanagari
	} {
		if got := DescribeMixed(MixedScript(c.name)); got != c.want {
			t.Errorf("MixedScript(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
