package hygiene

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// gradedSet is a memory of background notes drawn from one widely shared
// vocabulary (so most words are held by hundreds of entries) with planted
// near duplicates: originals of 3 paragraphs, and of each a copy with one
// sentence replaced, one with its paragraphs reordered, one with 10 % and
// one with 30 % of its words replaced. truth holds each planted pair by
// name (original and variant, and two variants of one original).
func gradedSet(background, originals, vocab int) (es []store.Entry, truth map[[2]string]bool, planted [][2]string) {
	rng := rand.New(rand.NewPCG(30, 7))
	zipf := rand.NewZipf(rand.New(rand.NewPCG(30, 8)), 1.07, 2, uint64(vocab-1))
	word := func() string { return fmt.Sprintf("w%d", zipf.Uint64()) }
	sentence := func() string {
		ws := make([]string, 6+rng.IntN(8))
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ") + "."
	}
	paragraph := func() []string {
		ss := make([]string, 2+rng.IntN(2))
		for i := range ss {
			ss[i] = sentence()
		}
		return ss
	}
	add := func(name string, paras [][]string) {
		ps := make([]string, len(paras))
		for i, p := range paras {
			ps[i] = strings.Join(p, " ")
		}
		es = append(es, store.Entry{ID: uint64(len(es) + 1), Name: name, Content: strings.Join(ps, "\n\n"), Aliases: []string{}})
	}
	for i := range background {
		add(fmt.Sprintf("note-%d", i), [][]string{paragraph(), paragraph()})
	}
	truth = map[[2]string]bool{}
	replaceWords := func(paras [][]string, share float64) [][]string {
		out := make([][]string, len(paras))
		for i, p := range paras {
			out[i] = make([]string, len(p))
			for j, s := range p {
				ws := strings.Fields(strings.TrimSuffix(s, "."))
				for k := range ws {
					if rng.Float64() < share {
						ws[k] = word()
					}
				}
				out[i][j] = strings.Join(ws, " ") + "."
			}
		}
		return out
	}
	for i := range originals {
		orig := [][]string{paragraph(), paragraph(), paragraph()}
		name := fmt.Sprintf("orig-%d", i)
		add(name, orig)
		oneSentence := replaceWords(orig, 0)
		oneSentence[1][0] = sentence()
		reordered := [][]string{orig[2], orig[0], orig[1]}
		variants := map[string][][]string{"sentence": oneSentence, "reordered": reordered,
			"words10": replaceWords(orig, 0.10), "words30": replaceWords(orig, 0.30)}
		var names []string
		for _, kind := range []string{"sentence", "reordered", "words10", "words30"} {
			v := fmt.Sprintf("%s-%s", name, kind)
			add(v, variants[kind])
			planted = append(planted, [2]string{name, v})
			names = append(names, v)
		}
		all := append([]string{name}, names...)
		for a := range all {
			for b := range all {
				truth[[2]string{all[a], all[b]}] = true
			}
		}
	}
	return es, truth, planted
}

// TestNearDuplicates_Graded measures the near-duplicate check on graded
// sets at the default threshold: recall (planted pairs reported) and
// precision (reported near pairs that are planted) must both reach 90 %,
// with a vocabulary of 4,000 words and with one of 500, where every word
// is held by far more entries than the rare-word cut.
func TestNearDuplicates_Graded(t *testing.T) {
	for _, vocab := range []int{4000, 500} {
		es, truth, planted := gradedSet(3000, 60, vocab)
		recall, precision, detail := gradedScore(es, truth, planted, Options{Kinds: []Kind{Duplicate}})
		t.Logf("vocabulary %d: recall %.3f, precision %.3f; %s", vocab, recall, precision, detail)
		if recall < 0.9 || precision < 0.9 {
			t.Errorf("vocabulary %d: recall %.3f, precision %.3f: want both at least 0.90", vocab, recall, precision)
		}
	}
}

