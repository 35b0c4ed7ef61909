package textdiff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzDiff: from any two texts, the diff rebuilds both, its numbers and
// spans are well formed, its hunks hold every change (check), and when
// not bounded it is minimal: as many lines kept as their longest common
// subsequence.
func FuzzDiff(f *testing.F) {
	for _, s := range [][2]string{
		{"", ""},
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"a\nb", "a\nb\n"},
		{"port 8080 on host\n", "port 9090 on host\n"},
		{"東京は晴れです\n", "東京は雨です"},
		{"owner 🚀 team\nnai\u0308ve\n", "owner 👩‍💻 team\nnaive\n"},
		{"x\xff\xfey\n\n", "\xffx\n\ny"},
		{"a\nb\nc\nd\ne\nf\ng\n", "g\nf\ne\nd\nc\nb\na\n"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		r := Diff(a, b)
		if err := check(a, b, r); err != nil {
			t.Fatal(err)
		}
		if r.Bounded {
			return
		}
		la, lb := splitLines(a), splitLines(b)
		if len(la)*len(lb) > 1<<16 {
			return
		}
		kept := 0
		for _, l := range r.Lines {
			if l.Op == ' ' {
				kept++
			}
		}
		if want := lcs(la, lb); kept != want {
			t.Fatalf("%d lines kept, the longest common subsequence has %d", kept, want)
		}
	})
}

// lcs is the length of the longest common subsequence of a and b, by the
// quadratic table.
func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestDiff_Minimal compares the lines kept with the longest common
// subsequence on texts of few distinct lines, where many alignments tie.
func TestDiff_Minimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('a' + r.IntN(4)))
			b.WriteByte('\n')
		}
		return b.String()
	}
	for s := range 200 {
		a, b := gen(5+s%40), gen(3+s%37)
		r := Diff(a, b)
		if err := check(a, b, r); err != nil {
			t.Fatalf("seed %d: %v", s, err)
		}
		kept := 0
		for _, l := range r.Lines {
			if l.Op == ' ' {
				kept++
			}
		}
		if want := lcs(splitLines(a), splitLines(b)); kept != want || r.Bounded {
			t.Fatalf("seed %d: %d kept, want %d (bounded %v)", s, kept, want, r.Bounded)
		}
	}
}

// FuzzSharedEnds: comparing only what the shared ends of two lines leave
// gives the spans that comparing the whole lines gives.
func FuzzSharedEnds(f *testing.F) {
	for _, s := range [][2]string{
		{"port 8080 on host", "port 9090 on host"},
		{"a b\tc", "a b c"},
		{"x x", "x x x"},
		{"keep  alpha omega", "keep \u00a0alpha omega"},
		{"one two three", "one two\u0301 three"},
		{"東京 は 晴れ", "東京 は 雨"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		trimmed := wordDiff{budget: maxWordWork}
		whole := wordDiff{budget: maxWordWork, whole: true}
		ta, tb, tok := trimmed.compare(a, b)
		wa, wb, wok := whole.compare(a, b)
		if !tok || !wok {
			return // a bound: the lines are too long for one or the other
		}
		if fmt.Sprint(ta, tb) != fmt.Sprint(wa, wb) || (ta == nil) != (wa == nil) {
			t.Fatalf("%q %q: trimmed %v %v, whole %v %v", a, b, ta, tb, wa, wb)
		}
	})
}
