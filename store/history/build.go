package history

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
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
		return FromStore(data, nil), nil
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

// OneStore is the history of the entry name in crabtalk's store held in
// data (a command line's question about one entry): the sessions are
// decoded only when they name it or a name a rename links it to.
func OneStore(data []byte, name string) History {
	return FromStore(data, &name).History(name)
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

// FromStore indexes crabtalk's store from its bytes: the log and the
// sessions it holds. only, when set, is the one entry asked about: the
// records of the other names are never sorted out, and of the sessions
// only the steps that name it (or a name a rename links it to) are
// decoded: its calls, their results and events all hold its name.
func FromStore(data []byte, only *string) *Index {
	return fromStore(data, only, nil)
}

// FromStoreCached is FromStore of the whole index, decoding again only
// the sessions cache does not hold as they now are (a session's meta and
// steps, and the agent names it asked for, unchanged since the build
// that cached it): an agent's remember touches one session of hundreds,
// and decoding the sessions is most of a build. It gives exactly what
// FromStore gives, and leaves in cache this build's sessions.
func FromStoreCached(data []byte, cache *SessionCache) *Index {
	return fromStore(data, nil, cache)
}

// BuildCached is Build with a store's sessions kept in cache from one
// build to the next (FromStoreCached); a v1 memory is built as Build
// builds it.
func BuildCached(src store.Source, cache *SessionCache) (*Index, error) {
	if src.Features().Caps.History != store.HistoryFromLog {
		return Build(src)
	}
	data, _, err := store.ReadFileInfo(src.Path())
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", src.Path(), err)
	}
	return FromStoreCached(data, cache), nil
}

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

