package store

// This file is the agreed public API of package store, with placeholder
// bodies. The store implementation replaces it file by file; exported names
// and signatures here are a contract the CLI, export and TUI code relies on.
// Additions are fine; changes need every caller updated.

import (
	"errors"
	"time"

	"github.com/crmem/crmem/bm25"
)

// ---- errors (store/errors.go) ----

// ErrBadFormat is matched (errors.Is) by every decode failure; the error's
// text is "bad memory file format: <reason>" with the reference's reason.
var ErrBadFormat = errors.New("bad memory file format")

// ErrNotFound is returned when an operation names no entry.
var ErrNotFound = errors.New("no such entry")

// ErrNameTaken is returned when Add, Rename or Restore would duplicate a name.
var ErrNameTaken = errors.New("name already taken")

// ErrIDTaken is returned when Restore's id is in use.
var ErrIDTaken = errors.New("id already taken")

// ErrInvalidName is returned when a new name is not dump-safe (SPEC §2).
var ErrInvalidName = errors.New("invalid name")

// ErrConflict is returned when an operation's Expect precondition no longer
// holds on the fresh file: someone else changed or removed the entry.
var ErrConflict = errors.New("entry changed on disk")

// ---- codec (store/codec.go) ----

// File is the decoded content of a CRMEM v1 file.
type File struct {
	NextID  uint64
	Entries []Entry // in file order
	// Trailing is the number of bytes after the last entry (ignored on read).
	Trailing int
}

// Decode parses a CRMEM v1 file. It never allocates more than len(data)
// whatever the counts claim. Errors match ErrBadFormat.
func Decode(data []byte) (*File, error) { panic("store: not implemented") }

// Encode serialises entries in ascending id order with the given next_id
// (raised above every id if needed).
func Encode(nextID uint64, entries []Entry) []byte { panic("store: not implemented") }

// ValidName reports whether a name is safe as a dump file name (SPEC §2);
// the error says why not and matches ErrInvalidName.
func ValidName(name string) error { panic("store: not implemented") }

// ---- operations (store/ops.go) ----

// Op is one operation of SPEC §2. The concrete types are Add, Update, Write,
// SetAliases, Rename, Remove, Restore and Replace.
type Op interface{ op() }

// Add creates an entry; CreatedAt zero means now.
type Add struct {
	Name, Content string
	Aliases       []string
	Kind          Kind
	CreatedAt     uint64
}

// Update replaces content and the whole alias list. When Expect is non-nil
// the current entry must still have Expect's name, content and aliases, else
// ErrConflict.
type Update struct {
	Name, Content string
	Aliases       []string
	Expect        *Entry
}

// Write replaces content only.
type Write struct{ Name, Content string }

// SetAliases replaces the alias list (RFC 0150's Alias op).
type SetAliases struct {
	Name    string
	Aliases []string
}

// Rename changes an entry's canonical name.
type Rename struct{ Name, New string }

// Remove deletes an entry. When Expect is non-nil the entry must be
// unchanged from it, else ErrConflict.
type Remove struct {
	Name   string
	Expect *Entry
}

// Restore puts back an entry with its original id and created_at.
type Restore struct{ Entry Entry }

// Replace swaps the whole memory for the given entries (load). NextID zero
// means one above the largest id.
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

// Change records one entry's state before and after an applied operation.
// Before is nil for an added entry, After nil for a removed one.
type Change struct{ Before, After *Entry }

// Inverse returns the operation that undoes the change (Restore, Remove or
// Update/Rename with Expect set to After), safe to apply on a fresh file.
func (c Change) Inverse() []Op { panic("store: not implemented") }

// ---- memory (store/memory.go) ----

// Memory is the in-RAM state: entries, name and alias lookup, and the bm25
// index. All methods are safe for concurrent use (one writer, many readers).
type Memory struct{ _ int }

// NewMemory builds a memory (and its index, on all cores) from a decoded file.
func NewMemory(f *File) *Memory { panic("store: not implemented") }

// Len returns the number of entries.
func (m *Memory) Len() int { panic("store: not implemented") }

// NextID returns the id the next Add gets.
func (m *Memory) NextID() uint64 { panic("store: not implemented") }

// Entries returns every entry in ascending id order. The slice is a copy.
func (m *Memory) Entries() []Entry { panic("store: not implemented") }

// Get returns the entry with the given id.
func (m *Memory) Get(id uint64) (Entry, bool) { panic("store: not implemented") }

// Lookup resolves a name by the SPEC §2 rule (name, then lowest-id alias).
func (m *Memory) Lookup(name string) (Entry, bool) { panic("store: not implemented") }

// Apply applies ops in memory only, all or nothing, and returns the changes.
func (m *Memory) Apply(now time.Time, ops ...Op) ([]Change, error) {
	panic("store: not implemented")
}

// Search is exact recall: bm25 hits, at most limit.
func (m *Memory) Search(query string, limit int) []bm25.Hit { panic("store: not implemented") }

// Index returns the bm25 index (for explain and prefix expansion).
func (m *Memory) Index() *bm25.Index { panic("store: not implemented") }

// Diff counts what differs between two states by id.
type Diff struct{ Added, Removed, Changed []uint64 }

// Empty reports whether nothing changed.
func (d Diff) Empty() bool { return len(d.Added)+len(d.Removed)+len(d.Changed) == 0 }

// Sync brings the memory to the file's state in place, re-indexing only the
// entries that differ, and returns what changed.
func (m *Memory) Sync(f *File) Diff { panic("store: not implemented") }

// ---- persistence (store/db.go) ----

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

// Apply applies ops and saves atomically under the advisory lock. If the file
// changed since it was read, it is re-read and the ops re-applied on the fresh
// state; a precondition that no longer holds returns ErrConflict and changes
// nothing.
func (db *DB) Apply(ops ...Op) ([]Change, error) { panic("store: not implemented") }

// Reload re-reads the file if its fingerprint changed and syncs the memory.
// On error the memory is left as it was.
func (db *DB) Reload() (Diff, error) { panic("store: not implemented") }
