// Package editdist measures how far apart two sequences are, for "did you
// mean" suggestions (mistyped commands, entry names).
package editdist

// OSA is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and swaps of two neighbouring
// elements each count one. Compare bytes for ASCII words (commands),
// runes for names.
func OSA[T comparable](a, b []T) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
