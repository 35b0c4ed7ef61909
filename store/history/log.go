package history

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"maps"
	"slices"
	"sort"

	"github.com/crmem/crmem/store"
)

// record is one memory record of a log (store.LogMemory): where it is,
// where its name lies after that and the name's length, which
// logData.name cuts from the log's bytes. It holds no pointer, so a
// million of them cost the collector nothing to scan.
type record struct {
	off   int64
	nlen  uint32
	nskip uint16 // the name is at off+nskip
	del   bool
}

// nameSeed seeds nameHash: fixed, as a hash only ever compared within one
// process needs no more.
var nameSeed = maphash.MakeSeed()

// nameHash hashes an entry name.
func nameHash(b []byte) uint64 { return maphash.Bytes(nameSeed, b) }

// storedEntry is a memory record's JSON value.
type storedEntry struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Content   string   `json:"content"`
	Aliases   []string `json:"aliases"`
	CreatedAt string   `json:"created_at"`
}

// rename is a Put of To at recs[at] that carried over From, whose record
// was removed right after (recs[at+1]).
type rename struct {
	at       int
	from, to string
}

// storeSession is one session's records in a store's log: its meta as
// last put, the messages and events kept (every one ever put: a
// compaction deletes messages, the log keeps them), by key, with where
// each lies, and where every record of the session lies, kept or not.
type storeSession struct {
	handle  string
	meta    []byte
	steps   map[string][]byte // key after the session's prefix → value as last put
	stepOff map[string]int64  // key → offset of that put
	offs    []int64           // every record of the session, ascending
}

// before is the offset of the session's last record before off (0: none).
func (s *storeSession) before(off int64) int64 {
	k := sort.Search(len(s.offs), func(i int) bool { return s.offs[i] >= off })
	if k == 0 {
		return 0
	}
	return s.offs[k-1]
}

// logData is what one walk of a store's log keeps: the memory records in
// order, where the session and agent records are, and the pairs of
// records that may be renames. Who holds which records is worked out when
// asked (indices), for every name at once only for a whole index.
type logData struct {
	log       store.Log
	data      []byte
	recs      []record
	hashes    []uint64 // of each record's entry name (nameHash), to find a name's records without reading the log again
	cand      []int    // i where recs[i] is a Put and recs[i+1] a Delete of another name: maybe a rename
	sessOffs  []int64  // the session records (column 1 Puts)
	agentOffs []int64  // the agent records (column 0 Puts)
	stop      *Stop
	torn      bool
	end       store.LogPos // where the walk ended: the end of the last whole record, or where it stopped

	byName  map[string][]int // name → indices into recs, in order (filled by name, or all at once)
	all     bool             // byName holds every name
	renames map[int]*rename  // recs index of a candidate's Put → the rename it is (nil: none)

	lineages map[string]*lineage // name → its lineage, once found

	// lastOf and prev chain the records by name hash, built once the
	// records of more names than chainAfter were asked for
	// (chainRecords): lastOf[h] is the last record whose name hashes to
	// h, prev[i] the record before recs[i] with the same hash (-1: none).
	// A name's records are then found by walking its chain, not every
	// hash of the log: a history that follows renames through hundreds
	// of names scanned a million hashes for each. Building it costs about
	// what a dozen scans do, so a history of a few names never does.
	lastOf map[uint64]int32
	prev   []int32
	scans  int // names whose records were found by a scan of hashes
}

// readLog walks a log's whole log once, keeping the memory records (no
// value decoded, no name copied) and the offsets of the session and agent
// records.
func readLog(log store.Log, data []byte) *logData {
	d := &logData{log: log, data: data, byName: map[string][]int{}, renames: map[int]*rename{}, lineages: map[string]*lineage{}}
	d.recs = make([]record, 0, len(data)/256) // a guess on the large side: memory records are rarely smaller
	d.hashes = make([]uint64, 0, len(data)/256)
	d.ended(log.Walk(data, store.LogPos{}, d.add))
	return d
}

// extendLog is the log of data, a longer copy of the log prev walked
// (the same bytes up to where prev's walk ended, the same header), with
// only the records after it walked: prev's records are shared, not read
// again (prev, which others may be reading, is left as it was: what it
// holds is only ever appended to beyond its own length). prev must have
// indexed every name (indexAll) and ended cleanly (stop nil).
func extendLog(prev *logData, data []byte) *logData {
	d := &logData{log: prev.log, data: data, recs: prev.recs, hashes: prev.hashes, cand: prev.cand,
		sessOffs: prev.sessOffs, agentOffs: prev.agentOffs,
		byName: maps.Clone(prev.byName), all: true, renames: map[int]*rename{}, lineages: map[string]*lineage{}}
	first := len(d.recs)
	d.ended(d.log.Walk(data, prev.end, d.add))
	for i := first; i < len(d.recs); i++ {
		n := d.name(i)
		// Clipped: the slice prev holds is never appended to in place.
		d.byName[string(n)] = append(slices.Clip(d.byName[string(n)]), i)
	}
	return d
}

