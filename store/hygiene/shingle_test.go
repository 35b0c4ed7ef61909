package hygiene

import (
	"slices"
	"testing"

	"golang.org/x/text/cases"
)

// TestAppendWords_NormalFormsAndCase: words are compared after NFKC and
// full case folding, so a word in NFC or NFD, in capitals, with a final
// sigma or a ligature is one word; punctuation and other scripts' spaces
// separate words; different words differ.
func TestAppendWords_NormalFormsAndCase(t *testing.T) {
	fold := cases.Fold()
	words := func(s string) []uint32 { return appendWords(nil, s, MaxWordsPerEntry, &fold) }
	same := [][2]string{
		{"Café crème", "cafe\u0301 CRE\u0300ME"},
		{"ΣΟΦΟΣ λόγος", "σοφος ΛΌΓΟΣ"},
		{"the ﬁle — Straße", "THE file, strasse"},
		{"deploy-steps v2", "Deploy steps V2"},
		{"東京 タワー", "東京\u3000タワー"},
	}
	for _, c := range same {
		if a, b := words(c[0]), words(c[1]); !slices.Equal(a, b) || len(a) == 0 {
			t.Errorf("%q and %q: words %v and %v, want the same", c[0], c[1], a, b)
		}
	}
	if a, b := words("deploy canary"), words("deploy canary2"); slices.Equal(a, b) {
		t.Errorf("different words hash alike: %v", a)
	}
	if got := len(words("one, two; three... four")); got != 4 {
		t.Errorf("%d words, want 4", got)
	}
}

// TestNearGroups_NoChain: A is near B and B near C, but A is not near C:
// no group holds A and C; every near pair is listed in some group.
func TestNearGroups_NoChain(t *testing.T) {
	pairs := []entryPair{{0, 1, 0.6}, {1, 2, 0.5}, {3, 4, 0.9}, {3, 5, 0.8}, {4, 5, 0.7}}
	groups := nearGroups(pairs)
	near := map[[2]int32]bool{}
	for _, p := range pairs {
		near[[2]int32{p.a, p.b}], near[[2]int32{p.b, p.a}] = true, true
	}
	listed := map[[2]int32]bool{}
	for _, g := range groups {
		for i, a := range g.members {
			for _, b := range g.members[i+1:] {
				if !near[[2]int32{a, b}] {
					t.Errorf("group %v holds %d and %d, not near each other", g.members, a, b)
				}
				listed[[2]int32{min(a, b), max(a, b)}] = true
			}
		}
	}
	for _, p := range pairs {
		if !listed[[2]int32{p.a, p.b}] {
			t.Errorf("pair %d-%d is in no group: %+v", p.a, p.b, groups)
		}
	}
	if len(groups) != 3 {
		t.Errorf("%d groups, want 3 ({0,1}, {3,4,5}, {1,2}): %+v", len(groups), groups)
	}
}
