package hygiene

import "strings"

// MaxDiffLines bounds the lines of either text Diff compares (its table is
// the product of the two counts).
const MaxDiffLines = 2000

// DiffLine is one line of a line diff: Op is ' ' (in both), '-' (only in
// the first text) or '+' (only in the second).
type DiffLine struct {
	Op   byte   `json:"op"`
	Text string `json:"text"`
}

// Diff returns the line diff from a to b: their longest common subsequence
// of lines kept, the rest removed or added, removals before additions.
// Secrets in either text are masked first (MaskStrict: by the rules and
// by their shape), so no line shows one
// whole, even one spread over several lines (a private key). It returns
// false, and no lines, when either text has more than MaxDiffLines lines.
func Diff(a, b string) ([]DiffLine, bool) {
	if strings.Count(a, "\n") >= MaxDiffLines || strings.Count(b, "\n") >= MaxDiffLines {
		return nil, false
	}
	a, b = MaskStrict(a), MaskStrict(b)
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(la) > MaxDiffLines || len(lb) > MaxDiffLines {
		return nil, false
	}
	lcs := lcsTable(la, lb)
	var out []DiffLine
	i, j := 0, 0
	for i < len(la) || j < len(lb) {
		switch {
		case i < len(la) && j < len(lb) && la[i] == lb[j]:
			out = append(out, DiffLine{' ', la[i]})
			i, j = i+1, j+1
		case j == len(lb) || (i < len(la) && lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, DiffLine{'-', la[i]})
			i++
		default:
			out = append(out, DiffLine{'+', lb[j]})
			j++
		}
	}
	return out, true
}

// lcsTable is t[i][j] = the length of the longest common subsequence of
// a[i:] and b[j:].
func lcsTable(a, b []string) [][]int32 {
	t := make([][]int32, len(a)+1)
	for i := range t {
		t[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t
}
