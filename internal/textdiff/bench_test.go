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

func benchCases() []struct {
	name string
	a, b string
} {
	entry := lines(100, func(i int) string { return fmt.Sprintf("line %d of a typical entry, some words", i) })
	entry2 := strings.Replace(strings.Replace(entry, "line 40 of", "line forty of", 1), "line 70 of a", "line 70 in a", 1)
	scatter := lines(100000, func(i int) string { return fmt.Sprintf("entry line %d", i) })
	scatter2 := lines(100000, func(i int) string {
		if i%50 == 0 {
			return fmt.Sprintf("entry line %d changed", i)
		}
		return fmt.Sprintf("entry line %d", i)
	})
	long := words(1, 200000)
	wordy := " of the kind that goes on and on with many words in it, more than a line of an entry usually has"
	wordy2 := strings.Replace(strings.Replace(wordy, "of", "on", 1), "has", "had", 1)
	return []struct {
		name string
		a, b string
	}{
		{"TypicalEntry", entry, entry2},
		{"AllLinesDiffer100k", lines(100000, func(i int) string { return fmt.Sprintf("a line %d", i) }), lines(100000, func(i int) string { return fmt.Sprintf("b line %d", i) })},
		{"EveryFiftiethLine100k", scatter, scatter2},
		{"EveryLineEdited50k", lines(50000, func(i int) string { return fmt.Sprintf("key %d value %d unit", i, i) }), lines(50000, func(i int) string { return fmt.Sprintf("key %d value %d unit", i, i+1) })},
		{"EveryOtherLineEdited1MiB", lines(10000, func(i int) string { return fmt.Sprintf("line %d%s", i, wordy) }), lines(10000, func(i int) string {
			if i%2 == 0 {
				return fmt.Sprintf("line %d%s", i, wordy2)
			}
			return fmt.Sprintf("line %d%s", i, wordy)
		})},
		{"OneLongLine1MiB", long, words(2, 200000)},
		{"OneLongLineOneWord", long, strings.Replace(long, " ", " new ", 1)},
		{"Binary1MiB", junk(1, 1<<20), junk(2, 1<<20)},
		{"ReversedLines20k", lines(20000, func(i int) string { return fmt.Sprint(i) }), lines(20000, func(i int) string { return fmt.Sprint(19999 - i) })},
	}
}

func BenchmarkDiff(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.a) + len(c.b)))
			var r Result
			for b.Loop() {
				r = Diff(c.a, c.b)
			}
			del, add := r.Changes()
			b.ReportMetric(float64(del+add), "changes")
			if r.Bounded {
				b.ReportMetric(1, "bounded")
			}
		})
	}
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
