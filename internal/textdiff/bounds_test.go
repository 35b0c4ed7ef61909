package textdiff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestInterner(t *testing.T) {
	for _, size := range []int{0, 1, 3, 100} { // below the strings' count: the table grows
		in := newInterner(size)
		ss := []string{"a", "b", "", "a", "c", "b", "", "d", "e", "f", "g", "a"}
		got := fmt.Sprint(in.number(ss))
		if want := "[0 1 2 0 3 1 2 4 5 6 7 0]"; got != want {
			t.Errorf("sized %d: %s, want %s", size, got, want)
		}
		in.reset()
		if got := fmt.Sprint(in.number([]string{"z", "a", "z"})); got != "[0 1 0]" {
			t.Errorf("sized %d, reset: %s", size, got)
		}
	}
}

// TestDiff_AllDifferent: texts of 100,000 lines, none shared, are past
// the bound: every line of one removed and every line of the other
// added, Bounded, and no pair compared word by word (the order of a part
// given up says nothing of which line became which).
func TestDiff_AllDifferent(t *testing.T) {
	a := lines(100000, func(i int) string { return fmt.Sprintf("a line %d", i) })
	b := lines(100000, func(i int) string { return fmt.Sprintf("b line %d", i) })
	r := Diff(a, b)
	if !r.Bounded {
		t.Error("not bounded")
	}
	for i, l := range r.Lines {
		if want := byte(opDel); i >= 100000 {
			want = opIns
			if l.Op != want {
				t.Fatalf("line %d: %c", i, l.Op)
			}
		} else if l.Op != want {
			t.Fatalf("line %d: %c", i, l.Op)
		}
		if l.Changed != nil {
			t.Fatalf("line %d %q: spans %v in a part given up", i, l.Text, l.Changed)
		}
	}
	if err := check(a, b, r); err != nil {
		t.Fatal(err)
	}
}

// TestDiff_AnchorsPastTheBound: one line in fifty of 100,000 changed is
// past Myers' bound, but the lines each text holds once cut it into small
// pieces: exactly the changed lines removed and added, paired word by
// word, not Bounded.
func TestDiff_AnchorsPastTheBound(t *testing.T) {
	a := lines(100000, func(i int) string { return fmt.Sprintf("entry line %d", i) })
	b := lines(100000, func(i int) string {
		if i%50 == 0 {
			return fmt.Sprintf("entry line %d changed", i)
		}
		return fmt.Sprintf("entry line %d", i)
	})
	r := Diff(a, b)
	if del, add := r.Changes(); del != 2000 || add != 2000 || r.Bounded {
		t.Fatalf("%d removed, %d added, bounded %v; want 2000, 2000, false", del, add, r.Bounded)
	}
	for _, l := range r.Lines {
		if l.Op == opIns && fmt.Sprint(changedText(l)) != "[ changed]" {
			t.Fatalf("%q: changed %q", l.Text, changedText(l))
		}
	}
	if err := check(a, b, r); err != nil {
		t.Fatal(err)
	}
}

// TestDiff_LongLinesNotWordCompared: two lines of 100 KiB changed at
// both ends are not compared word by word (what they do not share at
// their ends is too long), and say so; one of a megabyte with a word
// added is, as only what the two lines do not share at their ends is
// compared.
func TestDiff_LongLinesNotWordCompared(t *testing.T) {
	middle := words(1, 20000)
	a, b := "start "+middle+" end", "begin "+middle+" finish"
	r := Diff(a, b)
	if !r.Bounded || r.Lines[0].Changed != nil || r.Lines[1].Changed != nil {
		t.Errorf("different long lines: bounded %v, spans %d and %d", r.Bounded, len(r.Lines[0].Changed), len(r.Lines[1].Changed))
	}
	long := words(3, 200000)
	r = Diff(long, strings.Replace(long, " ", " new ", 1))
	if r.Bounded || fmt.Sprint(changedText(r.Lines[1])) != "[new ]" || len(r.Lines[0].Changed) != 0 {
		t.Errorf("a word added to a long line: bounded %v, spans %q and %q", r.Bounded, changedText(r.Lines[0]), changedText(r.Lines[1]))
	}
}

