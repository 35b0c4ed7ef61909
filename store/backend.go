package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// Backend is a memory file format other than CRMEM v1 that a DB reads and
// writes through: crabtalk's store (store/crabdb implements it; store/open
// chooses it, as store must not import a format's package). The DB keeps
// the Memory, runs the ops on it (the one write path: the same ops, the
// same changes, the same undo as for a v1 file) and hands the backend the
// changes to write; the backend says how the file is read and written.
// Load and Write are called with the DB's mutex held, never concurrently.
type Backend interface {
	// Load reads the file as it is now (only what changed since the last
	// Load, where the format allows) and returns its entries with ids
	// that stay with each entry across loads, and whether anything
	// changed since the last Load (false: f may be nil). With recover
	// set, the caller holds the folder's lock, and the backend first
	// finishes what an interrupted write of crmem's own left.
	Load(recover bool) (f *File, changed bool, err error)
	// Features of the file as last loaded: Format, Recall, Sessions,
	// Stored and Warnings (the DB fills in Writer). It may be called at
	// any time, concurrently with the other methods.
	Features() Features
	// Writable says why the file as last loaded must not be written
	// (nil: it may be). It is cheap (worked out by Load and Write) and
	// may be called at any time, as Features may.
	Writable() error
	// Write writes changes, the result of one Apply on the entries of
	// the last Load, as one write, and makes them durable; now is the
	// time of the Apply. On error the file is as it was.
	Write(changes []Change, now time.Time) error
}

// DeltaBackend is a Backend that can say what changed since its last
// Load rather than give the whole file again (crabtalk's store, which
// only grows: the records appended name the entries they touch), so that
// following a file that an agent writes costs in proportion to what it
// wrote.
type DeltaBackend interface {
	Backend
	// LoadDelta is Load(false) giving, when it can, only the entries
	// that changed since the last Load (Delta.File nil), else the whole
	// file (Delta.File set, as Load would return it).
	LoadDelta() (d Delta, changed bool, err error)
}

// Delta is what changed in a file since a Backend's last Load: either the
// whole file (File, synced whole) or the entries put (added or perhaps
// changed, with their ids), the ids removed, and the next id.
type Delta struct {
	File    *File
	Put     []Entry
	Removed []uint64
	NextID  uint64
}

// Guard is the check before every write to a file that another program
// owns while it runs (crabtalk's store: its daemon): it returns how it
// proved that the owner is not running, or an error saying why it could
// not (naming the owner's pid, where known, and how to stop it).
type Guard func(path string) (proof string, err error)

// ErrNoGuard is the answer of a DB over a Backend that was given no Guard:
// nothing proves that the file's owner is not writing it.
var ErrNoGuard = errors.New("not written: nothing checks that crabtalk's daemon is not running")

// OpenBackend opens the file at path through b: reads it (b.Load) and
// builds its Memory. opts.Guard is called before every write (nil: every
// write is refused with ErrNoGuard).
func OpenBackend(path string, b Backend, opts Options) (*DB, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	f, _, err := b.Load(false)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("%s: the backend read no entries", path)
	}
	return &DB{path: path, opts: opts, mem: NewMemoryWith(f, opts.Index), fp: Fingerprint{Exists: true}, backend: b}, nil
}

// reloadBackend is Reload over a Backend.
func (db *DB) reloadBackend() (Diff, error) {
	if b, ok := db.backend.(DeltaBackend); ok {
		d, changed, err := b.LoadDelta()
		switch {
		case err != nil || !changed:
			return Diff{}, err
		case d.File != nil:
			return db.mem.Sync(d.File), nil
		}
		return db.mem.SyncEntries(d.Put, d.Removed, d.NextID), nil
	}
	f, changed, err := db.backend.Load(false)
	if err != nil || !changed {
		return Diff{}, err
	}
	return db.mem.Sync(f), nil
}

// applyBackend is Apply over a Backend, checked in this order: crmem's
// lock of the folder, the guard (the owner is not running), a fresh Load
// (the ops apply to the file as it now is; an Expect that no longer holds
// is ErrConflict), Writable, then the ops on the memory, the guard again
// (an owner started while this write read the file is seen, not written
// beside), and their changes written as one append. On any error the
// memory is as the file.
//
// The lock comes first: another crmem appending to the file holds it
// open for writing, and a guard run before the lock would take it for a
// foreign writer. Under the lock no other crmem writes the file (each
// opens it for writing only while it holds the lock), so whoever the
// guard finds writing is not crmem; another crmem's write is waited for,
// as on a v1 file.
func (db *DB) applyBackend(ops []Op) ([]Change, error) {
	if db.opts.Guard == nil {
		return nil, ErrNoGuard
	}
	unlock, err := lockDir(filepath.Dir(db.path), db.opts.LockTimeout, db.opts.OnLockWait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	proof, err := db.opts.Guard(db.path)
	if err != nil {
		return nil, err
	}
	db.proof = proof
	f, changed, err := db.backend.Load(true)
	if err != nil {
		return nil, err
	}
	if changed {
		db.mem.Sync(f)
	}
	if err := db.backend.Writable(); err != nil {
		return nil, err
	}
	now := db.opts.Now()
	nextID := db.mem.NextID()
	changes, err := db.mem.Apply(now, withoutNextID(ops)...)
	if err != nil || len(changes) == 0 {
		return nil, err
	}
	if proof, err = db.opts.Guard(db.path); err != nil {
		db.mem.revert(changes, nextID)
		return nil, err
	}
	db.proof = proof
	if err := db.backend.Write(changes, now); err != nil {
		db.mem.revert(changes, nextID)
		return nil, err
	}
	return changes, nil
}

// withoutNextID drops what only a v1 file holds from ops: a Replace's
// NextID (a store has no next id).
func withoutNextID(ops []Op) []Op {
	out := make([]Op, len(ops))
	for i, op := range ops {
		if r, ok := op.(Replace); ok {
			r.NextID = 0
			op = r
		}
		out[i] = op
	}
	return out
}

// CheckGuard runs the guard as a write would, with crmem's lock of the
// folder held (waited for as Apply waits): another crmem's write in
// progress is waited for, not taken for a foreign writer. It returns the
// guard's proof; a DB over no Backend has nothing to check ("", nil), and
// one given no Guard fails with ErrNoGuard. Nothing is read or written:
// it is the check a command makes before it starts (an editor, say).
func (db *DB) CheckGuard() (string, error) {
	if db.backend == nil {
		return "", nil
	}
	if db.opts.Guard == nil {
		return "", ErrNoGuard
	}
	unlock, err := lockDir(filepath.Dir(db.path), db.opts.LockTimeout, db.opts.OnLockWait)
	if err != nil {
		return "", err
	}
	defer unlock()
	return db.opts.Guard(db.path)
}

// Backend is the format the DB reads and writes through (nil: CRMEM v1).
func (db *DB) Backend() Backend { return db.backend }

// Proof is how the guard proved, before this DB's last write, that the
// file's owner was not running ("" before any write, and for a v1 file).
func (db *DB) Proof() string {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.proof
}