// add keeps one record of a walk of the log.
func (d *logData) add(r store.LogRecord) bool {
	switch r.Kind {
	case store.LogMemory:
		name := r.Key
		rec := record{off: r.Offset, nlen: uint32(len(name)), nskip: uint16(r.KeyAt - r.Offset), del: r.Delete}
		h := nameHash(name)
		if n := len(d.recs); rec.del && n > 0 && !d.recs[n-1].del && (d.hashes[n-1] != h || !bytes.Equal(d.name(n-1), name)) {
			d.cand = append(d.cand, n-1)
		}
		d.recs = append(d.recs, rec)
		d.hashes = append(d.hashes, h)
	case store.LogSessionMeta, store.LogSessionStep, store.LogSessionOther:
		if !r.Delete {
			d.sessOffs = append(d.sessOffs, r.Offset)
		}
	case store.LogAgent:
		if !r.Delete {
			d.agentOffs = append(d.agentOffs, r.Offset)
		}
	}
	return true
}

// ended keeps how the walk of the log ended.
func (d *logData) ended(end store.LogEnd) {
	if end.Stopped {
		d.stop = &Stop{Offset: end.At.Offset, Reason: end.Reason}
	}
	d.torn = end.Torn
	d.end = end.At
}

// name is the entry name of recs[i] (aliasing the log's bytes).
func (d *logData) name(i int) []byte {
	r := d.recs[i]
	at := r.off + int64(r.nskip)
	return d.data[at : at+int64(r.nlen)]
}

// value is the value of recs[i] (a Put's entry JSON; empty for a Delete).
func (d *logData) value(i int) []byte {
	r, _ := d.log.At(d.data, d.recs[i].off)
	return r.Value
}

// seq is recs[i]'s number among the memory records, from 1.
func (d *logData) seq(i int) int { return i + 1 }

// indexAll fills byName with every name (a whole index's).
func (d *logData) indexAll() {
	if d.all {
		return
	}
	d.byName = map[string][]int{}
	for i := range d.recs {
		n := d.name(i)
		if idx, ok := d.byName[string(n)]; ok {
			d.byName[string(n)] = append(idx, i)
			continue
		}
		d.byName[string(n)] = []int{i}
	}
	d.all = true
}

// chainAfter is how many names' records are found by scanning every
// hash before the hash chains are built (chainRecords).
const chainAfter = 12

// indices are the records of name, in order.
func (d *logData) indices(name string) []int {
	if idx, ok := d.byName[name]; ok || d.all {
		return idx
	}
	var idx []int
	key := []byte(name)
	h := nameHash(key)
	if d.scans++; d.scans > chainAfter {
		d.chainRecords()
	}
	if d.prev == nil {
		for i, x := range d.hashes {
			if x == h && bytes.Equal(d.name(i), key) {
				idx = append(idx, i)
			}
		}
	} else if last, ok := d.lastOf[h]; ok {
		for i := last; i >= 0; i = d.prev[i] {
			if bytes.Equal(d.name(int(i)), key) {
				idx = append(idx, int(i))
			}
		}
		slices.Reverse(idx)
	}
	d.byName[name] = idx
	return idx
}

// chainRecords links every record to the one before it with the same
// name hash (lastOf, prev), once.
func (d *logData) chainRecords() {
	if d.prev != nil {
		return
	}
	d.lastOf = map[uint64]int32{}
	d.prev = make([]int32, len(d.recs))
	for i, h := range d.hashes {
		if p, ok := d.lastOf[h]; ok {
			d.prev[i] = p
		} else {
			d.prev[i] = -1
		}
		d.lastOf[h] = int32(i)
	}
}

// names are every name of the log (after indexAll).
func (d *logData) names() []string {
	d.indexAll()
	out := make([]string, 0, len(d.byName))
	for n := range d.byName {
		out = append(out, n)
	}
	return out
}

// live is the index of name's live record: its last, when that is a Put.
func (d *logData) live(name string) (int, bool) {
	last, ok := d.last(name)
	if !ok || d.recs[last].del {
		return 0, false
	}
	return last, true
}

// last is the index of name's last record: the first of its hash chain
// that is of name.
func (d *logData) last(name string) (int, bool) {
	if idx, ok := d.byName[name]; ok || d.all {
		if len(idx) == 0 {
			return 0, false
		}
		return idx[len(idx)-1], true
	}
	if d.prev == nil {
		idx := d.indices(name)
		if len(idx) == 0 {
			return 0, false
		}
		return idx[len(idx)-1], true
	}
	key := []byte(name)
	i, ok := d.lastOf[nameHash(key)]
	for ok && i >= 0 {
		if bytes.Equal(d.name(int(i)), key) {
			return int(i), true
		}
		i = d.prev[i]
	}
	return 0, false
}

