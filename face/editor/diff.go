package editor

import (
	"strings"
)

// DiffOp says which side a diff line comes from.
type DiffOp rune

// The kinds of diff line.
const (
	DiffSame   DiffOp = ' ' // in both texts (context)
	DiffTheirs DiffOp = '-' // only in theirs
	DiffMine   DiffOp = '+' // only in mine
	DiffSkip   DiffOp = '…' // unchanged lines left out
)

// DiffLine is one line of a compact line diff.
type DiffLine struct {
	Op   DiffOp
	Text string // for DiffSkip, empty
}

// maxDiffCells bounds the LCS table (lines of theirs × lines of mine left
// after the common head and tail); beyond it the middle is shown as
// replaced whole, which is still correct, only less compact.
const maxDiffCells = 1 << 20

// LineDiff compares theirs with mine line by line and returns the lines
// that differ, each changed run with up to context unchanged lines around
// it; longer unchanged runs become one DiffSkip line.
func LineDiff(theirs, mine string, context int) []DiffLine {
	a, b := strings.Split(theirs, "\n"), strings.Split(mine, "\n")
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var all []DiffLine
	for _, s := range a[:head] {
		all = append(all, DiffLine{DiffSame, s})
	}
	all = append(all, middleDiff(a[head:len(a)-tail], b[head:len(b)-tail])...)
	for _, s := range a[len(a)-tail:] {
		all = append(all, DiffLine{DiffSame, s})
	}
	return compact(all, context)
}

// middleDiff diffs two runs of lines by their longest common subsequence.
func middleDiff(a, b []string) []DiffLine {
	var out []DiffLine
	if len(a)*len(b) > maxDiffCells || len(a) == 0 || len(b) == 0 {
		for _, s := range a {
			out = append(out, DiffLine{DiffTheirs, s})
		}
		for _, s := range b {
			out = append(out, DiffLine{DiffMine, s})
		}
		return out
	}
	// lcs[i*(len(b)+1)+j] is the LCS length of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, DiffLine{DiffSame, a[i]})
			i, j = i+1, j+1
		case j == len(b) || i < len(a) && lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			out = append(out, DiffLine{DiffTheirs, a[i]})
			i++
		default:
			out = append(out, DiffLine{DiffMine, b[j]})
			j++
		}
	}
	return out
}

// compact keeps context unchanged lines around each change and folds the
// rest into DiffSkip lines.
func compact(all []DiffLine, context int) []DiffLine {
	keep := make([]bool, len(all))
	for i, l := range all {
		if l.Op == DiffSame {
			continue
		}
		for k := max(i-context, 0); k <= min(i+context, len(all)-1); k++ {
			keep[k] = true
		}
	}
	var out []DiffLine
	for i, l := range all {
		switch {
		case keep[i]:
			out = append(out, l)
		case len(out) == 0 || out[len(out)-1].Op != DiffSkip:
			out = append(out, DiffLine{Op: DiffSkip})
		}
	}
	return out
}
