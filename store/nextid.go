package store

// ReservedID is the largest id, 2^64−1. No id lies above it, so an entry
// holding it never raises the next id (it would wrap to 0): a file holding
// it is read and kept, but crmem never assigns it and an import refuses it.
const ReservedID = ^uint64(0)

// raiseNextID is next raised above id, unless id is ReservedID.
func raiseNextID(next, id uint64) uint64 {
	if id >= next && id != ReservedID {
		return id + 1
	}
	return next
}

// NextIDFor is the id the next add gets in a memory whose header says
// nextID and which holds entries: nextID (at least 1) raised above every
// id but ReservedID. Opening a memory, `crmem check` and an import's
// fresh ids all count with it, so they agree. ReservedID means no id is
// left.
func NextIDFor(nextID uint64, entries []Entry) uint64 {
	next := max(nextID, 1)
	for i := range entries {
		next = raiseNextID(next, entries[i].ID)
	}
	return next
}
