package store

import "time"

// Fingerprint identifies one version of the file: size, mtime and content hash.
type Fingerprint struct {
	Exists  bool
	Size    int64
	ModTime time.Time
	Hash    [32]byte
}

// DB is a memory file on disk with conflict-safe, atomic saves.
type DB struct{ _ int }

// Open reads path (a missing file is an empty memory; it is not created).
func Open(path string) (*DB, error) { panic("store: not implemented") }

// Path returns the file's path as given.
func (db *DB) Path() string { panic("store: not implemented") }

// Exists reports whether the file existed when last read.
func (db *DB) Exists() bool { panic("store: not implemented") }

// Memory returns the current state.
func (db *DB) Memory() *Memory { panic("store: not implemented") }

// Fingerprint returns the fingerprint of the file the memory came from.
func (db *DB) Fingerprint() Fingerprint { panic("store: not implemented") }

// Apply applies ops and saves atomically under the advisory lock.
func (db *DB) Apply(ops ...Op) ([]Change, error) { panic("store: not implemented") }

// Reload re-reads the file if its fingerprint changed and syncs the memory.
func (db *DB) Reload() (Diff, error) { panic("store: not implemented") }
