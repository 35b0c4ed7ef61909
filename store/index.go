package store

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crmem/crmem/bm25"
)

// startIndex starts building the index unless a build already started, and
// returns the channel closed when the index is ready. With background false
// the build runs before startIndex returns. The build waits at each
// document while HoldIndex holds it.
func (m *Memory) startIndex(background bool) chan struct{} {
	return m.startIndexOf(func() entryDocs {
		es := make([]*Entry, 0, m.live())
		m.each(func(e *Entry) { es = append(es, e) })
		return entryDocs{len(es), func(i int) bm25.Doc {
			m.hold.wait()
			return docOf(es[i])
		}}
	}, background)
}

// entryDocs is a snapshot of entries as the index's documents, read in
// place (entries are immutable) rather than copied into a []bm25.Doc, which
// would add to the peak memory of an open.
type entryDocs struct {
	n   int
	doc func(i int) bm25.Doc
}

// entrySlice is the documents of a slice of entries.
func entrySlice(entries []Entry) entryDocs {
	return entryDocs{len(entries), func(i int) bm25.Doc { return docOf(&entries[i]) }}
}

// startIndexOf builds the index of the documents snapshot returns (called
// under the write lock, so no change slips in between snapshot and build
// start) unless a build already started.
func (m *Memory) startIndexOf(snapshot func() entryDocs, background bool) chan struct{} {
	m.mu.Lock()
	if m.ixDone != nil {
		done := m.ixDone
		m.mu.Unlock()
		return done
	}
	docs := snapshot()
	done := make(chan struct{})
	m.ixDone = done
	m.mu.Unlock()
	build := func() {
		defer close(done)
		defer func() {
			// A fault on a mapped file cut short (the build's own or a
			// worker's, carried back by workgroup) is kept for Index to
			// raise on the goroutine that waits, where the command turns
			// it into one line; raised here, on a goroutine of its own,
			// it would end the process with a stack trace.
			if r := recover(); r != nil {
				m.mu.Lock()
				m.ixFault = r
				m.mu.Unlock()
			}
		}()
		start := time.Now()
		ix := bm25.BuildFunc(docs.n, docs.doc) // entries are immutable: no lock needed
		m.mu.Lock()
		m.ix, m.ixTook = ix, time.Since(start)
		m.mu.Unlock()
	}
	if background {
		go func() {
			debug.SetPanicOnFault(true) // a fault reading the entries is a panic, not a crash
			build()
		}()
	} else {
		build()
	}
	return done
}

func docOf(e *Entry) bm25.Doc {
	return bm25.Doc{ID: e.ID, Content: e.Content, Aliases: e.Aliases}
}

// StartBackground starts building the bm25 index on goroutines of its own
// (unless a build already started), then the name and alias maps (unless
// built), and returns at once. A memory made with IndexOnDemand
// and started this way once its first screen is drawn has the screen's
// work to itself until then, where IndexBackground's build shares the
// cores with it from the decode on; Search, Index and Apply wait for the
// build as with IndexBackground.
func (m *Memory) StartBackground() {
	done := m.startIndex(true)
	go func() {
		<-done // then: the maps are built on demand if needed sooner
		m.lookupsInBackground()
	}()
}

// HoldIndex holds the index build, under way or to come, of a memory that
// builds it on demand (IndexOnDemand, StartBackground) at its next
// document until release is called (once or more), and returns release:
// a reader that answers by a pass over the entries meanwhile (the screen's
// first query, ranked before the index is built) has the cores to itself
// rather than sharing them with the build. Holds may overlap; the build
// goes on once every one is released. The holder must release before it
// waits for the index (Index, Search, WaitIndexed, Apply), or it waits
// for itself.
func (m *Memory) HoldIndex() (release func()) {
	m.hold.mu.Lock()
	defer m.hold.mu.Unlock()
	if m.hold.n++; m.hold.n == 1 {
		m.hold.open = make(chan struct{})
		m.hold.held.Store(true)
	}
	return sync.OnceFunc(m.hold.release)
}

// buildHold is the state of HoldIndex: how many holds are in force, and
// the channel closed when the last is released.
type buildHold struct {
	held    atomic.Bool  // n > 0, read by the build at each document
	waiting atomic.Int32 // the build's goroutines waiting at a hold now
	mu      sync.Mutex
	n       int
	open    chan struct{}
}

// release drops one hold; the last lets the build go on.
func (h *buildHold) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n--; h.n == 0 {
		h.held.Store(false)
		close(h.open)
		h.open = nil
	}
}

// wait returns once no hold is in force.
func (h *buildHold) wait() {
	if h.held.Load() {
		h.waitHeld()
	}
}

// waitHeld is wait's slow path, kept apart so that wait inlines.
func (h *buildHold) waitHeld() {
	h.mu.Lock()
	open := h.open
	h.mu.Unlock()
	if open != nil {
		h.waiting.Add(1)
		<-open
		h.waiting.Add(-1)
	}
}

// IndexReady reports whether the bm25 index is built.
func (m *Memory) IndexReady() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.ix != nil
}

// IndexBuildTime returns how long building the bm25 index took (0 until it
// is built). The build may have run beside decoding's last steps, so it is
// a part of an open's time, not a difference of two points in it.
func (m *Memory) IndexBuildTime() time.Duration {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.ixTook
}

// WaitIndexed blocks until the index is built, starting the build if the
// memory was made with IndexOnDemand and nothing needed it yet.
func (m *Memory) WaitIndexed() { m.Index() }

// Index returns the bm25 index (for explain and prefix expansion), waiting
// for it to be built. The index changes in place as the memory does.
func (m *Memory) Index() *bm25.Index {
	m.mu.RLock()
	ix, done := m.ix, m.ixDone
	m.mu.RUnlock()
	if ix != nil {
		return ix
	}
	if done == nil {
		done = m.startIndex(false)
	}
	<-done
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.ixFault != nil {
		panic(m.ixFault)
	}
	return m.ix
}

// Search is exact recall: the bm25 hits for query, at most limit (limit <= 0
// means all). It waits for the index if it is still being built.
func (m *Memory) Search(query string, limit int) []bm25.Hit {
	ix := m.Index()
	m.mu.RLock()
	defer m.mu.RUnlock()
	return ix.Search(query, limit)
}

// lockWrite takes mu for writing once no index build is under way, so every
// change reaches the index: a build works on a snapshot of the entries.
func (m *Memory) lockWrite() {
	for {
		m.mu.Lock()
		if m.ixDone == nil || m.ix != nil || m.ixFault != nil {
			m.gen++
			m.mapIDs()
			m.asRead = nil // the write may change what each walks
			return
		}
		done := m.ixDone
		m.mu.Unlock()
		<-done
	}
}

// reindex brings the index (if built) in step with one entry's change; the
// caller holds mu for writing.
func (m *Memory) reindex(c Change) {
	switch {
	case m.ix == nil:
	case c.After == nil:
		m.ix.Remove(docOf(c.Before))
	case c.Before == nil:
		m.ix.Set(docOf(c.After))
	case !sameDoc(c.Before, c.After):
		m.ix.Replace(docOf(c.Before), docOf(c.After))
	}
}
