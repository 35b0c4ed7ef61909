package history

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/crmem/crmem/store/crabdb"
)

// record is one memory record (column 2) of a store's log.
type record struct {
	seq   int
	off   int64
	del   bool
	name  string
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

// storeSession is one session's records in a store's log: its meta and
// agent id as last put, and every message and event ever put (a
// compaction deletes messages; the log keeps them), by key.
type storeSession struct {
	handle string
	meta   []byte
	steps  map[string][]byte // key after the session's prefix → value as last put
}

// logData is what one walk of a store's log keeps.
type logData struct {
	recs     []record
	byName   map[string][]int // name → indices into recs, in order
	renames  []rename
	absorbed map[int]bool // the Delete of a rename's old name
	live     map[string]int
	sessions map[string]*storeSession
	agents   map[string][]byte // agent id → its record as last put
	stop     *Stop
	torn     bool
}

const (
	memoryPrefix  = crabdb.MemoryPrefix
	sessionPrefix = "local/session/"
	agentPrefix   = "local/agent/"
)

// readLog walks a store's whole log once: every memory record (values
// left undecoded, names interned), the session and agent records, and the
// renames (a Put of a new name followed at once by the Delete of a name
// whose last value had the same kind, content, aliases and created_at).
func readLog(data []byte) *logData {
	d := &logData{byName: map[string][]int{}, absorbed: map[int]bool{}, live: map[string]int{},
		sessions: map[string]*storeSession{}, agents: map[string][]byte{}}
	names := map[string]string{}
	intern := func(b []byte) string {
		if s, ok := names[string(b)]; ok {
			return s
		}
		s := string(b)
		names[s] = s
		return s
	}
	end := crabdb.WalkLog(data, func(r crabdb.LogRecord) bool {
		switch r.Col {
		case crabdb.ColMemory:
			if !bytes.HasPrefix(r.Key, []byte(memoryPrefix)) {
				return true
			}
			name := intern(r.Key[len(memoryPrefix):])
			rec := record{seq: len(d.recs) + 1, off: r.Offset, del: r.Op == crabdb.OpDelete, name: name}
			if !rec.del {
				rec.value = r.Value
			}
			i := len(d.recs)
			d.recs = append(d.recs, rec)
			d.byName[name] = append(d.byName[name], i)
			if rec.del {
				delete(d.live, name)
				d.checkRename(i)
			} else {
				d.live[name] = i
			}
		case crabdb.ColSession:
			d.sessionRecord(r)
		case crabdb.ColAgent:
			if r.Op == crabdb.OpPut && bytes.HasPrefix(r.Key, []byte(agentPrefix)) {
				d.agents[string(r.Key[len(agentPrefix):])] = r.Value
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

// checkRename looks at the Delete recs[i]: when the record before it is a
// Put of another name, new then, holding what the deleted name last held,
// the two are a rename.
func (d *logData) checkRename(i int) {
	if i == 0 {
		return
	}
	put, del := d.recs[i-1], d.recs[i]
	if put.del || put.name == del.name {
		return
	}
	if idx := d.byName[put.name]; len(idx) > 1 && !d.recs[idx[len(idx)-2]].del {
		return // the put replaced a live entry: not a new name
	}
	prev := d.byName[del.name]
	if len(prev) < 2 || d.recs[prev[len(prev)-2]].del {
		return
	}
	old := d.recs[prev[len(prev)-2]].value
	a, okA := decode(put.value)
	b, okB := decode(old)
	if !okA || !okB || a.Kind != b.Kind || a.Content != b.Content || a.CreatedAt != b.CreatedAt || !sameAliases(a.Aliases, b.Aliases) {
		return
	}
	d.renames = append(d.renames, rename{at: i - 1, from: del.name, to: put.name})
	d.absorbed[i] = true
}

// sessionRecord keeps a session's meta, messages and events.
func (d *logData) sessionRecord(r crabdb.LogRecord) {
	if r.Op != crabdb.OpPut || !bytes.HasPrefix(r.Key, []byte(sessionPrefix)) {
		return
	}
	rest := r.Key[len(sessionPrefix):]
	i := bytes.IndexByte(rest, '/')
	if i <= 0 {
		return
	}
	h, part := string(rest[:i]), string(rest[i+1:])
	s := d.sessions[h]
	if s == nil {
		s = &storeSession{handle: h, steps: map[string][]byte{}}
		d.sessions[h] = s
	}
	switch {
	case part == "meta":
		s.meta = r.Value
	case strings.HasPrefix(part, "msg/"), strings.HasPrefix(part, "evt/"):
		s.steps[part] = r.Value
	}
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

// sortedHandles is the sessions' handles in order.
func (d *logData) sortedHandles() []string {
	hs := make([]string, 0, len(d.sessions))
	for h := range d.sessions {
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
