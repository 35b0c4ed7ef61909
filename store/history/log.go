package history

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/crmem/crmem/store/crabdb"
)

// record is one memory record (column 2) of a store's log.
type record struct {
	seq   int
	off   int64
	del   bool
	name  []byte // the key after "local/memory/" (aliases the log's bytes)
	value []byte // a Put's value (aliases the log's bytes)
}

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
// last put, and every message and event ever put (a compaction deletes
// messages; the log keeps them), by key.
type storeSession struct {
	handle string
	meta   []byte
	steps  map[string][]byte // key after the session's prefix → value as last put
}

// logData is what one walk of a store's log keeps: the memory records in
// order, where the session and agent records are, and the pairs of
// records that may be renames. Who holds which records is worked out when
// asked (indices), for every name at once only for a whole index.
type logData struct {
	data      []byte
	recs      []record
	cand      []int   // i where recs[i] is a Put and recs[i+1] a Delete of another name: maybe a rename
	sessOffs  []int64 // the session records (column 1 Puts)
	agentOffs []int64 // the agent records (column 0 Puts)
	stop      *Stop
	torn      bool

	byName  map[string][]int // name → indices into recs, in order (filled by name, or all at once)
	all     bool             // byName holds every name
	renames map[int]*rename  // recs index of a candidate's Put → the rename it is (nil: none)
}

const (
	memoryPrefix  = crabdb.MemoryPrefix
	sessionPrefix = "local/session/"
	agentPrefix   = "local/agent/"
)

// readLog walks a store's whole log once, keeping the memory records (no
// value decoded, no name copied) and the offsets of the session and agent
// records.
func readLog(data []byte) *logData {
	d := &logData{data: data, byName: map[string][]int{}, renames: map[int]*rename{}}
	end := crabdb.WalkLog(data, func(r crabdb.LogRecord) bool {
		switch r.Col {
		case crabdb.ColMemory:
			if !bytes.HasPrefix(r.Key, []byte(memoryPrefix)) {
				return true
			}
			rec := record{seq: len(d.recs) + 1, off: r.Offset, del: r.Op == crabdb.OpDelete, name: r.Key[len(memoryPrefix):]}
			if !rec.del {
				rec.value = r.Value
			}
			if n := len(d.recs); rec.del && n > 0 && !d.recs[n-1].del && !bytes.Equal(d.recs[n-1].name, rec.name) {
				d.cand = append(d.cand, n-1)
			}
			d.recs = append(d.recs, rec)
		case crabdb.ColSession:
			if r.Op == crabdb.OpPut {
				d.sessOffs = append(d.sessOffs, r.Offset)
			}
		case crabdb.ColAgent:
			if r.Op == crabdb.OpPut {
				d.agentOffs = append(d.agentOffs, r.Offset)
			}
		}
		return true
	})
	if end.Err != nil {
		d.stop = &Stop{Offset: end.Offset, Reason: end.Err.Reason}
	}
	d.torn = end.Torn
	return d
}

// indexAll fills byName with every name (a whole index's).
func (d *logData) indexAll() {
	if d.all {
		return
	}
	d.byName = map[string][]int{}
	for i, r := range d.recs {
		if idx, ok := d.byName[string(r.name)]; ok {
			d.byName[string(r.name)] = append(idx, i)
			continue
		}
		d.byName[string(r.name)] = []int{i}
	}
	d.all = true
}

// indices are the records of name, in order.
func (d *logData) indices(name string) []int {
	if idx, ok := d.byName[name]; ok || d.all {
		return idx
	}
	var idx []int
	key := []byte(name)
	for i := range d.recs {
		if bytes.Equal(d.recs[i].name, key) {
			idx = append(idx, i)
		}
	}
	d.byName[name] = idx
	return idx
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
	idx := d.indices(name)
	if len(idx) == 0 || d.recs[idx[len(idx)-1]].del {
		return 0, false
	}
	return idx[len(idx)-1], true
}

// before is the record of name just before recs[i] (ok false: none).
func (d *logData) before(name string, i int) (int, bool) {
	idx := d.indices(name)
	k := sort.SearchInts(idx, i)
	if k == 0 {
		return 0, false
	}
	return idx[k-1], true
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
	put, del := d.recs[i], d.recs[i+1]
	if p, ok := d.before(string(put.name), i); ok && !d.recs[p].del {
		return nil, false // the put replaced a live entry: not a new name
	}
	p, ok := d.before(string(del.name), i+1)
	if !ok || d.recs[p].del {
		return nil, false
	}
	a, okA := decode(put.value)
	b, okB := decode(d.recs[p].value)
	if !okA || !okB || a.Kind != b.Kind || a.Content != b.Content || a.CreatedAt != b.CreatedAt || !sameAliases(a.Aliases, b.Aliases) {
		return nil, false
	}
	r = &rename{at: i, from: string(del.name), to: string(put.name)}
	return r, true
}

// absorbed reports whether recs[i] is the Delete of a rename's old name
// (the rename is one version, on the new name).
func (d *logData) absorbed(i int) bool {
	if i == 0 || !d.recs[i].del {
		return false
	}
	_, ok := d.renameAt(i - 1)
	return ok
}

// session reads the session records into sessions, keeping, per handle,
// those keep accepts (nil: all) and the meta of every session kept.
func (d *logData) sessions(keep func(value []byte) bool) map[string]*storeSession {
	out := map[string]*storeSession{}
	var metas []crabdb.LogRecord
	for _, off := range d.sessOffs {
		r, ok := crabdb.RecordAt(d.data, off)
		if !ok || !bytes.HasPrefix(r.Key, []byte(sessionPrefix)) {
			continue
		}
		rest := r.Key[len(sessionPrefix):]
		i := bytes.IndexByte(rest, '/')
		if i <= 0 {
			continue
		}
		part := rest[i+1:]
		switch {
		case string(part) == "meta":
			metas = append(metas, r)
		case bytes.HasPrefix(part, []byte("msg/")), bytes.HasPrefix(part, []byte("evt/")):
			if keep != nil && !keep(r.Value) {
				continue
			}
			h := string(rest[:i])
			s := out[h]
			if s == nil {
				s = &storeSession{handle: h, steps: map[string][]byte{}}
				out[h] = s
			}
			s.steps[string(part)] = r.Value
		}
	}
	for _, r := range metas { // in log order: the last put wins
		rest := r.Key[len(sessionPrefix):]
		if s := out[string(rest[:bytes.IndexByte(rest, '/')])]; s != nil {
			s.meta = r.Value
		}
	}
	return out
}

// agentName is the name in the agent record of id, as last put.
func (d *logData) agentName(id string) string {
	key := []byte(agentPrefix + id)
	var name string
	for _, off := range d.agentOffs {
		r, ok := crabdb.RecordAt(d.data, off)
		if !ok || !bytes.Equal(r.Key, key) {
			continue
		}
		var a struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(r.Value, &a) == nil {
			name = a.Name
		}
	}
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

func sameAliases(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
