package history

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// Following a store as it grows: what one build of its history read and
// decoded, kept for the next, so that a build after the agent's remember
// walks the records appended since and decodes the one session they
// touched, not the whole log and every session again.

// SessionCache keeps what one build of a store's history read for the
// next: each session as decoded, and, for BuildCached, the log as walked
// and the file it was read from. It is safe for concurrent use.
type SessionCache struct {
	mu     sync.Mutex
	m      map[string]cachedSession // by handle
	reused int                      // sessions the last build took from the cache
	last   *followed                // the last build's log and sessions (nil: none)
	// extended says the last build walked only the records appended
	// since the one before (tests).
	extended bool
}

// followed is what a build read of a store: its log, every session (those
// without a step too), the index built, and the file it was read from
// (BuildCached; nil info for FromStoreCached's bytes).
type followed struct {
	d    *logData
	all  map[string]*storeSession
	ix   *Index
	path string
	info os.FileInfo
}

// NewSessionCache returns an empty cache.
func NewSessionCache() *SessionCache { return &SessionCache{m: map[string]cachedSession{}} }

// follow is the index of the store at path: extended by the records
// appended since the last build when the file is the one it read (the
// same file, the same header, at least as long as the records it walked:
// crabtalk only appends, a checkpoint rewrites the header, a compaction
// replaces the file), else read whole. Unchanged, it is the last index.
func (c *SessionCache) follow(log store.Log, path string) (*Index, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, fi, err := store.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if l := c.last; l != nil && l.d.log == log && l.path == path && os.SameFile(fi, l.info) && fi.Size() >= l.d.end.Offset && l.d.stop == nil {
		end := l.d.end.Offset
		head := make([]byte, log.HeadLen())
		if _, err := io.ReadFull(f, head); err != nil {
			return nil, err
		}
		if log.Continues(l.d.data, head, end) {
			if fi.Size() == int64(len(l.d.data)) && fi.ModTime().Equal(l.info.ModTime()) {
				c.extended = true
				return l.ix, nil
			}
			data := grow(l.d.data[:end], int(fi.Size()))
			n, err := f.ReadAt(data[end:], end)
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			ix := c.extend(data[:end+int64(n)])
			c.last.path, c.last.info = path, fi
			return ix, nil
		}
	}
	data, err := readRoomy(f, fi.Size())
	if err != nil {
		return nil, err
	}
	ix := c.full(log, data)
	c.last.path, c.last.info = path, fi
	return ix, nil
}

// grow is b, which holds a file's first bytes, made n long: in place when
// its capacity allows (the bytes after len(b) belong to no one: every
// index sharing b reads only within its own length), else copied into a
// buffer with room to grow.
func grow(b []byte, n int) []byte {
	if n <= cap(b) {
		return b[:n]
	}
	out := make([]byte, n, roomy(n))
	copy(out, b)
	return out
}

// roomy is the capacity a buffer of a store's n bytes is given, so that
// the records appended next are read into it without copying the rest:
// a thirty-second more (21 MB on a 684 MB store: thousands of the agent's
// writes), at least a MiB.
func roomy(n int) int { return n + max(n/32, 1<<20) }

// readRoomy reads f, size bytes long, into a buffer with room to grow.
func readRoomy(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, size, roomy(int(size)))
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	return b[:n], nil
}

// full is the index of the store data holds, read whole, its sessions
// taken from the cache when they are as the cache holds them. c.mu is
// held.
func (c *SessionCache) full(log store.Log, data []byte) *Index {
	d := readLog(log, data)
	d.indexAll()
	all := map[string]*storeSession{}
	d.readSessions(all, 0, nil, nil)
	ix := c.index(d, all, func(s *storeSession, was cachedSession) bool { return sessionSum(s, sortedSteps(s)) != was.sum }, nil)
	c.last, c.extended = &followed{d: d, all: all, ix: ix}, false
	return ix
}

// extend is the index of the store data holds, the store the last build
// read with records appended (see follow): only those records are
// walked, and only the sessions they touch decoded again. c.mu is held.
func (c *SessionCache) extend(data []byte) *Index {
	l := c.last
	d := extendLog(l.d, data)
	all, touched := d.moreSessions(l.all, len(l.d.sessOffs))
	ix := c.index(d, all, func(s *storeSession, _ cachedSession) bool { return touched[s.handle] }, l.ix)
	c.last = &followed{d: d, all: all, ix: ix}
	c.extended = true
	return ix
}

