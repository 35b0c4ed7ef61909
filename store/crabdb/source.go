package crabdb

import (
	"sync"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// The adapter lives here, not in store: this package reads the store's
// records and already imports store for its entry types, so store names the
// Source interface and this package satisfies it (store importing crabdb
// would be a cycle).

// IDBase is where the internal ids of a store's entries start. Store
// entries have no id; a Source still needs one per entry to follow it
// across reloads, and ids from here up are never shown.
const IDBase = 1 << 62

// OpenSource opens path as crabtalk's store when it is one (by structure),
// else as a v1 memory file whose index builds in the background.
func OpenSource(path string) (store.Source, error) {
	if IsStore(path) {
		s, err := NewSource(path)
		if err != nil {
			return nil, err // no typed nil inside the interface
		}
		return s, nil
	}
	db, err := store.OpenLazy(path)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// Source is crabtalk's store seen as a store.Source: its entries, in key
// order, with internal ids that stay with their keys across reloads. It is
// read-only, recalls with the store's own recall and holds its sessions.
type Source struct {
	mu   sync.Mutex // guards f and its store (a reload extends it in place)
	f    *File
	mem  *store.Memory
	ids  map[string]uint64 // entry key → internal id
	next uint64
	last Reload // how the last reload went
}

// NewSource reads the store at path.
func NewSource(path string) (*Source, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	s := &Source{f: f, ids: map[string]uint64{}, next: IDBase}
	s.mem = store.NewMemoryWith(s.file(), store.IndexBackground)
	return s, nil
}

// file converts the store's entries to a memory file's; s.mu is held (or
// s is not shared yet).
func (s *Source) file() *store.File {
	stored, _ := s.f.Store().Entries()
	out := &store.File{Entries: make([]store.Entry, len(stored))}
	for i, e := range stored {
		id, ok := s.ids[e.Key]
		if !ok {
			s.next++
			id = s.next
			s.ids[e.Key] = id
		}
		out.Entries[i], _ = e.V1(id)
	}
	out.NextID = s.next + 1
	return out
}

// Path is the store's path.
func (s *Source) Path() string { return s.f.Path() }

// Memory is the store's entries as a memory.
func (s *Source) Memory() *store.Memory { return s.mem }

// Exists is true: a store that could be opened exists.
func (s *Source) Exists() bool { return true }

// Reload reads what the daemon appended (only the new bytes), or the whole
// file after a compaction or a header change, and syncs the memory.
func (s *Source) Reload() (store.Diff, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	how, err := s.f.Reload()
	s.last = how
	if err != nil || how == Unchanged {
		return store.Diff{}, err
	}
	return s.mem.Sync(s.file()), nil
}

// LastReload says how the last Reload went (Unchanged before any).
func (s *Source) LastReload() Reload {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Features of crabtalk's store: read-only, its own recall, its own
// sessions, and what the last read warned about.
func (s *Source) Features() store.Features {
	s.mu.Lock()
	defer s.mu.Unlock()
	return store.Features{
		Format:   "crabtalk store",
		Recall:   recaller{s},
		Sessions: sessionsReader{s},
		Warnings: s.f.Store().Warnings(),
	}
}

// recaller is a Source's recall.
type recaller struct{ s *Source }

// Recall runs the store's own recall; hits come back as internal ids.
func (r recaller) Recall(query string, limit int) ([]bm25.Hit, []store.RecallHit, error) {
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	hits, err := s.f.Store().RecallExplained(query, limit)
	if err != nil {
		return nil, nil, err
	}
	out := make([]bm25.Hit, 0, len(hits))
	kept := hits[:0:0]
	for _, h := range hits {
		if id, ok := s.ids[h.Key]; ok {
			out = append(out, bm25.Hit{ID: id, Score: h.Score})
			kept = append(kept, h)
		}
	}
	return out, kept, nil
}

// RecallStats returns the index's stored stats.
func (r recaller) RecallStats() store.RecallStats {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	st, _, _ := r.s.f.Store().Stats()
	return st
}

// sessionsReader reads a Source's sessions.
type sessionsReader struct{ s *Source }

// Read returns the store's sessions as the sessions folder would give
// them: each compaction marker is the session's last, its resume point.
func (r sessionsReader) Read() ([]sessions.Session, error) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	var out []sessions.Session
	for _, ss := range r.s.f.Store().Sessions() {
		se := sessions.Session{Name: ss.Handle}
		if ss.Archive != "" {
			se.Archives, se.Resume = []string{ss.Archive}, ss.Archive
		}
		out = append(out, se)
	}
	return out, nil
}

// Both formats are sources.
var (
	_ store.Source = (*Source)(nil)
	_ store.Source = (*store.DB)(nil)
)
