package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// maxTypoEdits is how far a word may be from a command name to be taken
// for a mistyped command; a word of up to shortWord letters may be one
// edit away only (two edits turn "cd" into "add").
const (
	maxTypoEdits = 2
	shortWord    = 3
)

// closestCommand returns the name of root's command nearest to word (edit
// distance counting a swap of two neighbouring letters as one edit, case
// ignored), or "" when none is close enough (maxTypoEdits, one for a
// short word, and never every letter changed). Ties go to the name
// that starts with the same letter, then to the one whose length is
// closest, then alphabetically.
func closestCommand(root *cobra.Command, word string) string {
	word = strings.ToLower(word)
	limit := maxTypoEdits
	if len(word) <= shortWord {
		limit = 1
	}
	best, bestKey := "", typoKey{dist: limit + 1}
	for _, name := range commandNames(root) {
		d := editDistance(word, name)
		if d > limit || d >= max(len(word), len(name)) {
			continue
		}
		k := typoKey{dist: d, otherFirst: word[0] != name[0], lenDiff: abs(len(word) - len(name)), name: name}
		if k.less(bestKey) {
			best, bestKey = name, k
		}
	}
	return best
}

// typoKey orders candidate commands for a typed word, best first.
type typoKey struct {
	dist       int
	otherFirst bool // the first letter differs
	lenDiff    int
	name       string
}

// less reports whether k is a better suggestion than o.
func (k typoKey) less(o typoKey) bool {
	switch {
	case k.dist != o.dist:
		return k.dist < o.dist
	case k.otherFirst != o.otherFirst:
		return !k.otherFirst
	case k.lenDiff != o.lenDiff:
		return k.lenDiff < o.lenDiff
	}
	return k.name < o.name
}

// commandNames are the names (and aliases) a user can type after crmem:
// every subcommand, hidden ones (man) included, but not cobra's internal
// __complete.
func commandNames(root *cobra.Command) []string {
	var out []string
	for _, c := range root.Commands() {
		if strings.HasPrefix(c.Name(), "__") {
			continue
		}
		out = append(out, c.Name())
		out = append(out, c.Aliases...)
	}
	return out
}

// editDistance is the optimal-string-alignment distance between a and b,
// by bytes: insertions, deletions, substitutions and swaps of two
// neighbouring bytes each cost one.
func editDistance(a, b string) int {
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

// abs is |n|.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
