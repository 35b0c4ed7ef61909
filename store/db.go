package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/crmem/crmem/store/sessions"
)

// unknownFP matches no file: a DB holding it re-reads the file next time.
var unknownFP = Fingerprint{Exists: true, Size: -1}

// maxMerges bounds how often one Apply merges with writers that slip in
// while it saves; each round means someone else wrote in a few milliseconds.
const maxMerges = 64

// Options configure OpenWith.
type Options struct {
	// Index says when the bm25 index is built (default IndexNow).
	Index IndexMode
	// LockTimeout bounds the wait for another crmem writer (then Apply
	// fails with ErrLocked). Zero, the default, waits as long as it takes:
	// writers queue rather than fail.
	LockTimeout time.Duration
	// OnLockWait, if set, is called once when an Apply has waited a second
	// for another writer (a command line says so on a terminal).
	OnLockWait func()
	// Now is the clock for created_at (default time.Now).
	Now func() time.Time
	// Sessions is the agent's sessions folder (default: sessions/ beside
	// the file), read by Features().Sessions.
	Sessions string
	// OnHeldSignal, if set, is given each signal (SIGINT, SIGTERM,
	// SIGHUP) that arrived during a write to crabtalk's store, once the
	// write is over, instead of the signal being sent to the process
	// again (which ends it before its caller can say what was written):
	// a command line then reports the write and ends as the signal asked.
	OnHeldSignal func(os.Signal)
	// Guard is called before every write of a DB over a Backend (a file
	// another program owns while it runs: crabtalk's store); nil refuses
	// every such write (ErrNoGuard). A v1 file has no owner to check.
	Guard Guard
}

// DB is a memory file on disk with conflict-safe, atomic saves. Its methods
// are safe for concurrent use; saves through one DB are serialised, and
// saves through different DBs or processes queue on a lock of the file's
// folder.
type DB struct {
	path string
	opts Options

	mu  sync.Mutex // serialises Apply and Reload
	mem *Memory
	fp  Fingerprint // the version mem came from or was last saved as
	// v1 is what the last reload kept of a v1 file to reload the next by
	// difference (reloadv1.go); nil: none.
	v1 *v1Sums
	// sessions reads the sessions folder, re-reading only what changed.
	sessions *sessions.Reader
	// backend, when set, is the file's format (crabtalk's store): reads
	// and writes go through it instead of the v1 encoding.
	backend Backend
	// proof is the guard's answer before the last write (Proof).
	proof string

	// Test hooks (set through export_test.go).
	noSync     bool   // skip fsync (benchmarks of the encode+write cost)
	beforeSwap func() // called between the temp file's write and the swap
	swapErr    error  // when set, the swap fails with it (after beforeSwap)
	noRenameat bool   // act as if renameat2 were unsupported
	// betweenSwaps is called after an exchange displaced a foreign version
	// and before it is put back.
	betweenSwaps func()
	// beforeExchange is called after the last check and before the
	// exchange: the instant only the exchange can catch a writer in.
	beforeExchange func()
	failWrite      error // when set, temp file writes fail half way with it
}

// OpenWith reads path with the given options (a missing file is an empty
// memory; it is not created). Nothing is ever written by opening. Errors
// name the file.
func OpenWith(path string, opts Options) (*DB, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	data, fp, err := readStateUnhashed(path)
	if err != nil {
		return nil, err // *fs.PathError already names the file
	}
	f := &File{NextID: 1}
	if fp.Exists {
		// The fingerprint's hash is worked out on another core as the
		// file decodes (of the 100k-entry memory's open, the screen's
		// first frame waits for, a sixth).
		hashed := make(chan uint64, 1)
		go func() { hashed <- hashBytes(data) }()
		f, err = decodeV1(data)
		fp.Hash = <-hashed
		if err != nil {
			return nil, &PathError{path, err}
		}
	}
	return &DB{path: path, opts: opts, mem: NewMemoryWith(f, opts.Index), fp: fp,
		sessions: sessions.NewReader(SessionsDir(path, opts.Sessions))}, nil
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
	if db.backend != nil {
		return db.reloadBackend()
	}
	data, fp, changed, hashed, err := readIfChangedUnhashed(db.path, db.fp)
	switch {
	case err != nil:
		return Diff{}, err
	case !changed:
		return Diff{}, nil
	case !fp.Exists:
		return Diff{}, &PathError{db.path, fs.ErrNotExist}
	}
	if d, ok := db.reloadV1(data, &fp, hashed); ok {
		db.fp = fp
		return d, nil
	}
	if !hashed {
		fp.Hash = hashBytes(data)
	}
	f, err := decodeV1(data)
	if err != nil {
		return Diff{}, &PathError{db.path, err}
	}
	d := db.mem.Sync(f)
	db.fp = fp
	db.keepV1Sums(data, fp)
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
	apply := db.apply
	if db.backend != nil {
		apply = db.applyBackend
	}
	changes, err := apply(ops)
	if err != nil {
		return nil, &PathError{db.path, err}
	}
	return changes, nil
}

func (db *DB) apply(ops []Op) ([]Change, error) {
	target, err := resolveTarget(db.path)
	if err != nil {
		return nil, err
	}
	dirs := missingDirs(filepath.Dir(target))
	if len(dirs) > 0 {
		// No folder yet, so no file: try the ops on the empty memory first,
		// so a write that fails creates nothing.
		if err := db.tryOnEmpty(target, ops); err != nil {
			return nil, err
		}
	}
	removeDirs, err := makeDirs(dirs)
	if err != nil {
		return nil, err
	}
	changes, err := db.applyLocked(target, ops)
	if err != nil || !db.fp.Exists {
		// A failed write, or one that wrote nothing (the file is still
		// missing: the empty memory its ops describe), leaves no folder.
		removeDirs()
	}
	return changes, err
}

// tryOnEmpty applies ops to the memory and takes them back, reporting
// whether they fail. The caller knows the file does not exist.
func (db *DB) tryOnEmpty(target string, ops []Op) error {
	if err := db.refresh(target); err != nil {
		return err
	}
	nextID := db.mem.NextID()
	changes, err := db.mem.Apply(db.opts.Now(), ops...)
	if err == nil {
		db.mem.revert(changes, nextID)
	}
	return err
}

// applyLocked saves ops under the folder's lock.
func (db *DB) applyLocked(target string, ops []Op) ([]Change, error) {
	unlock, err := lockDir(filepath.Dir(target), db.opts.LockTimeout, db.opts.OnLockWait)
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
	f, err := decodeState(data, fp)
	if err != nil {
		return err // never write over a file we cannot read
	}
	db.mem.Sync(f)
	return nil
}

// decodeState decodes a version read from disk (a missing file is empty).
func decodeState(data []byte, fp Fingerprint) (*File, error) {
	if !fp.Exists {
		return &File{NextID: 1}, nil
	}
	return decodeV1(data)
}