// TestDiff_WordBudget: pairs of long lines changed at both ends, each
// pair in a block of its own, spend the word budget: the first pairs are
// compared, the last are not, and pairWords says so (Diff's Bounded).
func TestDiff_WordBudget(t *testing.T) {
	long := " of the kind that goes on and on with many words in it, more than a line of an entry usually has"
	a := lines(1000, func(i int) string {
		return fmt.Sprintf("line %d%s", i, long)
	})
	b := lines(1000, func(i int) string {
		if i%2 == 0 {
			return fmt.Sprintf("line %d%s", i, strings.Replace(strings.Replace(long, "of", "on", 1), "has", "had", 1))
		}
		return fmt.Sprintf("line %d%s", i, long)
	})
	r := Diff(a, b)
	if r.Bounded {
		t.Fatal("bounded within the budget")
	}
	ls := r.Lines
	for i := range ls {
		ls[i].Changed = nil
	}
	if pairWords(ls, nil, 20000) {
		t.Error("pairWords did not say it ran out of budget")
	}
	first, last := ls[1], ls[len(ls)-2]
	if fmt.Sprint(changedText(first)) != "[on had]" || last.Op != opIns || last.Changed != nil {
		t.Errorf("first pair %q %q, last %c %q", first.Text, changedText(first), last.Op, changedText(last))
	}
	if err := check(a, b, r); err != nil {
		t.Fatal(err)
	}
}

// TestTooFar: tooFar says Myers' search would run past its budget only
// where it does, so skipping it changes no diff.
func TestTooFar(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	gen := func(n, alphabet int) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(r.IntN(alphabet))
		}
		return out
	}
	skipped := 0
	for s := range 300 {
		a, b := gen(1+s%30, 3+s%20), gen(1+s%23, 3+s%17)
		for _, budget := range []int{1, 3, 10, 30, 100} {
			if !tooFar(a, b, budget) {
				continue
			}
			skipped++
			if ops, _, exact := myers(a, b, budget); exact == len(ops) {
				t.Fatalf("%v %v budget %d: tooFar, but Myers' search finished", a, b, budget)
			}
		}
	}
	if skipped == 0 {
		t.Fatal("tooFar never said so")
	}
	all := make([]int32, 1000)
	other := make([]int32, 1000)
	for i := range all {
		all[i], other[i] = int32(i), int32(1000+i)
	}
	if !tooFar(all, other, maxLineWork/2) || tooFar(all, all[1:], maxLineWork/2) {
		t.Error("tooFar: 1,000 lines each different should be, one line removed should not")
	}
}

// TestScript_SmallBudgets runs the bounded paths (the furthest point of a
// search cut short, the anchors, pieces past the budget) on small
// sequences with budgets from nothing up: every script keeps only equal
// symbols, consumes both sequences, has its removals first in each run,
// and its coarse ranges ascend inside it; with a budget large enough it
// is not coarse.
func TestScript_SmallBudgets(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	gen := func(n, alphabet int) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(r.IntN(alphabet))
		}
		return out
	}
	coarseSeen, anchorsSeen := 0, 0
	for s := range 400 {
		a, b := gen(r.IntN(40), 2+s%60), gen(r.IntN(40), 2+s%60)
		for _, budget := range []int{0, 1, 2, 5, 10, 20, 50, 100, 1 << 20} {
			e := script(a, b, budget)
			if err := checkScript(a, b, e); err != nil {
				t.Fatalf("%v %v budget %d: %v (ops %q, coarse %v)", a, b, budget, err, e.ops, e.coarse)
			}
			if len(e.coarse) > 0 {
				coarseSeen++
				if budget == 1<<20 {
					t.Fatalf("%v %v: coarse with the whole budget", a, b)
				}
			}
			if len(anchors(a, b)) > 0 && budget < 20 {
				anchorsSeen++
			}
		}
	}
	if coarseSeen == 0 || anchorsSeen == 0 {
		t.Errorf("the bounded paths were not taken: %d coarse, %d with anchors", coarseSeen, anchorsSeen)
	}
}

func checkScript(a, b []int32, e edits) error {
	i, j := 0, 0
	for k, op := range e.ops {
		switch op {
		case opSame:
			if i >= len(a) || j >= len(b) || a[i] != b[j] {
				return fmt.Errorf("step %d keeps unequal or missing symbols", k)
			}
			i, j = i+1, j+1
		case opDel:
			if k > 0 && e.ops[k-1] == opIns {
				return fmt.Errorf("step %d: a removal after an addition", k)
			}
			i++
		case opIns:
			j++
		}
	}
	if i != len(a) || j != len(b) {
		return fmt.Errorf("consumed %d of %d and %d of %d", i, len(a), j, len(b))
	}
	at := 0
	for _, c := range e.coarse {
		if c[0] < at || c[1] <= c[0] || c[1] > len(e.ops) {
			return fmt.Errorf("coarse range %v", c)
		}
		at = c[1]
	}
	return nil
}
