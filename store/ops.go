package store

import "slices"

// Op is one operation of SPEC §2. The concrete types are Add, Update, Write,
// SetAliases, Rename, Remove, Restore and Replace. Every name an op takes is
// resolved by the lookup rule (exact name, else lowest-id alias).
type Op interface{ op() }

// Add creates an entry with id = the next id; CreatedAt zero means now. The
// name must pass ValidName and must not be another entry's name.
type Add struct {
	Name, Content string
	Aliases       []string
	Kind          Kind
	CreatedAt     uint64
	// CreatedAtText is created_at as a format that stores it as text wrote
	// it (crabtalk's store: RFC 3339 with its fraction of a second, as an
	// entry restored from its history had it); such a format writes it
	// when it names CreatedAt's second, so nothing finer than a second is
	// lost. "" for none; a v1 file keeps seconds only.
	CreatedAtText string
}

// Update replaces content and the whole alias list; kind, id and created_at
// are kept. When Expect is non-nil the current entry must still have
// Expect's name, content and aliases (and its id, when Expect.ID is not zero),
// else ErrConflict.
type Update struct {
	Name, Content string
	Aliases       []string
	Expect        *Entry
}

// Write replaces content only.
type Write struct{ Name, Content string }

// SetAliases replaces the alias list (RFC 0150's Alias op: set, not append).
type SetAliases struct {
	Name    string
	Aliases []string
}

// Rename changes an entry's canonical name; id, created_at and kind are kept.
// New must pass ValidName and must not be another entry's name.
type Rename struct{ Name, New string }

// Remove deletes an entry. When Expect is non-nil the entry must be
// unchanged from it (name, content, aliases, and id when Expect.ID is not
// zero), else ErrConflict.
type Remove struct {
	Name   string
	Expect *Entry
}

// Restore puts back an entry with its original id and created_at (undo). It
// fails with ErrIDTaken or ErrNameTaken when either is in use. The name is
// not checked with ValidName: it was valid in the file it came from.
type Restore struct{ Entry Entry }

// Replace swaps the whole memory for the given entries (load). The next id
// never goes down: it becomes the largest of NextID, the current next id (of
// the file as found under the lock) and one above the largest id. Duplicate
// ids fail with ErrIDTaken.
type Replace struct {
	Entries []Entry
	NextID  uint64
}

func (Add) op()        {}
func (Update) op()     {}
func (Write) op()      {}
func (SetAliases) op() {}
func (Rename) op()     {}
func (Remove) op()     {}
func (Restore) op()    {}
func (Replace) op()    {}

// Change records one entry's state before and after an Apply. Before is nil
// for an added entry, After nil for a removed one. Apply reports at most one
// Change per id, however many of its ops touched that entry.
type Change struct {
	Before, After *Entry
	// CreatedAtText is the Add's CreatedAtText for the entry it added (""
	// otherwise): the backend's to write, as Add says.
	CreatedAtText string
	// shadow marks the removal of an entry whose id a later entry holds:
	// it never touched the entry the id names.
	shadow bool
}

// ID returns the id of the changed entry.
func (c Change) ID() uint64 {
	if c.After != nil {
		return c.After.ID
	}
	return c.Before.ID
}

// Inverse returns the operations that undo the change, safe to apply on a
// fresh file: an added entry is removed (Expect = After, so a later edit by
// someone else is a conflict, not a loss); a removed entry is restored with
// its id and created_at; an edited entry is updated back (Expect = After).
// A renamed entry is removed (Expect = After) and restored as it was: that
// brings back its exact state and works for names that ValidName would
// refuse (names that came from the file).
func (c Change) Inverse() []Op {
	switch {
	case c.Before == nil && c.After == nil:
		return nil
	case c.Before == nil:
		return []Op{Remove{Name: c.After.Name, Expect: cloneEntry(c.After)}}
	case c.After == nil:
		return []Op{Restore{Entry: *cloneEntry(c.Before)}}
	case c.Before.Name == c.After.Name && c.Before.Kind == c.After.Kind &&
		c.Before.CreatedAt == c.After.CreatedAt:
		return []Op{Update{
			Name:    c.After.Name,
			Content: c.Before.Content,
			Aliases: slices.Clone(c.Before.Aliases),
			Expect:  cloneEntry(c.After),
		}}
	}
	return []Op{
		Remove{Name: c.After.Name, Expect: cloneEntry(c.After)},
		Restore{Entry: *cloneEntry(c.Before)},
	}
}

// Undo returns the operations that undo a whole Apply's changes, ordered so
// they apply cleanly together: removals first (freeing names), then
// restores, then updates.
func Undo(changes []Change) []Op {
	var removes, restores, updates []Op
	for _, c := range changes {
		for _, op := range c.Inverse() {
			switch op.(type) {
			case Remove:
				removes = append(removes, op)
			case Restore:
				restores = append(restores, op)
			default:
				updates = append(updates, op)
			}
		}
	}
	return slices.Concat(removes, restores, updates)
}

// cloneEntry returns a copy of e that shares nothing mutable with it.
func cloneEntry(e *Entry) *Entry {
	c := *e
	c.Aliases = cloneAliases(e.Aliases)
	return &c
}

// cloneAliases copies an alias list; the result is never nil.
func cloneAliases(a []string) []string {
	if len(a) == 0 {
		return []string{}
	}
	return slices.Clone(a)
}

// sameAliases reports whether two alias lists are equal, nil equal to empty.
func sameAliases(a, b []string) bool { return slices.Equal(a, b) }

// sameEntry reports whether two entries are identical in every field.
func sameEntry(a, b *Entry) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Kind == b.Kind &&
		a.CreatedAt == b.CreatedAt && a.Content == b.Content &&
		sameAliases(a.Aliases, b.Aliases)
}

// sameDoc reports whether two entries index the same text.
func sameDoc(a, b *Entry) bool {
	return a.Content == b.Content && sameAliases(a.Aliases, b.Aliases)
}

// matchesExpect reports whether cur still is what the caller last saw.
func matchesExpect(cur, exp *Entry) bool {
	if exp.ID != 0 && exp.ID != cur.ID {
		return false
	}
	return cur.Name == exp.Name && sameDoc(cur, exp)
}
