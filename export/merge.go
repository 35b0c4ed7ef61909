package export

import (
	"slices"

	"github.com/crmem/crmem/store"
)

// MergeMode says what a merge keeps of an incoming entry.
type MergeMode int

const (
	// MergeTree is for load --merge and the legacy imports: an entry with
	// the same name gets the incoming content and aliases and keeps its id,
	// kind and created_at (an Update); if the incoming kind differs, the
	// entry is replaced under the same id and created_at with the new kind
	// (Remove then Restore). New entries are added with the next ids and
	// the incoming created_at.
	MergeTree MergeMode = iota
	// MergeExact is for import --from jsonl --merge, a lossless merge: an
	// entry with the same name is replaced by the incoming one (content,
	// aliases, kind and created_at) under its existing id (Remove then
	// Restore); a new entry keeps its id when no entry has it (Restore),
	// else it is added with the next id.
	MergeExact
)

// Plan is the operations of a merge, to be applied in one DB.Apply call, and
// what they do.
type Plan struct {
	Ops                        []store.Op
	Replaced, Added, Unchanged int
}

// MergeOps plans merging incoming into current by name: same-named entries
// are replaced (as mode says), others are added, and entries of current
// not in incoming are kept. Names are matched exactly (not via aliases);
// when current has two entries with one name, the later one in order is
// the one replaced, as lookup would find it. Entries that would not change
// are left out. Ops with explicit ids come before Adds, so that an added
// entry never takes an id the merge restores.
func MergeOps(current, incoming []store.Entry, mode MergeMode) Plan {
	byName := make(map[string]store.Entry, len(current))
	ids := make(map[uint64]bool, len(current))
	for _, e := range current {
		byName[e.Name] = e
		ids[e.ID] = true
	}
	var p Plan
	var adds []store.Op
	for _, in := range incoming {
		cur, ok := byName[in.Name]
		switch {
		case ok && unchanged(cur, in, mode):
			p.Unchanged++
		case ok:
			p.Replaced++
			p.Ops = append(p.Ops, replaceOps(cur, in, mode)...)
		case mode == MergeExact && in.ID != 0 && !ids[in.ID]:
			p.Added++
			ids[in.ID] = true
			p.Ops = append(p.Ops, store.Restore{Entry: in})
		default:
			p.Added++
			adds = append(adds, store.Add{Name: in.Name, Content: in.Content, Aliases: in.Aliases, Kind: in.Kind, CreatedAt: in.CreatedAt})
		}
	}
	p.Ops = append(p.Ops, adds...)
	return p
}

// unchanged reports whether merging in would leave cur as it is.
func unchanged(cur, in store.Entry, mode MergeMode) bool {
	same := cur.Content == in.Content && cur.Kind == in.Kind && slices.Equal(cur.Aliases, in.Aliases)
	if mode == MergeExact {
		return same && cur.CreatedAt == in.CreatedAt
	}
	return same
}

// replaceOps replaces cur by in under cur's id. The plan was made on the
// memory as read and may be applied to a newer file: each op expects cur
// as it was read (its id included), so if cur was changed or removed
// meanwhile the merge fails, changing nothing, rather than overwrite that
// change or reach another entry that now has cur's name as an alias.
func replaceOps(cur, in store.Entry, mode MergeMode) []store.Op {
	expect := cur
	expect.Aliases = slices.Clone(cur.Aliases)
	if mode == MergeTree && cur.Kind == in.Kind {
		return []store.Op{store.Update{Name: cur.Name, Content: in.Content, Aliases: in.Aliases, Expect: &expect}}
	}
	next := in
	next.ID = cur.ID
	if mode == MergeTree {
		next.CreatedAt = cur.CreatedAt
	}
	return []store.Op{store.Remove{Name: cur.Name, Expect: &expect}, store.Restore{Entry: next}}
}
