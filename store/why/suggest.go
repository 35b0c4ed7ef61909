package why

import (
	"cmp"
	"github.com/crmem/crmem/internal/editdist"
	"slices"
	"strings"

	"github.com/crmem/crmem/store"
)

// maxSuggestions is how many names a "did you mean" offers at most.
const maxSuggestions = 3

// Suggest returns up to three entry names (or aliases) close to name, best
// first: those a few edits away (one for a name of up to three letters,
// two up to eight, three beyond), then those containing it or contained in
// it, case ignored.
func Suggest(m *store.Memory, name string) []string {
	want := []rune(strings.ToLower(name))
	limit := 1
	switch {
	case len(want) > 8:
		limit = 3
	case len(want) > 3:
		limit = 2
	}
	type cand struct {
		name string
		dist int
	}
	var found []cand
	seen := map[string]bool{}
	consider := func(n string) {
		if seen[n] || n == name {
			return
		}
		seen[n] = true
		low := strings.ToLower(n)
		d := editdist.OSA(want, []rune(low))
		if d > limit {
			if len(want) < 3 || !strings.Contains(low, string(want)) && !strings.Contains(string(want), low) {
				return
			}
			d = limit + 1 // a containment ranks after every near spelling
		}
		found = append(found, cand{n, d})
	}
	for _, e := range m.Entries() {
		consider(e.Name)
		for _, a := range e.Aliases {
			consider(a)
		}
	}
	slices.SortFunc(found, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(len(a.name), len(b.name)), strings.Compare(a.name, b.name))
	})
	out := []string{}
	for _, c := range found[:min(len(found), maxSuggestions)] {
		out = append(out, c.name)
	}
	return out
}
