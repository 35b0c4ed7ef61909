package bm25

import "testing"

// TestDocLen pins Doc.Len, the one token count crmem prints for an entry,
// to the document length the index itself stores (content and aliases,
// duplicates kept) and to Tokenize.
func TestDocLen(t *testing.T) {
	tests := []struct {
		name string
		doc  Doc
		want int
	}{
		{"empty", Doc{ID: 1}, 0},
		{"content only, stop word dropped", Doc{ID: 2, Content: "Deploy the deploy-steps, twice: deploy"}, 5},
		{"aliases count", Doc{ID: 3, Content: "rollback plan", Aliases: []string{"undo", "roll back"}}, 5},
		{"alias only", Doc{ID: 4, Aliases: []string{"ΣΟΦΟΣ σοφός"}}, 2},
		{"separators only", Doc{ID: 5, Content: " -- !! ", Aliases: []string{""}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.doc.Len(); got != tc.want {
				t.Fatalf("Len() = %d, want %d", got, tc.want)
			}
			n := len(Tokenize(tc.doc.Content))
			for _, a := range tc.doc.Aliases {
				n += len(Tokenize(a))
			}
			if got := tc.doc.Len(); got != n {
				t.Fatalf("Len() = %d, Tokenize counts %d", got, n)
			}
			ix := Build([]Doc{tc.doc, {ID: 99, Content: "other"}})
			if got := ix.Explain("x", tc.doc.ID).DocLen; got != tc.want {
				t.Fatalf("index doc length = %d, Len() = %d", got, tc.want)
			}
		})
	}
}
