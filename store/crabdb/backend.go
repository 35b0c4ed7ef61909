package crabdb

import (
	"bytes"
	"fmt"
	"time"

	"github.com/crmem/crmem/store"
)

// A Source is also the store.Backend of a store.DB over crabtalk's store
// (store/open opens it so): the DB keeps the memory and runs the ops, the
// Source reads the file and appends the DB's changes as crabtalk's own
// put_memory and remove_memory would.

// openBackend is the store.DB over the store f read from path, after the
// start's repair rep (nil: none).
func openBackend(path string, f *File, rep *Repair, opts store.Options) (*store.DB, error) {
	f.recheck = recheck(path, opts.Guard)
	f.onHeld = opts.OnHeldSignal
	src := newSource(f)
	if rep != nil {
		src.repaired = rep.String()
	}
	return store.OpenBackend(path, src, opts)
}

// Load reads the store as it now is: the first time the file as opened,
// then only what was appended since (or the whole file after a
// compaction). With recover set (the caller holds crmem's lock of the
// folder), an append of crmem's own that was cut short is rolled back
// first (recoverAppend).
func (s *Source) Load(recover bool) (*store.File, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if recover {
		if _, err := recoverAppend(s.f.path); err != nil {
			return nil, false, err
		}
	}
	if !s.loaded {
		s.loaded = true
		s.pending = intentWarning(s.f.path)
		f := s.file()
		s.checkWritable()
		return f, true, nil
	}
	how, err := s.f.Reload()
	s.last = how
	if recover {
		s.pending = "" // recoverAppend removed the note
	}
	if err != nil || how == Unchanged {
		s.checkWritable()
		return nil, false, err
	}
	s.pending = intentWarning(s.f.path)
	f := s.file()
	s.checkWritable()
	return f, true, nil
}

// LoadDelta is Load(false) giving, after the first Load, only the
// entries the records appended since touched (store.DeltaBackend): a
// reload after the agent's one remember converts one entry, not every
// entry of the store. A store read again whole (compacted, replaced) is
// given whole.
func (s *Source) LoadDelta() (store.Delta, bool, error) {
	s.mu.Lock()
	if !s.loaded {
		s.mu.Unlock()
		f, changed, err := s.Load(false)
		return store.Delta{File: f}, changed, err
	}
	defer s.mu.Unlock()
	how, err := s.f.Reload()
	s.last = how
	if err != nil || how == Unchanged {
		s.checkWritable()
		return store.Delta{}, false, err
	}
	s.pending = intentWarning(s.f.path)
	var d store.Delta
	if how == Appended {
		d = s.delta()
	} else {
		d.File = s.file()
	}
	s.checkWritable()
	return d, true, nil
}

// Writable says why the store as last read must not be appended to.
func (s *Source) Writable() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writeErr
}

// checkWritable works out Writable for the store as now read; s.mu is
// held.
func (s *Source) checkWritable() {
	s.writeErr = s.f.Writable()
	switch {
	case s.writeErr != nil:
	case len(s.problems) > 0:
		s.writeErr = fmt.Errorf("not written: %s (crmem writes a store only when it reads every entry of it)", s.problems[0])
	}
	// A note of an interrupted append (s.pending) is only a warning: the
	// next write rolls the append back first (Load with recover).
}

// Write appends changes as crabtalk writes memory: for each changed entry
// in the order of the changes, put_memory under its (new) name when it
// still exists, then remove_memory of a name it no longer has (so a
// rename is a put of the new name, then a remove of the old, as crabtalk
// would do it). Entries keep the kind and created_at strings they were
// stored with unless the change gave them another; a new entry's
// created_at is now as chrono's to_rfc3339 prints it. All records go in
// one append (File.Append).
func (s *Source) Write(changes []store.Change, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := planWrite(changes)
	b, err := s.batchFor(p, changes, now)
	if err != nil {
		return err
	}
	err = s.f.Append(b)
	s.checkWritable()
	if err != nil {
		return err
	}
	s.followIDs(p) // the memory holds these changes already
	return nil
}

// writePlan is what a Write leaves under each memory key its changes
// touch.
type writePlan struct {
	final  map[string]*store.Entry // key → the entry it ends with (nil: none)
	from   map[string]*store.Entry // key → the Before of the change that ends it
	texts  map[string]string       // key → the created_at text an Add gave it
	stored map[string]store.Stored // key → the kind and created_at it is written with (batchFor)
}

// planWrite works out what each key the changes touch ends with.
func planWrite(changes []store.Change) *writePlan {
	p := &writePlan{final: map[string]*store.Entry{}, from: map[string]*store.Entry{}, texts: map[string]string{}, stored: map[string]store.Stored{}}
	for _, c := range changes {
		if c.Before != nil {
			if _, ok := p.final[MemoryKey(c.Before.Name)]; !ok {
				p.final[MemoryKey(c.Before.Name)] = nil
			}
		}
	}
	for _, c := range changes {
		if c.After != nil {
			p.final[MemoryKey(c.After.Name)], p.from[MemoryKey(c.After.Name)] = c.After, c.Before
			p.texts[MemoryKey(c.After.Name)] = c.CreatedAtText
		}
	}
	return p
}