// index builds the whole index of the log d walked, whose sessions are
// all: a session's decoding is taken from the cache unless changed says
// it changed or an agent name it asked for did. With prev (the index of
// the same log, shorter) its writes are taken, and only those of the
// sessions decoded again replaced; else every session's are gathered.
// The cache is left holding these sessions. c.mu is held.
func (c *SessionCache) index(d *logData, all map[string]*storeSession, changed func(*storeSession, cachedSession) bool, prev *Index) *Index {
	ix := &Index{log: d, writes: map[string][]call{}, sessInfo: map[string]sessionInfo{}, cache: map[string]History{}}
	agents := map[string]string{}
	var p sessions.RecallProblems
	next := make(map[string]cachedSession, len(all))
	var redone []string // sessions decoded again, in order
	c.reused = 0
	for _, h := range sortedHandles(all) {
		s := all[h]
		if s.steps == nil {
			continue // as ReadLog: a session of no step holds no write
		}
		was, ok := c.m[h]
		if ok && !changed(s, was) && d.sameAgents(was.agents, agents) {
			c.reused++
		} else {
			keys := sortedSteps(s)
			asked := map[string]string{}
			sr := d.readSession(s, keys, agents, asked)
			sr.Recalls = nil // a build keeps none
			was = cachedSession{sum: sessionSum(s, keys), agents: asked, sr: sr}
			redone = append(redone, h)
		}
		next[h] = was
		p.Add(was.sr.Problems)
		if prev == nil {
			ix.addSession(was.sr, s, keepAll)
		}
	}
	if prev != nil {
		ix.writes, ix.sessInfo = prev.writes, prev.sessInfo
		if len(redone) > 0 {
			ix.replaceWrites(redone, c.m, next, all)
		}
	}
	ix.problems = sessionProblems(p)
	c.m = next
	return ix
}

// replaceWrites replaces in ix (its writes and sessInfo, those of an
// earlier build, shared with it and left as they are) the writes of the
// sessions redone, as was held them, by those now holds: each name's
// writes stay in the order a whole build gathers them, by session, then
// as the session made them.
func (ix *Index) replaceWrites(redone []string, was, now map[string]cachedSession, all map[string]*storeSession) {
	fresh := &Index{writes: map[string][]call{}, sessInfo: maps.Clone(ix.sessInfo)}
	gone := map[string]bool{}
	for _, h := range redone {
		gone[h] = true
		delete(fresh.sessInfo, h)
		for _, w := range was[h].sr.Writes {
			if _, ok := fresh.writes[w.Name]; !ok {
				fresh.writes[w.Name] = nil // a name the session wrote: gathered again
			}
		}
	}
	for _, h := range redone {
		fresh.addSession(now[h].sr, all[h], keepAll)
	}
	writes := maps.Clone(ix.writes)
	for name, add := range fresh.writes {
		var list []call
		for _, w := range ix.writes[name] {
			if !gone[w.Session] {
				list = append(list, w)
			}
		}
		list = append(list, add...)
		slices.SortStableFunc(list, func(a, b call) int { return strings.Compare(a.Session, b.Session) })
		if len(list) == 0 {
			delete(writes, name)
			continue
		}
		writes[name] = list
	}
	ix.writes, ix.sessInfo = writes, fresh.sessInfo
}

// cachedSession is one session as a build decoded it: a sum of its meta
// and steps (sessionSum), the agent names the decoding asked for, and
// what a build keeps of it (its recalls left out).
type cachedSession struct {
	sum    [2]uint64
	agents map[string]string
	sr     sessions.SessionRecalls
}

// sessionSeeds seed sessionSum: two hashes, 128 bits.
var sessionSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// sessionSum sums what decoding s reads: its handle, meta, and steps in
// key order, each with its length.
func sessionSum(s *storeSession, keys []string) [2]uint64 {
	var out [2]uint64
	for i, seed := range sessionSeeds {
		var h maphash.Hash
		h.SetSeed(seed)
		part := func(b []byte) {
			var n [8]byte
			binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
			h.Write(n[:])
			h.Write(b)
		}
		part([]byte(s.handle))
		part(s.meta)
		for _, k := range keys {
			part([]byte(k))
			part(s.steps[k])
		}
		out[i] = h.Sum64()
	}
	return out
}

// sameAgents reports whether every agent id of asked has the name it had
// (agents caches the names by id, as readSession does).
func (d *logData) sameAgents(asked, agents map[string]string) bool {
	for id, was := range asked {
		name, ok := agents[id]
		if !ok && id != "" {
			name = d.agentName(id)
			agents[id] = name
		}
		if name != was {
			return false
		}
	}
	return true
}
