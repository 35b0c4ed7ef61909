package hygiene

import (
	"testing"

	"github.com/crmem/crmem/bm25"
)

// cosine is the exact similarity of documents a and b as the report
// computed it before dot, a merge of their sorted term lists, and the term
// comparisons it cost: the reference dot must match to the bit.
func (s *space) cosine(a, b int) (float64, int) {
	v := s.v
	i, ie := v.Start[a], v.Start[a+1]
	j, je := v.Start[b], v.Start[b+1]
	cost := ie - i + je - j
	var dot float64
	for i < ie && j < je {
		switch ti, tj := v.Terms[i], v.Terms[j]; {
		case ti < tj:
			i++
		case ti > tj:
			j++
		default:
			dot += float64(s.weight[i]) * float64(s.weight[j])
			i++
			j++
		}
	}
	return dot, cost
}

// TestDot_SameAsMerge: the scattered dot product is the merged cosine to
// the last bit, and costs the same, for every pair of a corpus (so a
// report's similarities and where its work bounds stop are unchanged).
func TestDot_SameAsMerge(t *testing.T) {
	es := corpus(400)
	ix := bm25.BuildFunc(len(es), func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content} })
	s, _ := newSpace(ix.Vectors())
	n := s.v.Docs()
	dense := make([]float32, len(s.v.DF))
	for d := range n {
		s.scatter(d, dense)
		for a := range n {
			got, gotCost := s.dot(a, d, dense)
			want, wantCost := s.cosine(a, d)
			if got != want || gotCost != wantCost {
				t.Fatalf("docs %d, %d: dot %v (cost %d), merge %v (cost %d)", a, d, got, gotCost, want, wantCost)
			}
		}
		s.clear(d, dense)
		for t2, w := range dense {
			if w != 0 {
				t.Fatalf("after clear(%d): term %d still %v", d, t2, w)
			}
		}
	}
}
