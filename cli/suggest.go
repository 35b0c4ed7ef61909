package cli

import (
	"github.com/crmem/crmem/internal/editdist"
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
		d := editdist.OSA([]byte(word), []byte(name))
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

// abs is |n|.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
