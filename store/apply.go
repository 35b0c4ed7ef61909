package store

import (
	"fmt"
	"math"
	"time"
	"unicode/utf8"
)

// Apply applies ops in memory only, all or nothing, and returns the changes:
// at most one per entry touched, in the order entries were first touched,
// leaving out entries that ended as they started. The index is updated for
// the changed entries only. On error the memory is unchanged.
func (m *Memory) Apply(now time.Time, ops ...Op) ([]Change, error) {
	m.lockWrite()
	defer m.mu.Unlock()
	tx := &txn{m: m, now: now, prev: map[uint64]*Entry{}, nextID: m.nextID}
	for _, op := range ops {
		if err := tx.apply(op); err != nil {
			tx.rollback()
			return nil, err
		}
	}
	changes := tx.changes()
	for _, c := range changes {
		if !c.shadow {
			m.reindex(c)
		}
	}
	m.compact()
	return changes, nil
}

// revert puts back the state before an Apply's changes exactly, as the
// txn's rollback does. Unlike applying Undo's ops it checks nothing, so it
// cannot fail: a file may hold a name twice, which a Restore refuses.
func (m *Memory) revert(changes []Change, nextID uint64) {
	m.lockWrite()
	defer m.mu.Unlock()
	for _, c := range changes { // first free every name, then put back
		if c.After != nil && (c.Before == nil || c.Before.Name != c.After.Name) {
			m.remove(c.After.ID)
		}
	}
	for _, c := range changes {
		if c.shadow {
			m.insertDup(cloneEntry(c.Before))
			continue
		}
		if c.Before != nil {
			m.put(cloneEntry(c.Before))
		}
		m.reindex(Change{Before: c.After, After: c.Before})
	}
	m.nextID = nextID
	m.compact()
}

// txn is one Apply in progress: it remembers each touched entry's first
// state so a failure can put everything back.
type txn struct {
	m       *Memory
	now     time.Time
	prev    map[uint64]*Entry // id -> state before the txn (nil: absent)
	touched []uint64          // ids in order of first touch
	nextID  uint64            // m.nextID before the txn
	// dupsBefore is the shadow list before the first change to it.
	dupsBefore  []*Entry
	dupsTouched bool
	// texts are the Adds' CreatedAtText, by the id each added.
	texts map[uint64]string
}

func (tx *txn) touch(id uint64) {
	if _, ok := tx.prev[id]; ok {
		return
	}
	tx.prev[id] = tx.m.byID[id]
	tx.touched = append(tx.touched, id)
}

// put stores e (new or replacing the entry with its id).
func (tx *txn) put(e *Entry) {
	tx.touch(e.ID)
	tx.m.put(e)
}

func (tx *txn) del(id uint64) {
	tx.touch(id)
	tx.m.remove(id)
}

func (tx *txn) rollback() {
	for i := len(tx.touched) - 1; i >= 0; i-- {
		id := tx.touched[i]
		if e := tx.prev[id]; e != nil {
			tx.m.put(e)
		} else {
			tx.m.remove(id)
		}
	}
	tx.m.nextID = tx.nextID
	if tx.dupsTouched {
		tx.m.dups = tx.dupsBefore
	}
}

func (tx *txn) changes() []Change {
	var out []Change
	for _, id := range tx.touched {
		before, after := tx.prev[id], tx.m.byID[id]
		switch {
		case before == nil && after == nil:
			continue
		case before != nil && after != nil && sameEntry(before, after):
			continue
		}
		c := Change{}
		if before != nil {
			c.Before = cloneEntry(before)
		}
		if after != nil {
			c.After = cloneEntry(after)
			c.CreatedAtText = tx.texts[id]
		}
		out = append(out, c)
	}
	return append(out, tx.dupChanges()...)
}

func (tx *txn) apply(op Op) error {
	switch op := op.(type) {
	case Add:
		return tx.add(op)
	case Update:
		return tx.edit(op.Name, op.Expect, func(e *Entry) {
			e.Content, e.Aliases = op.Content, cloneAliases(op.Aliases)
		}, op.Content, op.Aliases)
	case Write:
		return tx.edit(op.Name, nil, func(e *Entry) { e.Content = op.Content }, op.Content, nil)
	case SetAliases:
		return tx.edit(op.Name, nil, func(e *Entry) { e.Aliases = cloneAliases(op.Aliases) }, "", op.Aliases)
	case Rename:
		return tx.rename(op)
	case Remove:
		return tx.remove(op)
	case Restore:
		return tx.restore(op.Entry)
	case Replace:
		return tx.replace(op)
	case carryOp:
		return tx.carry(op)
	case nil:
		return fmt.Errorf("%w: nil operation", ErrInvalidEntry)
	}
	return fmt.Errorf("%w: unknown operation %T", ErrInvalidEntry, op)
}

func (tx *txn) add(op Add) error {
	if err := ValidName(op.Name); err != nil {
		return err
	}
	if err := checkText(op.Name, op.Content, op.Aliases, op.Kind); err != nil {
		return err
	}
	if tx.m.nameTaken(op.Name) {
		return fmt.Errorf("%w: %q", ErrNameTaken, op.Name)
	}
	if tx.m.nextID == ReservedID {
		return fmt.Errorf("add %q: no ids left", op.Name)
	}
	created := op.CreatedAt
	if created == 0 {
		created = uint64(max(tx.now.Unix(), 0))
	}
	if op.CreatedAtText != "" {
		if tx.texts == nil {
			tx.texts = map[uint64]string{}
		}
		tx.texts[tx.m.nextID] = op.CreatedAtText
	}
	tx.put(&Entry{ID: tx.m.nextID, Name: op.Name, Kind: op.Kind, CreatedAt: created,
		Aliases: cloneAliases(op.Aliases), Content: op.Content})
	return nil
}

