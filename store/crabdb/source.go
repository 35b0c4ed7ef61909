package crabdb

import (
	"math"
	"slices"
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

// Source is crabtalk's store seen as a store.Source: its entries, in key
// order, with internal ids that stay with their keys across reloads. It is
// read-only, recalls with the store's own recall and holds its sessions.
type Source struct {
	mu  sync.Mutex // guards f and its store (a reload extends it in place)
	f   *File
	mem *store.Memory
	ids map[string]uint64 // entry key → internal id
	// stored holds each entry as the store wrote it, by internal id.
	stored map[uint64]store.Stored
	next   uint64
	last   Reload // how the last reload went
	// gone holds the stored kind and created_at of entries a write of
	// crmem's removed, by internal id, for an undo that restores them.
	gone map[uint64]store.Stored
	// loaded says the first Load (of a Source as a Backend) was made.
	loaded bool
	// pending warns of a note of crmem's interrupted append beside the
	// store ("" when there is none), as of the last Load.
	pending string
	// repaired is what the start's repair of crmem's unfinished append
	// did (RepairAtStart; "" when there was none to repair).
	repaired string
	// problems are the entries the last read could not read (convert),
	// in key order; probs the same by key, which a delta updates.
	problems []string
	probs    map[string]string
	// writeErr is why the store as last read must not be written (nil:
	// it may be), as of the last Load or Write (checkWritable).
	writeErr error
}

// newSource is a Source over f with no memory built yet.
func newSource(f *File) *Source {
	return &Source{f: f, ids: map[string]uint64{}, stored: map[uint64]store.Stored{}, gone: map[uint64]store.Stored{}, next: IDBase}
}

// file converts the store's entries to a memory file's; s.mu is held (or
// s is not shared yet).
func (s *Source) file() *store.File {
	f, _, _ := s.convert()
	return f
}

// convert converts the store's entries to a memory file's, with what the
// conversion changed (notices) and the entries it could not read
// (problems); s.mu is held (or s is not shared yet).
func (s *Source) convert() (f *store.File, notices, problems []string) {
	stored, probs := s.f.Store().Entries()
	for _, p := range probs {
		problems = append(problems, p.Reason)
	}
	s.problems = problems
	s.probs = map[string]string{}
	for _, p := range probs {
		s.probs[p.Key] = p.Reason
	}
	s.f.Store().TakeTouched() // all converted: none left to convert again
	f = &store.File{Entries: make([]store.Entry, len(stored))}
	clear(s.stored)
	for i, e := range stored {
		id, ok := s.ids[e.Key]
		if !ok {
			s.next++
			id = s.next
			s.ids[e.Key] = id
		}
		var n []string
		f.Entries[i], n = e.V1(id)
		notices = append(notices, n...)
		s.stored[id] = store.Stored{Key: e.Key, Kind: e.Kind, CreatedAt: e.CreatedAt}
	}
	f.NextID = s.next + 1
	return f, notices, problems
}

// delta converts the memory entries the records appended since the last
// conversion touched (Store.TakeTouched), as convert would convert them
// with the whole store: an entry still stored is put (with the id its key
// has, or a new one, given in key order as convert gives them), one no
// longer stored is removed. The problems follow; s.mu is held.
func (s *Source) delta() store.Delta {
	var d store.Delta
	probsChanged := false
	for _, k := range s.f.Store().TakeTouched() {
		e, p, live := s.f.Store().Entry(k)
		if was, ok := s.probs[k]; ok && (p == nil || p.Reason != was) || !ok && p != nil {
			probsChanged = true
			delete(s.probs, k)
			if p != nil {
				s.probs[k] = p.Reason
			}
		}
		id, known := s.ids[k]
		if !live || p != nil && p.Skipped {
			if known {
				if _, ok := s.stored[id]; ok {
					delete(s.stored, id)
					d.Removed = append(d.Removed, id)
				}
			}
			continue
		}
		if !known {
			s.next++
			id = s.next
			s.ids[k] = id
		}
		v1, _ := e.V1(id)
		d.Put = append(d.Put, v1)
		s.stored[id] = store.Stored{Key: e.Key, Kind: e.Kind, CreatedAt: e.CreatedAt}
	}
	if probsChanged {
		keys := make([]string, 0, len(s.probs))
		for k := range s.probs {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		s.problems = s.problems[:0:0]
		for _, k := range keys {
			s.problems = append(s.problems, s.probs[k])
		}
	}
	d.NextID = s.next + 1
	return d
}

// Contents is crabtalk's store, whose bytes data were read from path, read
// once through this adapter: with its own recall and sessions and its
// entries as written (Features.Stored); nothing is indexed. What the
// conversion noticed, and the entries it could not read, are the
// Features' warnings. store/open tells the formats apart first.
func Contents(path string, data []byte) (*store.Contents, error) {
	st, err := Read(data)
	if err != nil {
		return nil, &store.PathError{Path: path, Err: err}
	}
	s := newSource(&File{path: path, store: st})
	f, notices, problems := s.convert()
	c := &store.Contents{Path: path, File: f, Features: s.Features(), Notices: notices}
	c.Features.Warnings = append(c.Features.Warnings, problems...)
	return c, nil
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
	switch {
	case err != nil || how == Unchanged:
		return store.Diff{}, err
	case how == Appended:
		d := s.delta()
		return s.mem.SyncEntries(d.Put, d.Removed, d.NextID), nil
	}
	return s.mem.Sync(s.file()), nil
}

// LastReload says how the last Reload went (Unchanged before any).
func (s *Source) LastReload() Reload {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Capabilities are what crabtalk's store can do: its history is its own log, its
// sessions are inside it, its recall orders ties (by key), and its reader
// takes no bytes past its log.
var Capabilities = store.Capabilities{History: store.HistoryFromLog, Sessions: store.SessionsInside, Log: HistoryLog{}}

// Features of crabtalk's store: read-only, its own recall, its own
// sessions, and what the last read warned about.
func (s *Source) Features() store.Features {
	s.mu.Lock()
	defer s.mu.Unlock()
	return store.Features{
		Format:   FormatName,
		Recall:   recaller{s},
		Sessions: sessionsReader{s},
		Warnings: s.warnings(),
		Stored:   storedReader{s},
		Caps:     Capabilities,
	}
}

// warnings are the store's warnings, the entries it could not read (as
// Contents gives them) and, when there is one, the note of an append of
// crmem's that was cut short; s.mu is held.
func (s *Source) warnings() []string {
	w := append(s.f.Store().Warnings(), s.problems...)
	if s.pending != "" {
		w = append(w, s.pending)
	}
	if s.repaired != "" {
		w = append(w, s.repaired)
	}
	return w
}

// storedReader gives a Source's entries as the store wrote them.
type storedReader struct{ s *Source }

// Stored returns the entry with internal id as the store wrote it.
func (r storedReader) Stored(id uint64) (store.Stored, bool) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	e, ok := r.s.stored[id]
	return e, ok
}

// recaller is a Source's recall.
type recaller struct{ s *Source }

// Rank runs the store's own recall; hits come back as internal ids.
func (r recaller) Rank(query string, limit int) ([]bm25.Hit, error) {
	hits, _, err := r.recall(query, limit, false)
	return hits, err
}

// Recall is Rank with each hit explained.
func (r recaller) Recall(query string, limit int) ([]bm25.Hit, []store.RecallHit, error) {
	return r.recall(query, limit, true)
}

// Hits runs the store's recall once for every hit; the first limit stay
// in rank order, explained when explain asks.
func (r recaller) Hits(query string, limit int, explain bool) (store.Hits, error) {
	all, parts, err := r.recall(query, math.MaxInt32, explain)
	if err != nil {
		return store.Hits{}, err
	}
	n := min(len(all), max(limit, 0))
	h := store.Hits{Top: all[:n], All: all}
	if explain {
		h.Parts = parts[:n]
	}
	return h, nil
}

// Terms are the store's query terms, a trailing `*` a prefix
// (QueryTerms).
func (recaller) Terms(query string) []store.RecallTerm { return QueryTerms(query) }

// Words are the query's words the store's recall does not take whole.
func (recaller) Words(query string) []store.QueryWord { return recallWords(query) }

// Stored is true: the store's recall ranks by its stored index.
func (recaller) Stored() bool { return true }

// Stand is the store's recall of every entry and where ids stand in it:
// an id it scores has its posting rows, grouped by query term in the
// query's order; a query term the id has no row for (and an id it does
// not score) gets a row with the term's df and idf from any hit it scored
// in, and no tf.
func (r recaller) Stand(query string, limit int, ids []uint64) (store.Ranking, error) {
	hits, parts, err := r.Recall(query, math.MaxInt)
	if err != nil {
		return store.Ranking{}, err
	}
	top := len(hits)
	if limit > 0 {
		top = min(top, limit)
	}
	rk := store.Ranking{Ranked: len(hits), Top: hits[:top], Standings: make(map[uint64]store.Standing, len(ids))}
	termStats := map[string]store.Part{} // a query term's df and idf
	at := make(map[uint64]int, len(hits))
	for i, h := range hits {
		at[h.ID] = i
		for _, p := range parts[i].Parts {
			termStats[p.Query] = store.Part{DF: p.DF, IDF: p.IDF}
		}
	}
	terms := QueryTerms(query)
	for _, id := range ids {
		var s store.Standing
		var own []store.Part
		if i, ok := at[id]; ok {
			s.Rank, s.Score, s.DocLen, own = i+1, hits[i].Score, int(parts[i].DocLen), parts[i].Parts
		}
		for _, t := range terms {
			q, matched := t.String(), false
			for _, p := range own {
				if p.Query == q {
					matched = true
					s.Parts = append(s.Parts, p)
				}
			}
			if !matched {
				ts := termStats[q]
				s.Parts = append(s.Parts, store.Part{Query: q, DF: ts.DF, IDF: ts.IDF})
			}
		}
		rk.Standings[id] = s
	}
	return rk, nil
}

// recall runs the store's recall, explained when explain asks.
func (r recaller) recall(query string, limit int, explain bool) ([]bm25.Hit, []store.RecallHit, error) {
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	hits, err := s.f.Store().recall(query, limit, explain)
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

// Where is the store: it holds its sessions.
func (sessionsReader) Where() string { return "the store" }

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
