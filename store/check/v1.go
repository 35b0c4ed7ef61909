package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// v1Anomalies lists the SPEC §1 oddities of a decoded file.
func v1Anomalies(f *store.File) []Anomaly {
	out := []Anomaly{}
	if f.Trailing > 0 {
		out = append(out, Anomaly{Kind: "trailing_bytes", Detail: fmt.Sprintf("%s bytes after the last entry (ignored on read, dropped on the next write)", humanize.Count(f.Trailing))})
	}
	out = append(out, duplicates(f.Entries)...)
	out = append(out, nextIDAnomalies(f)...)
	out = append(out, aliasAnomalies(f.Entries)...)
	for _, e := range f.Entries {
		if err := store.ValidName(e.Name); err != nil {
			out = append(out, Anomaly{Kind: "unsafe_name", Detail: fmt.Sprintf("entry %d %q: %v (dump cannot write it; rename it)", e.ID, e.Name, err)})
		}
	}
	return out
}

// nextIDAnomalies reports a next_id not above the ids (the next entry
// gets the id store.NextIDFor says, as add gives it), an entry holding the
// reserved id 2^64−1, and a memory with no id left.
func nextIDAnomalies(f *store.File) []Anomaly {
	var out []Anomaly
	next := store.NextIDFor(f.NextID, f.Entries)
	if next != max(f.NextID, 1) {
		out = append(out, Anomaly{Kind: "stale_next_id", Detail: fmt.Sprintf("next_id %d is not above the largest id %d (the next entry still gets id %d)", f.NextID, next-1, next)})
	}
	for _, e := range f.Entries {
		if e.ID == store.ReservedID {
			out = append(out, Anomaly{Kind: "reserved_id", Detail: fmt.Sprintf("entry %q has id %d, the largest there is: kept, but ids are counted below it (the next entry gets id %d) and import refuses it", e.Name, e.ID, next)})
		}
	}
	if next == store.ReservedID {
		out = append(out, Anomaly{Kind: "no_ids_left", Detail: fmt.Sprintf("next_id is %d: add fails with \"no ids left\"", next)})
	}
	return out
}

// duplicates reports names and ids used by more than one entry, in the
// order each first appears, with the ids or names in file order. Entries
// are counted first, so only the repeated ones cost more than a map
// increment.
func duplicates(entries []store.Entry) []Anomaly {
	names := make(map[string]int, len(entries))
	for _, e := range entries {
		names[e.Name]++
	}
	out := duplicateNames(entries, names)
	if idsAscend(entries) {
		return out // none repeats
	}
	ids := make(map[uint64]int, len(entries))
	for _, e := range entries {
		ids[e.ID]++
	}
	return append(out, duplicateIDs(entries, ids)...)
}

// idsAscend reports whether the entries' ids strictly ascend, as in every
// file crmem or the reference writes.
func idsAscend(entries []store.Entry) bool {
	for i := 1; i < len(entries); i++ {
		if entries[i].ID <= entries[i-1].ID {
			return false
		}
	}
	return true
}

// duplicateNames reports each name counted more than once.
func duplicateNames(entries []store.Entry, count map[string]int) []Anomaly {
	var out []Anomaly
	var ids map[string][]uint64
	var order []string
	for _, e := range entries {
		if count[e.Name] < 2 {
			continue
		}
		if ids == nil {
			ids = map[string][]uint64{}
		}
		if len(ids[e.Name]) == 0 {
			order = append(order, e.Name)
		}
		ids[e.Name] = append(ids[e.Name], e.ID)
	}
	for _, n := range order {
		out = append(out, Anomaly{Kind: "duplicate_name", Detail: fmt.Sprintf("%q is the name of %d entries (ids %s); lookup finds the last in file order", n, len(ids[n]), joinIDs(ids[n]))})
	}
	return out
}

// duplicateIDs reports each id counted more than once.
func duplicateIDs(entries []store.Entry, count map[uint64]int) []Anomaly {
	var out []Anomaly
	namesOf := map[uint64][]string{}
	for _, e := range entries {
		if count[e.ID] > 1 {
			namesOf[e.ID] = append(namesOf[e.ID], fmt.Sprintf("%q", e.Name))
		}
	}
	for _, e := range entries {
		if count[e.ID] > 1 {
			out = append(out, Anomaly{Kind: "duplicate_id", Detail: fmt.Sprintf("id %d is used by %s entries (%s); every write keeps them all", e.ID, humanize.Count(count[e.ID]), strings.Join(namesOf[e.ID], ", "))})
			count[e.ID] = 0
		}
	}
	return out
}

// aliasAnomalies reports aliases held by several entries and aliases equal
// to another entry's name.
func aliasAnomalies(entries []store.Entry) []Anomaly {
	var out []Anomaly
	names := map[string]bool{}
	holders := map[string][]string{}
	var order []string
	for _, e := range entries {
		names[e.Name] = true
		for i, al := range e.Aliases {
			if slices.Contains(e.Aliases[:i], al) {
				continue // listed twice: held once
			}
			if len(holders[al]) == 0 {
				order = append(order, al)
			}
			holders[al] = append(holders[al], e.Name)
		}
	}
	for _, al := range order {
		if hs := holders[al]; len(hs) > 1 {
			out = append(out, Anomaly{Kind: "shared_alias", Detail: fmt.Sprintf("alias %q belongs to %d entries (%s); it resolves to the lowest id", al, len(hs), someQuoted(hs)), Entries: hs})
		}
		if names[al] && !slices.Equal(holders[al], []string{al}) {
			others := otherThan(holders[al], al)
			out = append(out, Anomaly{Kind: "alias_is_name", Detail: fmt.Sprintf("alias %q of %s is also an entry's name; the name wins", al, someQuoted(others)), Entries: others})
		}
	}
	return out
}

// otherThan drops s from ss.
func otherThan(ss []string, s string) []string {
	return slices.DeleteFunc(slices.Clone(ss), func(x string) bool { return x == s })
}

// joinIDs formats ids as "1, 2".
func joinIDs(ids []uint64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}