// gradedScore runs the duplicate check and scores it against truth.
func gradedScore(es []store.Entry, truth map[[2]string]bool, planted [][2]string, opts Options) (recall, precision float64, detail string) {
	r := Run(es, opts)
	byID := map[uint64]string{}
	for _, e := range es {
		byID[e.ID] = e.Name
	}
	reported := map[[2]string]bool{}
	var tp, fp int
	for _, f := range r.Findings {
		if f.Duplicate.Exact {
			continue
		}
		for _, p := range f.Duplicate.Pairs {
			a, b := byID[p.A], byID[p.B]
			reported[[2]string{a, b}], reported[[2]string{b, a}] = true, true
			if truth[[2]string{a, b}] {
				tp++
			} else {
				fp++
			}
		}
		if len(f.Duplicate.Pairs) == MaxPairsPerGroup { // a group lists only so many of its pairs
			for _, x := range f.Entries {
				for _, y := range f.Entries {
					reported[[2]string{x.Name, y.Name}] = true
				}
			}
		}
	}
	found := map[string]int{}
	total := 0
	for _, p := range planted {
		if reported[p] {
			found[p[1][strings.LastIndexByte(p[1], '-')+1:]]++
			total++
		}
	}
	recall = float64(total) / float64(len(planted))
	precision = float64(tp) / float64(max(tp+fp, 1))
	return recall, precision, fmt.Sprintf("found %v of %d each, %d true and %d false pairs, bounded %q", found, len(planted)/4, tp, fp, r.Bounded)
}

// TestNearDuplicates_ExactNeverNear: two exact copies and a near copy of
// them are an exact finding and a near one; the exact pair is never listed
// as near, whatever the threshold.
func TestNearDuplicates_ExactNeverNear(t *testing.T) {
	deploy := "Deploy billing with kubectl rollout to staging, then canary five percent, smoke tests, undo on errors."
	kv := append(filler(40), "a", deploy, "b", strings.ToUpper(deploy), "c", deploy+" Page the on-call engineer when the canary fails twice.")
	for _, th := range []float64{0.3, 0.5, DefaultMinSimilarity} {
		r := Run(entries(kv...), Options{Kinds: []Kind{Duplicate}, MinSimilarity: th})
		got := checks(r, Duplicate)
		if fmt.Sprint(got) != "[exact:a,b near:a,c]" {
			t.Errorf("at %.2f: %q, want [exact:a,b near:a,c]", th, got)
		}
	}
}

// TestDuplicates_OrderFixed: notes each with an exact copy and a copy
// with other punctuation (the same words: a near pair of similarity 1
// through the same first entry) are listed in the same order on every run, each exact finding
// before the near one; with ties the order came from maps before.
func TestDuplicates_OrderFixed(t *testing.T) {
	kv := filler(40)
	for i := range 20 {
		words := strings.Fields(fmt.Sprintf("Deploy billing%d with%d kubectl%d rollout%d to staging%d then canary%d five percent and run smoke%d tests", i, i, i, i, i, i, i))
		note := strings.Join(words, " ")
		kv = append(kv, fmt.Sprintf("a%d", i), note, fmt.Sprintf("b%d", i), note, fmt.Sprintf("c%d", i), strings.Join(words, ", ")+"!")
	}
	es := entries(kv...)
	var first []string
	for run := range 30 {
		r := Run(es, Options{Kinds: []Kind{Duplicate}})
		got := checks(r, Duplicate)
		if run == 0 {
			first = got
			for _, f := range r.Findings {
				if f.Duplicate.Similarity != 1 {
					t.Fatalf("%s %s: similarity %v; the test needs ties at 1", f.Check, names(f.Entries), f.Duplicate.Similarity)
				}
			}
			for i := 0; i+1 < len(got); i += 2 {
				if !strings.HasPrefix(got[i], "exact:") || !strings.HasPrefix(got[i+1], "near:") {
					t.Fatalf("%q: want each exact finding before the near one of the same first entry", got)
				}
			}
		} else if !slices.Equal(got, first) {
			t.Fatalf("run %d: %q, run 0: %q", run, got, first)
		}
	}
}
