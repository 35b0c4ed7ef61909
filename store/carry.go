package store

// carried is the changes a save saw in foreign versions that are no longer
// at the target (SPEC §3: changes seen in any displaced version are carried
// forward). They are applied, in the order seen, onto every later base
// before the save's own ops, and applying them again is a no-op, so a base
// that already holds them is left as it is.
type carried struct{ steps []carryStep }

// carryStep is one entry that must be present (put) or absent (del).
type carryStep struct {
	put *Entry
	del entryKey
}

// entryKey names an entry by id and name together: two writers that read
// the same version hand out the same next id to different entries, so an
// id alone does not say which entry is meant.
type entryKey struct {
	id   uint64
	name string
}

// note records what after changed compared with before, by id (the later
// entry of an id held twice). An entry that an earlier displaced version
// added is never carried away by a later one that lacks it: that writer
// most likely read our version in the instant it was visible, which
// lacked the entry, and did not mean to remove it.
func (c *carried) note(before, after []Entry) {
	old := lastByID(before)
	now := lastByID(after)
	for i := range after {
		e := &after[i]
		if now[e.ID] != e { // an earlier entry of an id held twice
			continue
		}
		if b, ok := old[e.ID]; !ok || !sameEntry(b, e) {
			c.steps = append(c.steps, carryStep{put: cloneEntry(e)})
		}
	}
	put := map[entryKey]bool{}
	for _, s := range c.steps {
		if s.put != nil {
			put[entryKey{s.put.ID, s.put.Name}] = true
		}
	}
	for i := range before {
		b := &before[i]
		if _, ok := now[b.ID]; !ok && old[b.ID] == b && !put[entryKey{b.ID, b.Name}] {
			c.steps = append(c.steps, carryStep{del: entryKey{b.ID, b.Name}})
		}
	}
}

func lastByID(entries []Entry) map[uint64]*Entry {
	m := make(map[uint64]*Entry, len(entries))
	for i := range entries {
		m[entries[i].ID] = &entries[i]
	}
	return m
}

// carryOp applies carried steps inside a Memory.Apply transaction.
type carryOp struct{ steps []carryStep }

func (carryOp) op() {}

func (tx *txn) carry(op carryOp) error {
	for _, s := range op.steps {
		if s.put == nil {
			if e := tx.m.byID[s.del.id]; e != nil && e.Name == s.del.name {
				tx.del(s.del.id)
			}
			continue
		}
		tx.carryPut(s.put)
	}
	return nil
}

// carryPut makes e present: replacing the entry with its id and name, or
// added under its id, or — when another entry took that id meanwhile —
// under a new id. An identical entry already present under its name is
// left alone.
func (tx *txn) carryPut(e *Entry) {
	cur := tx.m.byID[e.ID]
	switch {
	case cur != nil && cur.Name == e.Name:
		if !sameEntry(cur, e) {
			tx.put(cloneEntry(e))
		}
		return
	case tx.hasTwin(e):
		return
	case cur == nil:
		tx.put(cloneEntry(e))
		return
	}
	n := cloneEntry(e)
	n.ID = tx.m.nextID
	tx.put(n)
}

// hasTwin reports whether an entry with e's name holds exactly e's text.
func (tx *txn) hasTwin(e *Entry) bool {
	tx.m.lookups()
	id, ok := tx.m.names.last(e.Name)
	if !ok {
		return false
	}
	cur := tx.m.byID[id]
	return cur.Kind == e.Kind && cur.CreatedAt == e.CreatedAt && sameDoc(cur, e)
}

// holds reports whether the memory already shows every change of an
// earlier Apply: each entry after it is present exactly, each removed one
// is gone. A save uses it to tell an op whose effect an earlier round of
// the same save published (not a failure) from one that really fails.
func (m *Memory) holds(changes []Change) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, c := range changes {
		switch {
		case c.shadow:
			if d := m.dupNamed(c.Before.Name); d != nil && d.ID == c.Before.ID {
				return false
			}
		case c.After != nil:
			if cur := m.entry(c.After.ID); cur == nil || !sameEntry(cur, c.After) {
				return false
			}
		default:
			if cur := m.entry(c.Before.ID); cur != nil && cur.Name == c.Before.Name {
				return false
			}
		}
	}
	return len(changes) > 0
}
