package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultLockTimeout is how long DB.Apply waits for another crmem writer.
const DefaultLockTimeout = 10 * time.Second

// unknownFP matches no file: a DB holding it re-reads the file next time.
var unknownFP = Fingerprint{Exists: true, Size: -1}

// maxMerges bounds how often one Apply merges with writers that slip in
// while it saves; each round means someone else wrote in a few milliseconds.
const maxMerges = 16

// Options configure OpenWith.
type Options struct {
	// Index says when the bm25 index is built (default IndexNow).
	Index IndexMode
	// LockTimeout bounds the wait for another writer's lock (default
	// DefaultLockTimeout).
	LockTimeout time.Duration
	// Now is the clock for created_at (default time.Now).
	Now func() time.Time
}

// DB is a memory file on disk with conflict-safe, atomic saves. Its methods
// are safe for concurrent use; saves through one DB are serialised, and
// saves through different DBs or processes are serialised by a file lock.
type DB struct {
	path string
	opts Options

	mu  sync.Mutex // serialises Apply and Reload
	mem *Memory
	fp  Fingerprint // the version mem came from or was last saved as

	// Test hooks (set through export_test.go).
	noSync     bool   // skip fsync (benchmarks of the encode+write cost)
	beforeSwap func() // called between the temp file's write and the swap
	swapErr    error  // when set, the swap fails with it (after beforeSwap)
	noRenameat bool   // act as if renameat2 were unsupported
}

// Open reads path (a missing file is an empty memory; it is not created) and
// builds the index before returning.
func Open(path string) (*DB, error) { return OpenWith(path, Options{}) }

// OpenLazy reads and decodes path and returns at once, building the index in
// the background: Memory().IndexReady reports when it is done, and Search
// waits for it. A TUI shows the entry list while the index builds.
func OpenLazy(path string) (*DB, error) { return OpenWith(path, Options{Index: IndexBackground}) }

// OpenWith reads path with the given options. Nothing is ever written by
// opening. Errors name the file.
func OpenWith(path string, opts Options) (*DB, error) {
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	data, fp, err := readState(path)
	if err != nil {
		return nil, err // *fs.PathError already names the file
	}
	f := &File{NextID: 1}
	if fp.Exists {
		if f, err = Decode(data); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return &DB{path: path, opts: opts, mem: NewMemoryWith(f, opts.Index), fp: fp}, nil
}

// Path returns the file's path as given.
func (db *DB) Path() string { return db.path }

// Exists reports whether the file existed when last read or saved.
func (db *DB) Exists() bool {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.fp.Exists
}

// Memory returns the current state. It is the same Memory for the DB's
// whole life: Apply and Reload change it in place.
func (db *DB) Memory() *Memory { return db.mem }

// Fingerprint returns the fingerprint of the file version the memory came
// from (or was last saved as).
func (db *DB) Fingerprint() Fingerprint {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.fp
}

// Reload re-reads the file if its fingerprint changed and syncs the memory,
// returning what changed; after our own save it is a no-op. If the file is
// missing or does not decode, the memory is left as it was and the error
// names the file.
func (db *DB) Reload() (Diff, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	data, fp, changed, err := readIfChanged(db.path, db.fp)
	switch {
	case err != nil:
		return Diff{}, err
	case !changed:
		return Diff{}, nil
	case !fp.Exists:
		return Diff{}, fmt.Errorf("%s: %w", db.path, fs.ErrNotExist)
	}
	f, err := Decode(data)
	if err != nil {
		return Diff{}, fmt.Errorf("%s: %w", db.path, err)
	}
	d := db.mem.Sync(f)
	db.fp = fp
	return d, nil
}

// Apply applies ops and saves atomically under the advisory lock. If the file
// changed since it was read, it is re-read and the ops re-applied on the fresh
// state; a precondition that no longer holds returns ErrConflict and changes
// nothing. Ops that change nothing write nothing. On any error the memory
// and the file are as they were (or as the other writer left them).
func (db *DB) Apply(ops ...Op) ([]Change, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	changes, err := db.apply(ops)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", db.path, err)
	}
	return changes, nil
}

func (db *DB) apply(ops []Op) ([]Change, error) {
	target, err := resolveLink(db.path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return nil, err
	}
	unlock, err := acquireLock(lockPath(target), db.opts.LockTimeout)
	if err != nil {
		return nil, err
	}
	defer unlock()
	removeTemps(target)
	if err := db.refresh(target); err != nil {
		return nil, err
	}
	return db.save(target, ops)
}

// refresh syncs the memory to the file if it changed since we read it. A
// deleted file counts as an empty memory: the deletion was someone's change.
func (db *DB) refresh(target string) error {
	data, fp, changed, err := readIfChanged(target, db.fp)
	if err != nil || !changed {
		return err
	}
	if err := db.syncTo(data, fp); err != nil {
		return err
	}
	db.fp = fp
	return nil
}

func (db *DB) syncTo(data []byte, fp Fingerprint) error {
	f := &File{NextID: 1}
	if fp.Exists {
		var err error
		if f, err = Decode(data); err != nil {
			return err // never write over a file we cannot read
		}
	}
	db.mem.Sync(f)
	return nil
}

// save applies ops to the memory and swaps the result in, merging with any
// writer met on the way. theirs is a foreign version our previous round
// displaced: if this round fails, it is put back.
func (db *DB) save(target string, ops []Op) ([]Change, error) {
	expected := db.fp
	var theirs []byte
	for range maxMerges {
		nextID := db.mem.NextID()
		changes, err := db.mem.Apply(db.opts.Now(), ops...)
		if err != nil || len(changes) == 0 {
			return nil, errors.Join(err, db.putBack(target, theirs))
		}
		res, err := db.swapIn(target, db.mem.encode(), expected)
		if err != nil {
			db.mem.revert(changes, nextID)
			err = errors.Join(err, db.putBack(target, theirs))
			// Trust the file, not the memory: the next Apply or Reload
			// re-reads it, whatever the rollback could not put back.
			db.fp = unknownFP
			return nil, err
		}
		if res.placed && res.foreign == nil {
			db.fp = res.current
			return changes, nil
		}
		// Someone wrote between our check and our swap: take their
		// version as the base and apply our ops again on it.
		if err := db.syncTo(res.foreign, res.foreignFP); err != nil {
			db.mem.revert(changes, nextID)
			if res.placed {
				err = errors.Join(err, db.putBack(target, res.foreign))
			}
			db.fp = unknownFP // so the next Reload reports the unreadable file
			return nil, err
		}
		db.fp = res.current
		expected, theirs = res.current, nil
		if res.placed {
			theirs = res.foreign
		}
	}
	return nil, errors.Join(fmt.Errorf("gave up after %d concurrent writes", maxMerges),
		db.putBack(target, theirs))
}

// putBack restores a foreign version our swap displaced, when our own
// write is abandoned, so that writer's change is not lost.
func (db *DB) putBack(target string, theirs []byte) error {
	if theirs == nil {
		return nil
	}
	tmp, fp, err := writeTemp(target, theirs, filePerm(target), db.noSync)
	if err != nil {
		return fmt.Errorf("put back the other writer's version: %w", err)
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("put back the other writer's version: %w", err)
	}
	db.fp = fp
	if db.noSync {
		return nil
	}
	return syncDir(filepath.Dir(target))
}
