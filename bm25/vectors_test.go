package bm25

import (
	"fmt"
	"testing"
)

// TestVectors_MatchTokens checks each live document's vector against its
// own tokens counted, after a Set, a Replace and a Remove, and each term's
// document frequency against DocFreq.
func TestVectors_MatchTokens(t *testing.T) {
	docs := []Doc{
		{ID: 1, Content: "deploy the billing service, deploy again"},
		{ID: 2, Content: "Billing ΣΟΦΟΣ migration", Aliases: []string{"ship", "release"}},
		{ID: 3, Content: "the of and"}, // only stopwords: no tokens, not indexed
		{ID: 4, Content: "rollback deploy"},
	}
	ix := Build(docs)
	ix.Set(Doc{ID: 5, Content: "canary rollout billing"})
	ix.Replace(docs[3], Doc{ID: 4, Content: "rollback twice rollback"})
	ix.Remove(docs[0])
	want := map[uint64]map[string]uint32{
		2: count(docs[1]),
		4: count(Doc{Content: "rollback twice rollback"}),
		5: count(Doc{Content: "canary rollout billing"}),
	}
	v := ix.Vectors()
	if v.Docs() != len(want) {
		t.Fatalf("%d documents, want %d: %v", v.Docs(), len(want), v.IDs)
	}
	for d, id := range v.IDs {
		got := map[string]uint32{}
		prev := -1
		for i := v.Start[d]; i < v.Start[d+1]; i++ {
			if int(v.Terms[i]) <= prev {
				t.Errorf("doc %d: terms not ascending", id)
			}
			prev = int(v.Terms[i])
			got[v.Text[v.Terms[i]]] = v.TF[i]
		}
		if fmt.Sprint(got) != fmt.Sprint(want[id]) {
			t.Errorf("doc %d: %v, want %v", id, got, want[id])
		}
	}
	for t2, df := range v.DF {
		if got := ix.DocFreq(v.Text[t2]); int(df) != got {
			t.Errorf("df(%s) = %d, DocFreq %d", v.Text[t2], df, got)
		}
	}
}

// count is a document's term frequencies as the tokenizer sees them.
func count(d Doc) map[string]uint32 {
	m := map[string]uint32{}
	for _, s := range append([]string{d.Content}, d.Aliases...) {
		for _, tok := range Tokenize(s) {
			m[tok]++
		}
	}
	return m
}
