package store

import "fmt"

// round is the state of one save in progress across its merge rounds.
type round struct {
	target    string
	ops       []Op
	expected  Fingerprint // the version the memory now reflects
	carry     carried     // changes of foreign versions taken off the target
	published [][]Change  // ops' changes of each round that made them visible
}

// save applies ops to the memory and publishes the result, merging with any
// writer met on the way (SPEC §3): a foreign version found at the check or
// displaced by the exchange is put back at once, the memory synced to it,
// the changes of any version taken off the target carried forward, and the
// ops applied again. An op whose effect an earlier round already published
// is not a failure. On failure the memory reflects the file as it now is.
func (db *DB) save(target string, ops []Op) ([]Change, error) {
	r := &round{target: target, ops: ops, expected: db.fp}
	for range maxMerges {
		changes, done, err := db.saveRound(r)
		if err != nil || done {
			return changes, err
		}
	}
	db.fp = unknownFP // the memory is the file's; the next Apply checks again
	return nil, fmt.Errorf("gave up after %d concurrent writes", maxMerges)
}

// saveRound is one attempt: apply, publish, and on meeting a foreign
// version, sync the memory to it for the next round.
func (db *DB) saveRound(r *round) (changes []Change, done bool, err error) {
	nextID := db.mem.NextID()
	carried, _ := db.mem.Apply(db.opts.Now(), carryOp{r.carry.steps})
	afterCarry := db.mem.NextID()
	changes, err = db.mem.Apply(db.opts.Now(), r.ops...)
	published := r.inFile(db.mem)
	already := published != nil
	switch {
	case err != nil && !already:
		db.mem.revert(carried, nextID)
		return nil, true, err
	case err != nil || len(changes) == 0 && already:
		changes = nil // the ops' effect is in the file already
	}
	result := changes
	if already && changes == nil {
		result = published
	}
	if len(carried)+len(changes) == 0 {
		db.fp = r.expected
		return result, true, nil // nothing to write
	}
	data := db.mem.encode()
	res, err := db.swapIn(r.target, data, r.expected)
	if err != nil {
		db.mem.revert(changes, afterCarry)
		db.mem.revert(carried, nextID)
		db.fp = unknownFP // trust the file, not the memory
		return nil, true, err
	}
	if !res.merge {
		db.fp = res.current
		return result, true, nil
	}
	db.mem.revert(changes, afterCarry)
	db.mem.revert(carried, nextID)
	return nil, false, db.mergeWith(r, res, data, changes)
}

// mergeWith takes the foreign version a round met as the next base,
// noting what must be carried forward.
func (db *DB) mergeWith(r *round, res swapResult, ours []byte, changes []Change) error {
	f, err := decodeState(res.foreign, res.foreignFP)
	if err != nil {
		db.fp = unknownFP // so the next Reload reports the unreadable file
		return err
	}
	if res.placed {
		// Ours was visible for an instant: a writer may have read it, so
		// what the foreign version changed is carried in case it is lost,
		// and our ops may be in the next base already.
		r.carry.note(db.mem.Entries(), f.Entries)
		if changes != nil {
			r.published = append(r.published, changes)
		}
	}
	if res.lost != nil {
		if err := r.carryLost(ours, res.lost); err != nil {
			db.fp = unknownFP
			return err
		}
	}
	db.mem.Sync(f)
	db.fp, r.expected = res.current, res.current
	return nil
}

// inFile returns the changes of the earlier round whose publication the
// memory (the next base) shows, if any.
func (r *round) inFile(m *Memory) []Change {
	for i := len(r.published) - 1; i >= 0; i-- {
		if m.holds(r.published[i]) {
			return r.published[i]
		}
	}
	return nil
}

// carryLost notes the changes of a version that replaced ours in the
// instant before the put back, compared with ours.
func (r *round) carryLost(ours, lost []byte) error {
	a, err := Decode(ours)
	if err != nil {
		return err
	}
	b, err := decodeV1(lost)
	if err != nil {
		return err
	}
	r.carry.note(a.Entries, b.Entries)
	return nil
}