// resolve finds the entry an op names, checking an Expect precondition.
func (tx *txn) resolve(name string, expect *Entry) (*Entry, error) {
	e := tx.m.lookup(name)
	if e == nil {
		if d := tx.m.dupNamed(name); d != nil {
			return nil, sharedIDError(d)
		}
		return nil, fmt.Errorf("%w %q", ErrNotFound, name)
	}
	if expect != nil && !matchesExpect(e, expect) {
		return nil, fmt.Errorf("%w: %q", ErrConflict, name)
	}
	return e, nil
}

// edit changes content and/or aliases of the named entry through a copy.
func (tx *txn) edit(name string, expect *Entry, change func(*Entry), content string, aliases []string) error {
	cur, err := tx.resolve(name, expect)
	if err != nil {
		return err
	}
	if err := checkText("", content, aliases, cur.Kind); err != nil {
		return err
	}
	e := *cur
	change(&e)
	tx.put(&e)
	return nil
}

func (tx *txn) rename(op Rename) error {
	cur, err := tx.resolve(op.Name, nil)
	if err != nil {
		return err
	}
	if cur.Name == op.New {
		return nil
	}
	if err := ValidName(op.New); err != nil {
		return err
	}
	if tx.m.nameTaken(op.New) {
		return fmt.Errorf("%w: %q", ErrNameTaken, op.New)
	}
	e := *cur
	e.Name = op.New
	tx.put(&e)
	return nil
}

func (tx *txn) remove(op Remove) error {
	if tx.m.lookup(op.Name) == nil {
		if d := tx.m.dupNamed(op.Name); d != nil {
			if op.Expect != nil && !matchesExpect(d, op.Expect) {
				return fmt.Errorf("%w: %q", ErrConflict, op.Name)
			}
			tx.removeDup(d)
			return nil
		}
	}
	cur, err := tx.resolve(op.Name, op.Expect)
	if err != nil {
		return err
	}
	tx.del(cur.ID)
	return nil
}

func (tx *txn) restore(e Entry) error {
	if err := checkText(e.Name, e.Content, e.Aliases, e.Kind); err != nil {
		return err
	}
	if _, ok := tx.m.byID[e.ID]; ok {
		return fmt.Errorf("%w: %d (restoring %q)", ErrIDTaken, e.ID, e.Name)
	}
	if tx.m.nameTaken(e.Name) {
		return fmt.Errorf("%w: %q", ErrNameTaken, e.Name)
	}
	tx.put(cloneEntry(&e))
	return nil
}

func (tx *txn) replace(op Replace) error {
	seen := make(map[uint64]bool, len(op.Entries))
	for i := range op.Entries {
		e := &op.Entries[i]
		if err := checkText(e.Name, e.Content, e.Aliases, e.Kind); err != nil {
			return err
		}
		if seen[e.ID] {
			return fmt.Errorf("%w: %d appears twice (%q)", ErrIDTaken, e.ID, e.Name)
		}
		seen[e.ID] = true
	}
	cur := tx.m.nextID // of the state the save applies to, fresh from disk
	for _, id := range tx.m.order {
		tx.del(id)
	}
	tx.touchDups()
	tx.m.dups = nil
	for i := range op.Entries {
		tx.put(cloneEntry(&op.Entries[i])) // raises nextID above every id
	}
	// next_id never goes down, so ids handed out before are not reused.
	tx.m.nextID = max(op.NextID, cur, tx.m.nextID, 1)
	return nil
}

// checkText rejects what the file format cannot hold.
func checkText(name, content string, aliases []string, kind Kind) error {
	if kind > Topic {
		return fmt.Errorf("%w: %q has unknown kind %d", ErrInvalidEntry, name, uint32(kind))
	}
	if err := checkLens(name, content, aliases); err != nil {
		return err
	}
	if !utf8.ValidString(name) || !utf8.ValidString(content) {
		return fmt.Errorf("%w: %q: text is not valid UTF-8", ErrInvalidEntry, name)
	}
	for _, a := range aliases {
		if !utf8.ValidString(a) {
			return fmt.Errorf("%w: %q: alias %q is not valid UTF-8", ErrInvalidEntry, name, a)
		}
	}
	return nil
}

// checkLens refuses, before anything is encoded, a string or an alias list
// whose length does not fit the format's u32 length prefix.
func checkLens(name, content string, aliases []string) error {
	if err := checkLen("name", int64(len(name))); err != nil {
		return err
	}
	if int64(len(content)) > math.MaxUint32 {
		return checkLen(fmt.Sprintf("content of %.40q", name), int64(len(content)))
	}
	if int64(len(aliases)) > math.MaxUint32 {
		return checkLen(fmt.Sprintf("alias list of %.40q", name), int64(len(aliases)))
	}
	for _, a := range aliases {
		if int64(len(a)) > math.MaxUint32 {
			return checkLen(fmt.Sprintf("an alias of %.40q", name), int64(len(a)))
		}
	}
	return nil
}

// checkLen fails with ErrTooLong when n does not fit in a u32.
func checkLen(what string, n int64) error {
	if n > math.MaxUint32 {
		return fmt.Errorf("%w: %s is %d bytes", ErrTooLong, what, n)
	}
	return nil
}