// previous is the record of recs[i]'s name just before it (ok false:
// none), found along its hash chain.
func (d *logData) previous(i int) (int, bool) {
	if d.prev == nil {
		idx := d.indices(string(d.name(i)))
		if k := sort.SearchInts(idx, i); k > 0 {
			return idx[k-1], true
		}
		return 0, false
	}
	key := d.name(i)
	for j := d.prev[i]; j >= 0; j = d.prev[j] {
		if bytes.Equal(d.name(int(j)), key) {
			return int(j), true
		}
	}
	return 0, false
}

// renameAt is the rename whose Put is recs[i], if it is one: a Put of a
// name not live then, followed at once by the Delete of a name whose last
// value had the same kind, content, aliases and created_at.
func (d *logData) renameAt(i int) (*rename, bool) {
	if r, ok := d.renames[i]; ok {
		return r, r != nil
	}
	var r *rename
	defer func() { d.renames[i] = r }()
	if k := sort.SearchInts(d.cand, i); k == len(d.cand) || d.cand[k] != i {
		return nil, false
	}
	if p, ok := d.previous(i); ok && !d.recs[p].del {
		return nil, false // the put replaced a live entry: not a new name
	}
	p, ok := d.previous(i + 1)
	if !ok || d.recs[p].del {
		return nil, false
	}
	a, okA := decode(d.value(i))
	b, okB := decode(d.value(p))
	if !okA || !okB || a.Kind != b.Kind || a.Content != b.Content || a.CreatedAt != b.CreatedAt || !slices.Equal(a.Aliases, b.Aliases) {
		return nil, false
	}
	r = &rename{at: i, from: string(d.name(i + 1)), to: string(d.name(i))}
	return r, true
}

// sessions reads the session records: per handle, the steps keep
// accepts (nil: all), the meta, and where every record of the session
// lies. A session none of whose steps is kept is left out.
func (d *logData) sessions(keep func(value []byte) bool) map[string]*storeSession {
	all := map[string]*storeSession{}
	d.readSessions(all, 0, keep, nil)
	for h, s := range all {
		if s.steps == nil {
			delete(all, h)
		}
	}
	return all
}

// moreSessions is the sessions of prev (every session of an earlier,
// shorter walk of the log, every step kept, those without one included)
// with the session records from d.sessOffs[from] on applied: a session
// they touch is copied first (prev, which others may be reading, is left
// as it was) and its handle put in touched.
func (d *logData) moreSessions(prev map[string]*storeSession, from int) (all map[string]*storeSession, touched map[string]bool) {
	all, touched = maps.Clone(prev), map[string]bool{}
	d.readSessions(all, from, nil, func(s *storeSession) *storeSession {
		if touched[s.handle] {
			return s
		}
		touched[s.handle] = true
		c := &storeSession{handle: s.handle, meta: s.meta, steps: maps.Clone(s.steps), stepOff: maps.Clone(s.stepOff), offs: slices.Clip(s.offs)}
		all[s.handle] = c
		return c
	})
	return all, touched
}

// readSessions applies the session records from d.sessOffs[from] on to
// all, keeping the steps keep accepts (nil: all); own (nil: none) gives
// the session a record of it changes (its own copy).
func (d *logData) readSessions(all map[string]*storeSession, from int, keep func([]byte) bool, own func(*storeSession) *storeSession) {
	d.log.Each(d.data, d.sessOffs[from:], func(r store.LogRecord) {
		s := all[string(r.Session)]
		if s == nil {
			s = &storeSession{handle: string(r.Session)}
			all[s.handle] = s
		}
		if own != nil {
			s = own(s)
		}
		s.offs = append(s.offs, r.Offset)
		switch r.Kind {
		case store.LogSessionMeta:
			s.meta = r.Value // in log order: the last put wins
		case store.LogSessionStep:
			if keep != nil && !keep(r.Value) {
				return
			}
			if s.steps == nil {
				s.steps, s.stepOff = map[string][]byte{}, map[string]int64{}
			}
			s.steps[string(r.Key)] = r.Value
			s.stepOff[string(r.Key)] = r.Offset
		}
	})
}

// agentName is the name in the agent record of id, as last put.
func (d *logData) agentName(id string) string {
	var name string
	d.log.Each(d.data, d.agentOffs, func(r store.LogRecord) {
		if string(r.Key) != id {
			return
		}
		var a struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(r.Value, &a) == nil {
			name = a.Name
		}
	})
	return name
}

// decode reads a memory record's value.
func decode(v []byte) (storedEntry, bool) {
	var e storedEntry
	if json.Unmarshal(v, &e) != nil {
		return e, false
	}
	if e.Aliases == nil {
		e.Aliases = []string{}
	}
	return e, true
}

// sortedHandles is the handles of ss in order.
func sortedHandles(ss map[string]*storeSession) []string {
	hs := make([]string, 0, len(ss))
	for h := range ss {
		hs = append(hs, h)
	}
	sort.Strings(hs)
	return hs
}