// fromStore is FromStore, with cache (nil: none) for a whole index.
func fromStore(data []byte, only *string, cache *SessionCache) *Index {
	d := readLog(data)
	ix := &Index{log: d, writes: map[string][]call{}, sessInfo: map[string]sessionInfo{}, cache: map[string]History{}}
	keep := func(string) bool { return true }
	var steps func([]byte) bool
	if only != nil {
		set := map[string]bool{}
		for _, n := range d.lineage(*only).names {
			set[n] = true
		}
		keep = func(n string) bool { return set[n] }
		steps = func(v []byte) bool { return namesAny(v, set) }
	} else {
		d.indexAll()
	}
	ss := d.sessions(steps)
	agents := map[string]string{}
	var p sessions.RecallProblems
	var next map[string]cachedSession
	if cache != nil && only == nil {
		cache.mu.Lock()
		defer cache.mu.Unlock()
		next = make(map[string]cachedSession, len(ss))
		cache.reused = 0
	}
	for _, h := range sortedHandles(ss) {
		var sr sessions.SessionRecalls
		if next != nil {
			var reused bool
			if sr, reused = d.readSessionCached(ss[h], agents, cache.m, next); reused {
				cache.reused++
			}
		} else {
			sr = d.readSession(ss[h], sortedSteps(ss[h]), agents, nil)
		}
		if only == nil {
			p.Add(sr.Problems) // a step filtered out is not a problem
		}
		ix.addSession(sr, ss[h], keep)
	}
	ix.problems = sessionProblems(p)
	if next != nil {
		cache.m = next
	}
	return ix
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

// sortedSteps are the keys of s's steps in order: "evt/…" before
// "msg/…", each by index.
func sortedSteps(s *storeSession) []string {
	keys := make([]string, 0, len(s.steps))
	for k := range s.steps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// readSession decodes one store session's memory writes (and recalls) as
// crabdb's own reader does (crabdb.NewSessionBuilder): events, then
// messages, in key order (keys, sortedSteps). agents caches agent names
// by id; asked (nil: not kept) receives the names this session asked for.
func (d *logData) readSession(s *storeSession, keys []string, agents, asked map[string]string) sessions.SessionRecalls {
	b := crabdb.NewSessionBuilder(s.handle, s.meta, func(id string) (string, int) {
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
	for _, k := range keys {
		b.AddStep(k, s.steps[k], nil)
	}
	return b.Finish()
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

// lifetime is one life of a name in the log: the records from a Put
// while it was not live to the Delete that ended it (or the log's end),
// as indices into recs.
type lifetime struct {
	name       string
	start, end int // indices into recs; end is the last record of it
}

// lifetimes splits the records of name into its lives.
func (d *logData) lifetimes(name string) []lifetime {
	var out []lifetime
	open := false
	for _, i := range d.indices(name) {
		if !open {
			out = append(out, lifetime{name: name, start: i, end: i})
			open = !d.recs[i].del
			continue
		}
		out[len(out)-1].end = i
		if d.recs[i].del {
			open = false
		}
	}
	return out
}

// lifetimeEndingAt is the life of its name that the Delete recs[i] ended
// (a rename's, renamed away), and its records in order, found back along
// the name's hash chain to the record after its Delete before: only that
// life's records are read, whatever the number of the name's others.
func (d *logData) lifetimeEndingAt(i int) (lifetime, []int) {
	recs := []int{i}
	for j, ok := d.previous(i); ok && !d.recs[j].del; j, ok = d.previous(j) {
		recs = append(recs, j)
	}
	slices.Reverse(recs)
	return lifetime{name: string(d.name(i)), start: recs[0], end: i}, recs
}

// lineage is the story of the name asked about as records, split into
// its lives: every life of name in the log, each with, back through the
// renames into it, the life of the entry before it under the name it was
// renamed from (up to that rename), transitively. Never the life of the
// entry after a rename away: that is another name's story. life maps each
// record kept to its life, numbered from 1 in log order; a record lies in
// one life only, the latest holding it (a name renamed away and back is
// one entry: its earlier life is part of the later). names are the names
// those lives are under, name first; recs the records kept of each, in
// order.
func (d *logData) lineage(name string) *lineage {
	if ln, ok := d.lineages[name]; ok {
		return ln
	}
	ln := &lineage{life: map[int]int{}, names: []string{name}, recs: map[string][]int{}}
	seen := map[string]bool{name: true}
	own := d.lifetimes(name)
	var order []int // provisional life numbers kept, latest first
	for k := len(own) - 1; k >= 0; k-- {
		id, added := k+1, false
		l, idx := own[k], d.indices(name)
		idx = idx[sort.SearchInts(idx, l.start):]
		for {
			if !seen[l.name] {
				seen[l.name] = true
				ln.names = append(ln.names, l.name)
			}
			for _, i := range idx {
				if i > l.end {
					break
				}
				if _, taken := ln.life[i]; !taken {
					ln.life[i], added = id, true
					ln.recs[l.name] = append(ln.recs[l.name], i)
				}
			}
			r, isRename := d.renameAt(l.start)
			if !isRename {
				break
			}
			l, idx = d.lifetimeEndingAt(r.at + 1)
		}
		if added {
			order = append(order, id)
		}
	}
	renumber := map[int]int{}
	for k, id := range order {
		renumber[id] = len(order) - k
	}
	for i, id := range ln.life {
		ln.life[i] = renumber[id]
	}
	for _, idx := range ln.recs {
		slices.Sort(idx)
	}
	ln.lives = len(order)
	d.lineages[name] = ln
	return ln
}

// lineage is what logData.lineage finds of a name.
type lineage struct {
	life  map[int]int      // record → its life, from 1
	lives int              // how many
	names []string         // the names its records are under, the name asked about first
	recs  map[string][]int // name → its records kept, in order
}

// renamedAway is the name recs[i] was renamed to when it is the Delete
// that ended a life by a rename away (the rename's Put just before it).
func (d *logData) renamedAway(i int) (string, bool) {
	if i == 0 || !d.recs[i].del {
		return "", false
	}
	r, ok := d.renameAt(i - 1)
	if !ok {
		return "", false
	}
	return r.to, true
}

// has reports whether memory holds an entry named name now.
func (ix *Index) has(name string) bool {
	if ix.log != nil {
		_, ok := ix.log.live(name)
		return ok
	}
	_, ok := ix.current[name]
	return ok
}

// Names lists every name the index knows: in memory now, in the log, or
// in a session's write, sorted.
func (ix *Index) Names() []string {
	seen := map[string]bool{}
	for n := range ix.current {
		seen[n] = true
	}
	for n := range ix.writes {
		seen[n] = true
	}
	if ix.log != nil {
		for _, n := range ix.log.names() {
			seen[n] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// callOf is the Call of a session's write.
func (ix *Index) callOf(w call) *Call {
	info := ix.sessInfo[w.Session]
	return &Call{Tool: w.Tool, Session: w.Session, Title: info.title, Agent: w.Agent, CreatedBy: info.createdBy,
		Step: w.Step, ID: w.ID, Time: w.Time, TimeFrom: w.TimeFrom, Result: w.Result}
}

// doneWrites are the writes of name that changed memory, oldest first:
// by time where known, those of unknown time after them in the order read.
func (ix *Index) doneWrites(name string) []call {
	var out []call
	for _, w := range ix.writes[name] {
		if w.Outcome == sessions.WriteDone {
			out = append(out, w)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Time, out[j].Time
		if a.IsZero() || b.IsZero() {
			return !a.IsZero() && b.IsZero()
		}
		return a.Before(b)
	})
	return out
}

// History assembles the versions of the entry name, following renames.
func (ix *Index) History(name string) History {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if h, ok := ix.cache[name]; ok {
		return h
	}
	var h History
	if ix.log != nil {
		h = ix.storeHistory(name)
	} else {
		h = ix.v1History(name)
	}
	h.Name = name
	h.Problems = append(h.Problems, ix.problems...)
	for i := range h.Versions {
		h.Versions[i].N = i + 1
		if h.Versions[i].Current {
			h.Exists = true
		}
	}
	h.Lives = livesOf(h.Versions)
	ix.cache[name] = h
	return h
}

// livesOf describes the lives versions (numbered, each with its Life)
// belong to; never nil.
func livesOf(vs []Version) []Life {
	out := []Life{}
	for _, v := range vs {
		if n := len(out); n == 0 || out[n-1].N != v.Life {
			out = append(out, Life{N: v.Life, First: v.N})
		}
		out[len(out)-1].Last = v.N
	}
	for k := range out {
		last := vs[out[k].Last-1]
		switch {
		case last.Action == Delete:
			out[k].Ended = LifeDeleted
		case last.Action == RenameOut:
			out[k].Ended, out[k].To = LifeRenamed, last.To
		case k < len(out)-1:
			out[k].Ended = LifeReplaced
		}
	}
	return out
}

// createdSlack is how much earlier than a memory.db entry's created_at
// (whole seconds) a call must be to be of an earlier entry of its name:
// the call that created it started just before it.
const createdSlack = 2 * time.Second

// v1Lives numbers the lives of a memory.db's versions of one name: a
// forget ends one, and so does the last call made before the entry now
// was created (created: its created_at; zero when there is none), which
// was an earlier entry's, removed or renamed away unrecorded.
func v1Lives(vs []Version, created time.Time) {
	boundary := -1
	if !created.IsZero() {
		for k, v := range vs {
			if !v.Current && v.Call != nil && !v.Call.Time.IsZero() && v.Call.Time.Before(created.Add(-createdSlack)) {
				boundary = k
			}
		}
	}
	life := 1
	for k := range vs {
		vs[k].Life = life
		if vs[k].Action == Delete || k == boundary {
			life++
		}
	}
}

// v1History is a v1 memory's history of name: the writes of its sessions
// in time order, then the entry now, which is the last write's version
// when it holds exactly what that write wrote.
func (ix *Index) v1History(name string) History {
	var h History
	for _, w := range ix.doneWrites(name) {
		v := Version{Name: name, Origin: FromSession, Call: ix.callOf(w)}
		if w.Tool == sessions.RememberTool {
			v.Action, v.Kind, v.Content, v.Aliases = Write, "note", w.Content, w.Aliases
		} else {
			v.Action = Delete
		}
		h.Versions = append(h.Versions, v)
	}
	cur, ok := ix.current[name]
	if !ok {
		v1Lives(h.Versions, time.Time{})
		return h
	}
	created, _ := time.Parse(time.RFC3339Nano, cur.CreatedAt)
	defer func() { v1Lives(h.Versions, created) }() // the versions as returned, the entry now included
	if n := len(h.Versions); n > 0 {
		last := &h.Versions[n-1]
		if last.Action == Write && last.Content == cur.Content && slices.Equal(last.Aliases, cur.Aliases) {
			last.Origin, last.Current = FromMemoryAndSession, true
			last.Kind, last.CreatedAt = cur.Kind, cur.CreatedAt
			return h
		}
	}
	h.Versions = append(h.Versions, Version{Action: Write, Name: name, Kind: cur.Kind, Content: cur.Content,
		Aliases: cur.Aliases, CreatedAt: cur.CreatedAt, Origin: FromMemory, Current: true})
	return h
}

// storeHistory is the history of name in a store: its lives (lineage),
// each the memory records of the names renames into it link, in log
// order, matched to the session writes that made them, with the writes
// the log does not hold placed by their time. The Delete that ended a
// life by a rename away is a version of its own, RenameOut.
func (ix *Index) storeHistory(name string) History {
	d := ix.log
	h := History{Log: true}
	if d.stop != nil {
		s := *d.stop
		h.Stop = &s
	}
	ln := d.lineage(name)
	life := ln.life
	var versions []Version
	var extra []Version
	for _, n := range ln.names {
		// Every record of n when sessions wrote n, so that its calls pair
		// as they would in n's own history; else only the lineage's (each
		// version decodes its record).
		paired := len(ix.writes[n]) > 0
		idx := ln.recs[n]
		if paired {
			idx = d.indices(n)
		}
		var vs []Version
		var at []int
		for _, i := range idx {
			l, kept := life[i]
			if !kept && !paired {
				continue
			}
			var v Version
			if to, ok := d.renamedAway(i); ok {
				if n != name || !kept || life[i-1] == l {
					continue // one version, the rename's Put, in this story
				}
				v = Version{Action: RenameOut, Name: n, To: to, Origin: FromLog, Log: &LogPos{Offset: d.recs[i].off, Seq: d.seq(i)}}
			} else {
				v = ix.logVersion(i, &h)
			}
			v.Life = l
			vs = append(vs, v)
			at = append(at, i)
		}
		x := ix.attribute(n, vs)
		if n == name {
			extra = x // a call the log does not hold belongs to the name asked about only
		}
		for k, v := range vs {
			if _, kept := life[at[k]]; kept {
				versions = append(versions, v)
			}
		}
	}
	slices.SortFunc(versions, func(a, b Version) int {
		if a.Life != b.Life {
			return a.Life - b.Life
		}
		return a.Log.Seq - b.Log.Seq
	})
	h.Versions = fillLives(placeByTime(versions, extra))
	return h
}

// fillLives gives each version known only from sessions (Life 0) the
// life of the log version after it, else before it, else 1.
func fillLives(vs []Version) []Version {
	next := 0
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Life == 0 {
			vs[i].Life = next
		} else {
			next = vs[i].Life
		}
	}
	prev := 1
	for i := range vs {
		if vs[i].Life == 0 {
			vs[i].Life = prev
		}
		prev = vs[i].Life
	}
	return vs
}

// logVersion is the version recs[i] makes.
func (ix *Index) logVersion(i int, h *History) Version {
	d := ix.log
	r := d.recs[i]
	v := Version{Name: string(d.name(i)), Origin: FromLog, Log: &LogPos{Offset: r.off, Seq: d.seq(i)}}
	if r.del {
		v.Action = Delete
		return v
	}
	e, ok := decode(d.value(i))
	if !ok {
		h.Problems = append(h.Problems, fmt.Sprintf("the record at offset %d is not an entry: its version is shown empty", r.off))
	}
	v.Action, v.Kind, v.Content, v.Aliases, v.CreatedAt = Write, e.Kind, e.Content, e.Aliases, e.CreatedAt
	if rn, ok := d.renameAt(i); ok {
		v.Action, v.From = RenameIn, rn.from
	}
	j, live := d.live(v.Name)
	v.Current = live && j == i
	return v
}

// attribute matches the done writes of name to its versions in a store's
// log: a remember call explains a Write of the same name, content and
// aliases (kind note), a forget call a Delete, lying in the part of the
// log the call's run wrote (call.lo, call.hi). A call and a record are
// paired only when each is the other's one candidate left, pairs taken
// until none is left; a call with several candidates, or a record with
// several calls, is not attributed (which made which cannot be told). A
// call with no record at all is returned as a version known only from
// the sessions (the log no longer holds it).
func (ix *Index) attribute(name string, versions []Version) []Version {
	calls := ix.doneWrites(name)
	if len(calls) == 0 {
		return nil
	}
	matches := func(v Version, c call) bool {
		if v.Name != name || v.Log == nil || v.Action == RenameIn {
			return false
		}
		if c.hi > 0 && (v.Log.Offset <= c.lo || v.Log.Offset >= c.hi) {
			return false
		}
		if c.Tool == sessions.ForgetTool {
			return v.Action == Delete
		}
		return v.Action == Write && v.Kind == "note" && v.Content == c.Content && slices.Equal(v.Aliases, c.Aliases)
	}
	cands := make([][]int, len(calls)) // call → versions it may have made
	byVersion := map[int][]int{}       // version → calls that may have made it
	for ci, c := range calls {
		for vi, v := range versions {
			if matches(v, c) {
				cands[ci] = append(cands[ci], vi)
				byVersion[vi] = append(byVersion[vi], ci)
			}
		}
	}
	paired := make([]bool, len(calls))
	claimed := map[int]bool{}
	open := func(list []int, taken func(int) bool) (int, int) {
		n, last := 0, -1
		for _, x := range list {
			if !taken(x) {
				n, last = n+1, x
			}
		}
		return n, last
	}
	for changed := true; changed; {
		changed = false
		for ci := range calls {
			if paired[ci] {
				continue
			}
			n, vi := open(cands[ci], func(v int) bool { return claimed[v] })
			if n != 1 {
				continue
			}
			if m, _ := open(byVersion[vi], func(c int) bool { return paired[c] }); m != 1 {
				continue
			}
			paired[ci], claimed[vi], changed = true, true, true
			versions[vi].Call = ix.callOf(calls[ci])
			versions[vi].Origin = FromLogAndSession
		}
	}
	var extra []Version
	for ci, c := range calls {
		if paired[ci] || len(cands[ci]) > 0 {
			continue
		}
		v := Version{Name: name, Origin: FromSession, Call: ix.callOf(c)}
		if c.Tool == sessions.RememberTool {
			v.Action, v.Kind, v.Content, v.Aliases = Write, "note", c.Content, c.Aliases
		} else {
			v.Action = Delete
		}
		extra = append(extra, v)
	}
	return extra
}

// placeByTime puts each version known only from sessions before the first
// log version whose call came later; one whose time is unknown, or
// earlier than every timed log version, goes first: a call the log does
// not hold was most likely dropped by a compaction, which drops the
// oldest records.
func placeByTime(log, extra []Version) []Version {
	if len(extra) == 0 {
		return log
	}
	sort.SliceStable(extra, func(i, j int) bool {
		a, b := extra[i].Call.Time, extra[j].Call.Time
		if a.IsZero() || b.IsZero() {
			return a.IsZero() && !b.IsZero()
		}
		return a.Before(b)
	})
	out := make([]Version, 0, len(log)+len(extra))
	e := 0
	for _, v := range log {
		for e < len(extra) && (extra[e].Call.Time.IsZero() || v.Call != nil && !v.Call.Time.IsZero() && extra[e].Call.Time.Before(v.Call.Time)) {
			out = append(out, extra[e])
			e++
		}
		out = append(out, v)
	}
	return append(out, extra[e:]...)
}

// Forgotten lists the entries the log or the sessions know that memory
// does not hold now (a name renamed away lives on under its new name and
// is not listed), most recently removed first.
func (ix *Index) Forgotten() []Forgotten {
	var out []Forgotten
	for _, name := range ix.Names() {
		if ix.has(name) {
			continue
		}
		h := ix.History(name)
		if h.Exists || len(h.Lives) == 0 {
			continue
		}
		this := h.Lives[len(h.Lives)-1]
		if this.Ended == LifeRenamed {
			continue // lives on under another name, or is forgotten under it
		}
		f := Forgotten{Name: name, Versions: len(h.Versions)}
		found := false
		for i := this.Last - 1; i >= this.First-1; i-- { // what a restore may bring back: this entry's
			v := h.Versions[i]
			if v.Action == Delete && f.Removed == nil && v.Name == name {
				vv := v
				f.Removed = &vv
			}
			if v.Action != Delete && v.Name == name {
				f.Last, found = v, true
				break
			}
		}
		if !found {
			continue // only deletes of it are known: nothing to bring back
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool { return removedAfter(out[i], out[j]) })
	return out
}

// removedAfter orders forgotten entries: by the log position of their
// removal, else its call's time, latest first; those with no known
// removal last, by name.
func removedAfter(a, b Forgotten) bool {
	ka, kb := removalKey(a), removalKey(b)
	if ka.known != kb.known {
		return ka.known
	}
	if ka.seq != kb.seq {
		return ka.seq > kb.seq
	}
	if !ka.at.Equal(kb.at) {
		return ka.at.After(kb.at)
	}
	return a.Name < b.Name
}

type removal struct {
	known bool
	seq   int
	at    time.Time
}

func removalKey(f Forgotten) removal {
	if f.Removed == nil {
		return removal{}
	}
	r := removal{known: true}
	if f.Removed.Log != nil {
		r.seq = f.Removed.Log.Seq
	}
	if f.Removed.Call != nil {
		r.at = f.Removed.Call.Time
	}
	return r
}

// Summary is what the card says of an entry's history.
type Summary struct {
	// Versions counts the versions known (1 for an entry known only as
	// memory holds it; 0 for a name nothing knows).
	Versions int
	// First is the call that first wrote the entry, Last the one behind
	// the version memory holds now; nil when no session's call did.
	First, Last *Call
}

// Summary summarises the history of name for a card.
func (ix *Index) Summary(name string) Summary {
	h := ix.History(name)
	s := Summary{Versions: len(h.Versions)}
	first := 0
	if n := len(h.Lives); n > 0 {
		first = h.Lives[n-1].First - 1 // this entry's first write, not an earlier entry's of the name
	}
	for _, v := range h.Versions[first:] {
		if v.Action != Delete && v.Action != RenameOut {
			s.First = v.Call
			break
		}
	}
	if n := len(h.Versions); n > 0 && h.Versions[n-1].Current {
		s.Last = h.Versions[n-1].Call
	}
	return s
}

// Stop says where the store's log stopped being readable (nil: read to
// its end or a v1 memory).
func (ix *Index) Stop() *Stop {
	if ix.log == nil || ix.log.stop == nil {
		return nil
	}
	s := *ix.log.stop
	return &s
}
