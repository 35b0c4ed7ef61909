package bm25

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
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

// TestBuildVectors_EqualsIndexVectors checks the vectors-only build against
// the index's vectors over the same documents: ascending ids (the direct
// way) and repeated ids (the index's way), with documents without tokens,
// term frequencies around the packed limit and local term ids escaped from
// a low limit, on one part and several.
func TestBuildVectors_EqualsIndexVectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	var ascending []Doc
	for i := range 3 * minPartDocs {
		d := randomDoc(rng, uint64(i+1), testWords)
		switch {
		case i%89 == 0:
			d.Content, d.Aliases = "the of and", nil // no tokens
		case i%97 == 0:
			d.Content += strings.Repeat(" many", []int{tfEscape - 1, tfEscape, tfEscape + 1, 3 * tfEscape}[i%4])
		}
		ascending = append(ascending, d)
	}
	repeated := slices.Clone(ascending)
	for i := range repeated {
		repeated[i].ID = uint64(rng.IntN(1400) + 1)
	}
	for name, docs := range map[string][]Doc{"ascending": ascending, "repeated": repeated} {
		for _, limit := range []uint32{0, 3, termEscape} {
			for _, parts := range []int{1, 3} {
				want := buildPacked(sliceSource(docs), parts, limit).Vectors()
				got := buildVectors(sliceSource(docs), parts, limit)
				if got.Docs() == 0 || !reflect.DeepEqual(got, want) {
					t.Errorf("%s, limit %d, %d parts: vectors differ from the index's (%d documents, want %d)",
						name, limit, parts, got.Docs(), want.Docs())
				}
			}
		}
	}
	v := BuildVectorsFunc(len(ascending), func(i int) Doc { return ascending[i] })
	if want := Build(ascending).Vectors(); !reflect.DeepEqual(v, want) {
		t.Error("BuildVectorsFunc differs from Build(…).Vectors()")
	}
}
