package history

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// Current is an entry as memory holds it now.
type Current struct {
	Name, Kind, Content string
	Aliases             []string
	CreatedAt           string
}

// Index holds the evidence of every entry's history in one memory: a
// store's memory records and renames, the agent's memory writes from the
// sessions, and the entries now. History assembles one entry's versions
// from it on demand. It is safe for concurrent use.
type Index struct {
	log      *logData // nil for a v1 memory
	writes   map[string][]call
	sessInfo map[string]sessionInfo
	current  map[string]Current
	problems []string
	mu       sync.Mutex
	cache    map[string]History
}

// sessionInfo is what a session's meta says.
type sessionInfo struct{ title, createdBy string }

// Build reads every entry's history in the memory src holds: for
// crabtalk's store its whole log (read again from src.Path()) and the
// sessions the store holds; for a v1 file its entries now and its
// sessions folder. It reads every session, so call it off a screen's
// update loop.
func Build(src store.Source) (*Index, error) {
	f := src.Features()
	switch f.Caps.History {
	case store.HistoryFromSessions:
		return FromV1(CurrentOf(src.Memory().Entries(), nil), f.Sessions, nil)
	case store.HistoryFromLog:
		data, _, err := store.ReadFileInfo(src.Path())
		if err != nil {
			return nil, fmt.Errorf("history of %s: %w", src.Path(), err)
		}
		return ReadLog(f.Caps.Log, data, nil), nil
	}
	return nil, fmt.Errorf("history of %s: the %s format keeps none crmem reads", src.Path(), f.Format)
}

// OneV1 is the history of the entry name in a v1 memory read once (a
// command line's question about one entry): only that name's writes are
// kept from the sessions.
func OneV1(c *store.Contents, name string) (History, error) {
	ix, err := FromV1(CurrentOf(c.File.Entries, c.Features.Stored), c.Features.Sessions, &name)
	if err != nil {
		return History{}, err
	}
	return ix.History(name), nil
}

// OneLog is the history of the entry name in the memory whose log, read
// by log, data holds (a command line's question about one entry): the
// sessions are decoded only when they name it or a name a rename links it
// to.
func OneLog(log store.Log, data []byte, name string) History {
	return ReadLog(log, data, &name).History(name)
}

// CurrentOf converts entries to Current, their kind and created_at as
// stored where stored says (crabtalk's store).
func CurrentOf(entries []store.Entry, stored store.StoredReader) map[string]Current {
	out := make(map[string]Current, len(entries))
	for _, e := range entries {
		c := Current{Name: e.Name, Kind: e.Kind.String(), Content: e.Content, Aliases: e.Aliases,
			CreatedAt: time.Unix(int64(e.CreatedAt), 0).UTC().Format(time.RFC3339)}
		if stored != nil {
			if st, ok := stored.Stored(e.ID); ok {
				c.Kind, c.CreatedAt = st.Kind, st.CreatedAt
			}
		}
		if c.Aliases == nil {
			c.Aliases = []string{}
		}
		out[e.Name] = c
	}
	return out
}

// FromV1 indexes a v1 memory: its entries now and the memory writes of
// its sessions. only, when set, keeps the writes of the entry only names
// (a v1 memory has no renames to follow).
func FromV1(current map[string]Current, ss store.SessionsReader, only *string) (*Index, error) {
	ix := &Index{writes: map[string][]call{}, sessInfo: map[string]sessionInfo{}, current: current, cache: map[string]History{}}
	if ss == nil {
		return ix, nil
	}
	p, err := ss.Recalls(sessions.RecallOptions{}, func(sr sessions.SessionRecalls) error {
		ix.addSession(sr, nil, func(name string) bool { return only == nil || name == *only })
		return nil
	})
	if err != nil {
		return nil, err
	}
	ix.problems = sessionProblems(p)
	return ix, nil
}

