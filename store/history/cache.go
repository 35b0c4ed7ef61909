package history

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/crmem/crmem/store/sessions"
)

// Keeping a store's decoded sessions from one build of its history to
// the next.

// SessionCache keeps what one build of a store's history decoded of each
// session for the next (FromStoreCached). It is safe for concurrent use.
type SessionCache struct {
	mu     sync.Mutex
	m      map[string]cachedSession // by handle
	reused int                      // sessions the last build took from the cache
}

// NewSessionCache returns an empty cache.
func NewSessionCache() *SessionCache { return &SessionCache{m: map[string]cachedSession{}} }

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

// readSessionCached is readSession, taken from was when the session and
// the agent names it asked for are as they were, and kept in next.
func (d *logData) readSessionCached(s *storeSession, agents map[string]string, was, next map[string]cachedSession) (sr sessions.SessionRecalls, reused bool) {
	keys := sortedSteps(s)
	sum := sessionSum(s, keys)
	if c, ok := was[s.handle]; ok && c.sum == sum && d.sameAgents(c.agents, agents) {
		next[s.handle] = c
		return c.sr, true
	}
	asked := map[string]string{}
	sr = d.readSession(s, keys, agents, asked)
	sr.Recalls = nil // a build keeps none
	next[s.handle] = cachedSession{sum: sum, agents: asked, sr: sr}
	return sr, false
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
