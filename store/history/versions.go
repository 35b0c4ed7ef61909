package history

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/crmem/crmem/store/sessions"
)

// Assembling one entry's versions from the index.

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
// paired only when each is the other's one candidate left, or when the
// record is the one candidate left to a call whose run's stretch is
// known (its record lies there) and every other call it may be has
// another left, pairs taken until none is left; a call with several
// candidates, or a record with several calls none of which it must be,
// is not attributed (which made which cannot be told). A call with no
// record at all is returned as a version known only from the sessions
// (the log no longer holds it).
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
	// forced reports whether the call ci, whose one candidate left is vi,
	// made it although other calls may have: its run's stretch of the log
	// is known (its record lies there), and none of the others has vi as
	// its one candidate left (each of them may have made another).
	forced := func(ci, vi int) bool {
		if calls[ci].hi == 0 {
			return false
		}
		for _, cj := range byVersion[vi] {
			if cj == ci || paired[cj] {
				continue
			}
			if n, _ := open(cands[cj], func(v int) bool { return claimed[v] }); n < 2 {
				return false
			}
		}
		return true
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
			if m, _ := open(byVersion[vi], func(c int) bool { return paired[c] }); m != 1 && !forced(ci, vi) {
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