// ReadLog indexes a memory whose history is its log (crabtalk's store)
// from its bytes, read by log (the format's Capabilities.Log): the log and
// the sessions it holds. only, when set, is the one entry asked about: the
// records of the other names are never sorted out, and of the sessions
// only the steps that name it (or a name a rename links it to) are
// decoded: its calls, their results and events all hold its name.
func ReadLog(log store.Log, data []byte, only *string) *Index {
	d := readLog(log, data)
	ix := &Index{log: d, writes: map[string][]call{}, sessInfo: map[string]sessionInfo{}, cache: map[string]History{}}
	keep := keepAll
	var steps func([]byte) bool
	if only != nil {
		set := map[string]bool{}
		for _, n := range d.lineage(*only).names {
			set[n] = true
		}
		keep = func(n string) bool { return set[n] }
		steps = func(v []byte) bool { return sessions.StepNamesAny(v, set) }
	} else {
		d.indexAll()
	}
	ss := d.sessions(steps)
	agents := map[string]string{}
	var p sessions.RecallProblems
	for _, h := range sortedHandles(ss) {
		sr := d.readSession(ss[h], sortedSteps(ss[h]), agents, nil)
		if only == nil {
			p.Add(sr.Problems) // a step filtered out is not a problem
		}
		ix.addSession(sr, ss[h], keep)
	}
	ix.problems = sessionProblems(p)
	return ix
}

// BuildCached is Build following a store as it grows: when the store is
// the file the last build with cache read, with records appended since
// (the same file, header and bytes, longer), only the appended records
// are walked and only the sessions they touch decoded again (see
// SessionCache.follow), else it is read whole, its sessions decoded
// again unless cache holds them as they are (ReadLogCached). Either
// way the index is exactly what Build gives. A v1 memory is built as
// Build builds it.
func BuildCached(src store.Source, cache *SessionCache) (*Index, error) {
	caps := src.Features().Caps
	if caps.History != store.HistoryFromLog {
		return Build(src)
	}
	ix, err := cache.follow(caps.Log, src.Path())
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", src.Path(), err)
	}
	return ix, nil
}

// keepAll keeps the writes of every name.
func keepAll(string) bool { return true }

// sortedSteps are the keys of s's steps in ascending byte order, the
// order store.Log.SessionRecalls takes them in.
func sortedSteps(s *storeSession) []string {
	keys := make([]string, 0, len(s.steps))
	for k := range s.steps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// readSession decodes one session's memory writes (and recalls) as the
// agent's own reader does (store.Log.SessionRecalls), its steps in key
// order (keys, sortedSteps). agents caches agent names by id; asked (nil:
// not kept) receives the names this session asked for.
func (d *logData) readSession(s *storeSession, keys []string, agents, asked map[string]string) sessions.SessionRecalls {
	return d.log.SessionRecalls(s.handle, s.meta, keys, s.steps, func(id string) (string, int) {
		name, ok := agents[id]
		if !ok && id != "" {
			name = d.agentName(id)
			agents[id] = name
		}
		if asked != nil {
			asked[id] = name
		}
		return name, sessions.DefaultRecallLimit
	})
}

// call is a memory write with, for a store, the part of the log its
// write must lie in: after the session's last record before the call's
// message (the run began after it) and before the record of the call's
// result (written after the tool ran). hi 0: not known.
type call struct {
	sessions.Write
	lo, hi int64
}

// addSession keeps a session's memory writes of the names keep accepts;
// ss is the session's records in a store's log (nil for a sessions
// folder).
func (ix *Index) addSession(sr sessions.SessionRecalls, ss *storeSession, keep func(string) bool) {
	for _, w := range sr.Writes {
		if w.BadArguments || !keep(w.Name) {
			continue
		}
		c := call{Write: w}
		if ss != nil {
			if at, ok := ss.stepOff[w.Step]; ok {
				c.lo = ss.before(at)
			}
			c.hi = ss.stepOff[w.ResultStep]
		}
		ix.writes[w.Name] = append(ix.writes[w.Name], c)
		ix.sessInfo[w.Session] = sessionInfo{title: sr.Title, createdBy: sr.CreatedBy}
	}
}

// sessionProblems says in lines what reading the sessions could not use.
func sessionProblems(p sessions.RecallProblems) []string {
	var out []string
	if p.UnreadableSteps > 0 {
		out = append(out, fmt.Sprintf("%d session steps could not be read", p.UnreadableSteps))
	}
	if p.UnparsableSteps > 0 {
		out = append(out, fmt.Sprintf("%d session steps are not steps crabtalk reads", p.UnparsableSteps))
	}
	return out
}
