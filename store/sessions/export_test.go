package sessions

import "slices"

// Dangling returns, sorted, the archives that compact markers name but that
// exists reports missing from the memory. Names are matched as exists
// decides: pass a lookup that resolves aliases to follow SPEC §2. (`crmem
// check` needs each marker's session and resume flag, so it walks the
// sessions itself.)
func Dangling(r Refs, exists func(archive string) bool) []string {
	var out []string
	for a := range r.ReferencedBy {
		if !exists(a) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}
