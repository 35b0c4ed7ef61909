package textdiff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Worst cases for the work bounds: texts at the size of the largest entry
// (1 MiB), each shaped to make one part of the diff work hardest.

// lines is n lines made by line(i), each ended by a newline.
func lines(n int, line func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(line(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// junk is n random bytes, newlines among them.
func junk(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return string(b)
}

// words is n random words of a small vocabulary, spaced, on one line.
func words(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "w%d", r.IntN(50))
	}
	return b.String()
}

// benchDiff measures Diff(a, b), reporting the lines changed and
// whether the diff was bounded.
func benchDiff(b *testing.B, a, c string) {
	b.ReportAllocs()
	b.SetBytes(int64(len(a) + len(c)))
	var r Result
	for b.Loop() {
		r = Diff(a, c)
	}
	del, add := r.Changes()
	b.ReportMetric(float64(del+add), "changes")
	if r.Bounded {
		b.ReportMetric(1, "bounded")
	}
}

// An entry of 100 lines with two changed: what a diff usually is.
func BenchmarkDiff_TypicalEntry(b *testing.B) {
	entry := lines(100, func(i int) string { return fmt.Sprintf("line %d of a typical entry, some words", i) })
	edited := strings.Replace(strings.Replace(entry, "line 40 of", "line forty of", 1), "line 70 of a", "line 70 in a", 1)
	benchDiff(b, entry, edited)
}

// 100,000 lines, one changed in the middle: the shared ends compared,
// not numbered.
func BenchmarkDiff_OneLineChanged100k(b *testing.B) {
	a := lines(100000, func(i int) string { return fmt.Sprintf("entry line %d", i) })
	benchDiff(b, a, strings.Replace(a, "line 50000\n", "line fifty thousand\n", 1))
}

// 100,000 lines, none shared: Myers' bound, then no anchors, all coarse.
func BenchmarkDiff_AllLinesDiffer100k(b *testing.B) {
	benchDiff(b, lines(100000, func(i int) string { return fmt.Sprintf("a line %d", i) }),
		lines(100000, func(i int) string { return fmt.Sprintf("b line %d", i) }))
}

// 100,000 lines, one in fifty changed: Myers' bound, then 2,000 anchored
// pieces and as many pairs.
func BenchmarkDiff_EveryFiftiethLine100k(b *testing.B) {
	benchDiff(b, lines(100000, func(i int) string { return fmt.Sprintf("entry line %d", i) }),
		lines(100000, func(i int) string {
			if i%50 == 0 {
				return fmt.Sprintf("entry line %d changed", i)
			}
			return fmt.Sprintf("entry line %d", i)
		}))
}

// 50,000 lines, every one changed: no anchors, all coarse.
func BenchmarkDiff_EveryLineEdited50k(b *testing.B) {
	benchDiff(b, lines(50000, func(i int) string { return fmt.Sprintf("key %d value %d unit", i, i) }),
		lines(50000, func(i int) string { return fmt.Sprintf("key %d value %d unit", i, i+1) }))
}

// 10,000 lines of 100 bytes, every other changed at both ends: 5,000
// pairs compared word by word.
func BenchmarkDiff_EveryOtherLineEdited1MiB(b *testing.B) {
	wordy := " of the kind that goes on and on with many words in it, more than a line of an entry usually has"
	wordy2 := strings.Replace(strings.Replace(wordy, "of", "on", 1), "has", "had", 1)
	benchDiff(b, lines(10000, func(i int) string { return fmt.Sprintf("line %d%s", i, wordy) }),
		lines(10000, func(i int) string {
			if i%2 == 0 {
				return fmt.Sprintf("line %d%s", i, wordy2)
			}
			return fmt.Sprintf("line %d%s", i, wordy)
		}))
}

// One line of 200,000 random words each side: too long to compare word
// by word.
func BenchmarkDiff_OneLongLine1MiB(b *testing.B) {
	benchDiff(b, words(1, 200000), words(2, 200000))
}

// One line of a megabyte with a word added: compared past its shared ends.
func BenchmarkDiff_OneLongLineOneWord(b *testing.B) {
	long := words(1, 200000)
	benchDiff(b, long, strings.Replace(long, " ", " new ", 1))
}

// A megabyte of random bytes each side, newlines among them.
func BenchmarkDiff_Binary1MiB(b *testing.B) {
	benchDiff(b, junk(1, 1<<20), junk(2, 1<<20))
}

// 100,000 lines each held once, shuffled: about 600 anchors, and pieces
// between them too large for the budget.
func BenchmarkDiff_ShuffledLines100k(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	perm := r.Perm(100000)
	benchDiff(b, lines(100000, func(i int) string { return fmt.Sprintf("line %d", i) }),
		lines(100000, func(i int) string { return fmt.Sprintf("line %d", perm[i]) }))
}

// 20,000 lines reversed: every line held once, one anchor at most.
func BenchmarkDiff_ReversedLines20k(b *testing.B) {
	benchDiff(b, lines(20000, func(i int) string { return fmt.Sprint(i) }),
		lines(20000, func(i int) string { return fmt.Sprint(19999 - i) }))
}

// BenchmarkIntern: numbering 200,000 distinct lines by the interner and
// by a map, A/B in the same run.
func BenchmarkIntern(b *testing.B) {
	ss := splitLines(lines(200000, func(i int) string { return fmt.Sprintf("a line %d", i) }))
	b.Run("interner", func(b *testing.B) {
		for b.Loop() {
			newInterner(len(ss)).number(ss)
		}
	})
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			ids := make(map[string]int32, len(ss))
			out := make([]int32, len(ss))
			for i, s := range ss {
				id, ok := ids[s]
				if !ok {
					id = int32(len(ids))
					ids[s] = id
				}
				out[i] = id
			}
		}
	})
}