// batchFor is the records of the plan p, in the order of the changes:
// put_memory of a key that ends with an entry when its first change
// names it (not when it is stored so already), remove_memory of one that
// ends with none.
func (s *Source) batchFor(p *writePlan, changes []store.Change, now time.Time) (*Batch, error) {
	b := s.f.Store().NewBatch()
	done := map[string]bool{}
	put := func(k string) error {
		e := p.final[k]
		st := s.storedFor(p.from[k], e, p.texts[k], now)
		p.stored[k] = st
		ne := Entry{Name: e.Name, Kind: st.Kind, Content: e.Content, Aliases: e.Aliases, CreatedAt: st.CreatedAt}
		if cur, ok := b.get(ColMemory, k); ok && bytes.Equal(cur, EntryJSON(ne)) {
			return nil // stored as it is already (a load of what is there)
		}
		return b.PutMemory(ne)
	}
	for _, c := range changes {
		if c.After != nil {
			if k := MemoryKey(c.After.Name); p.final[k] != nil && !done[k] {
				done[k] = true
				if err := put(k); err != nil {
					return nil, err
				}
			}
		}
		if c.Before != nil {
			if k := MemoryKey(c.Before.Name); p.final[k] == nil && !done[k] {
				done[k] = true
				if _, err := b.RemoveMemory(c.Before.Name); err != nil {
					return nil, err
				}
			}
		}
	}
	return b, nil
}

// followIDs keeps the source's ids in step with the memory after the
// plan p was appended: a key gone forgets its id, a key written maps to
// its entry's id, with what it is stored as.
func (s *Source) followIDs(p *writePlan) {
	for k, e := range p.final {
		if e == nil {
			if id, ok := s.ids[k]; ok {
				s.gone[id] = s.stored[id]
				delete(s.stored, id)
				delete(s.ids, k)
			}
			continue
		}
		if old, ok := s.ids[k]; ok && old != e.ID {
			s.gone[old] = s.stored[old]
			delete(s.stored, old)
		}
		s.ids[k] = e.ID
		s.stored[e.ID] = store.Stored{Key: k, Kind: p.stored[k].Kind, CreatedAt: p.stored[k].CreatedAt}
		s.next = max(s.next, e.ID)
	}
}

// storedFor is the kind and created_at strings entry e is written with:
// those it was stored with unless the change gave it another kind or time,
// and for a new entry now. What it was stored with is looked up by id (an
// entry removed and now restored by an undo gets its own back), else under
// its key (an entry a load put back in place of itself has a new id, and
// keeps its string to the nanosecond; unchanged, it is not written at
// all), else is the text an Add gave it (text: an entry restored from its
// history), when it names the same second.
func (s *Source) storedFor(before, e *store.Entry, text string, now time.Time) store.Stored {
	st, known := s.stored[e.ID]
	if !known {
		st, known = s.gone[e.ID]
	}
	if id, ok := s.ids[MemoryKey(e.Name)]; !known && ok {
		st, known = s.stored[id]
	}
	if !known && text != "" {
		st, known = store.Stored{Kind: e.Kind.String(), CreatedAt: text}, true
	}
	out := store.Stored{Kind: e.Kind.String(), CreatedAt: RFC3339(time.Unix(int64(e.CreatedAt), 0))}
	if !known {
		if before == nil && e.CreatedAt == uint64(max(now.Unix(), 0)) {
			out.CreatedAt = RFC3339(now) // added now: the clock as crabtalk prints it
		}
		return out
	}
	if k, _ := (Entry{Kind: st.Kind}).V1Kind(); k == e.Kind {
		out.Kind = st.Kind
	}
	if secs, _ := (Entry{CreatedAt: st.CreatedAt}).Created(); secs == e.CreatedAt {
		out.CreatedAt = st.CreatedAt
	}
	return out
}

// OpenDBIfStore is OpenDB when path holds a store, by structure (the file
// is read once): ok is false, and nothing is opened, when it does not.
func OpenDBIfStore(path string, opts store.Options) (db *store.DB, ok bool, err error) {
	rep, err := RepairAtStart(path, opts.Guard)
	if err != nil {
		return nil, true, err
	}
	f, ok, err := openIfStore(path)
	if !ok || err != nil {
		return nil, ok, err
	}
	db, err = openBackend(path, f, rep, opts)
	return db, true, err
}

// recheck is Append's second run of the guard (nil without one).
func recheck(path string, guard store.Guard) func() error {
	if guard == nil {
		return nil
	}
	return func() error {
		if _, err := guard(path); err != nil {
			return fmt.Errorf("%w (seen once crmem had reserved its room at the end of the store, a harmless record that stays; nothing else was written)", err)
		}
		return nil
	}
}

var _ store.DeltaBackend = (*Source)(nil)
