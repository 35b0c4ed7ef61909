package genlog

import (
	"errors"
	"fmt"
	"time"

	"github.com/crmem/crmem/store/crabdb"
)

// The kinds of op.
const (
	opNew = iota
	opUpsert
	opRecreate
	opRemove
	opRename
)

// makeNames builds the pool of distinct names: most kebab-case, a tenth
// with spaces, a twentieth with non-ASCII letters, CJK or emoji. The
// number at the end keeps them distinct.
func (g *gen) makeNames() {
	n := g.opt.Entries
	g.names = make([]string, n)
	g.entries = make([]crabdb.Entry, n)
	g.livePos = make([]int, n)
	g.deadPos = make([]int, n)
	for i := range n {
		w1, w2 := words[g.rng.IntN(len(words))], words[g.rng.IntN(len(words))]
		switch r := g.rng.IntN(20); {
		case r == 0:
			g.names[i] = fmt.Sprintf("%s %s %d", unicodeWords[g.rng.IntN(len(unicodeWords))], w1, i)
		case r <= 2:
			g.names[i] = fmt.Sprintf("%s %s notes %d", w1, w2, i)
		default:
			g.names[i] = fmt.Sprintf("%s-%s-%d", w1, w2, i)
		}
		g.livePos[i], g.deadPos[i] = -1, -1
	}
	g.hot = max(1, n/1000)
}

// pick chooses the next op's kind from what the log has left to write.
func (g *gen) pick() int {
	left := g.opt.MemoryRecords - g.stats.MemoryRecords
	unused := g.opt.Entries - g.used
	switch {
	case unused > 0 && (unused >= left || len(g.liveNames) == 0):
		return opNew
	case unused > 0 && g.rng.Float64() < 1.1*float64(unused)/float64(left):
		if left >= 2 && g.rng.IntN(20) == 0 {
			return opRename // to a name never used
		}
		return opNew
	case len(g.liveNames) == 0:
		return opRecreate
	}
	switch r := g.rng.IntN(100); {
	case r < 74:
		return opUpsert
	case r < 82:
		return opRemove
	case r < 92 && len(g.dead) > 0:
		return opRecreate
	case r >= 92 && left >= 2 && (unused > 0 || len(g.dead) > 0):
		return opRename
	}
	return opUpsert
}

// op writes one memory op (and the session records of the call that made
// it, if a session explains it).
func (g *gen) op(seq int) error {
	g.tick()
	kind := g.pick()
	t := TruthOp{Seq: seq, At: crabdb.RFC3339(g.now)}
	if kind == opRename {
		return g.rename(t)
	}
	name, e := g.entryFor(kind)
	t.Name, t.Kind, t.ContentLen, t.Aliases, t.CreatedAt = e.Name, e.Kind, len(e.Content), nonNil(e.Aliases), e.CreatedAt
	t.New = kind == opNew || kind == opRecreate
	var s *session
	// remember always writes kind note, so no session explains the put of
	// an archive; forget removes any kind.
	if len(g.sessions) > 0 && g.rng.IntN(10) < 7 && (kind == opRemove || e.Kind == "note") {
		s = g.session()
	}
	b := g.batch()
	if kind == opRemove {
		if err := b.remove(e.Name); err != nil {
			return err
		}
		t.Op = "remove"
		g.setDead(name)
	} else {
		if err := b.put(e); err != nil {
			return err
		}
		t.Op = "put"
		g.entries[name] = e
		g.setLive(name)
	}
	t.Offset = g.flush(b)[0]
	if s != nil {
		msg := g.call(s, t.Op, e)
		t.Session, t.Msg = s.handle, &msg
		g.stats.Explained++
	}
	g.stats.Ops++
	return g.emit(t)
}

// entryFor chooses the name an op of kind (any but a rename) writes, and
// the entry it puts (for a remove, the entry as it is).
func (g *gen) entryFor(kind int) (int, crabdb.Entry) {
	var e crabdb.Entry
	var name int
	switch kind {
	case opNew:
		name = g.used
		g.used++
		e = crabdb.Entry{Name: g.names[name], Kind: "note", Content: g.content(), Aliases: g.aliases(), CreatedAt: crabdb.RFC3339(g.now)}
		if g.rng.IntN(20) == 0 {
			e.Kind = "archive"
		}
		g.stats.New++
	case opUpsert:
		name = g.liveNames[g.rng.IntN(len(g.liveNames))]
		if h := g.rng.IntN(g.hot); g.rng.IntN(10) == 0 && g.livePos[h] >= 0 {
			name = h
		}
		old := g.entries[name]
		// remember: kind becomes note, created_at is kept.
		e = crabdb.Entry{Name: old.Name, Kind: "note", Content: g.edit(old.Content), Aliases: old.Aliases, CreatedAt: old.CreatedAt}
		if g.rng.IntN(10) < 3 {
			e.Aliases = g.aliases()
		}
		g.stats.Upserts++
	case opRecreate:
		name = g.dead[g.rng.IntN(len(g.dead))]
		e = crabdb.Entry{Name: g.names[name], Kind: "note", Content: g.content(), Aliases: g.aliases(), CreatedAt: crabdb.RFC3339(g.now)}
		g.stats.Recreates++
	case opRemove:
		name = g.liveNames[g.rng.IntN(len(g.liveNames))]
		e = g.entries[name]
		g.stats.Removes++
	}
	return name, e
}

// rename writes crmem's rename (crabtalk has none): a put under a new
// name with the old entry's kind, content, aliases and created_at, then
// the remove of the old name. The new name is one never used, or a
// removed one. No session explains it.
func (g *gen) rename(t TruthOp) error {
	from := g.liveNames[g.rng.IntN(len(g.liveNames))]
	var to int
	if g.used < g.opt.Entries && (len(g.dead) == 0 || g.rng.IntN(2) == 0) {
		to = g.used
		g.used++
	} else if len(g.dead) > 0 {
		to = g.dead[g.rng.IntN(len(g.dead))]
	} else {
		return errors.New("genlog: a rename with no free name") // pick never asks for one
	}
	e := g.entries[from]
	e.Name = g.names[to]
	b := g.batch()
	if err := b.put(e); err != nil {
		return err
	}
	if err := b.remove(g.names[from]); err != nil {
		return err
	}
	g.entries[to] = e
	g.setLive(to)
	g.setDead(from)
	offs := g.flush(b)
	t.Op, t.Name, t.To, t.New = "rename", g.names[from], e.Name, true
	t.Kind, t.ContentLen, t.Aliases, t.CreatedAt = e.Kind, len(e.Content), nonNil(e.Aliases), e.CreatedAt
	t.Offset, t.RemoveOffset = offs[0], offs[1]
	g.stats.Renames++
	g.stats.Ops++
	return g.emit(t)
}

// setLive and setDead move a name between the live and removed sets.
func (g *gen) setLive(i int) {
	if p := g.deadPos[i]; p >= 0 {
		last := g.dead[len(g.dead)-1]
		g.dead[p], g.deadPos[last] = last, p
		g.dead = g.dead[:len(g.dead)-1]
		g.deadPos[i] = -1
	}
	if g.livePos[i] < 0 {
		g.livePos[i] = len(g.liveNames)
		g.liveNames = append(g.liveNames, i)
	}
}

func (g *gen) setDead(i int) {
	if p := g.livePos[i]; p >= 0 {
		last := g.liveNames[len(g.liveNames)-1]
		g.liveNames[p], g.livePos[last] = last, p
		g.liveNames = g.liveNames[:len(g.liveNames)-1]
		g.livePos[i] = -1
	}
	if g.deadPos[i] < 0 {
		g.deadPos[i] = len(g.dead)
		g.dead = append(g.dead, i)
	}
}

// tick advances the clock by 1 to 31 seconds, leaving a fraction of 0, 3,
// 6 or 9 digits.
func (g *gen) tick() {
	g.now = g.now.Add(time.Duration(1+g.rng.IntN(30))*time.Second + time.Duration(g.rng.Int64N(int64(time.Second))))
	g.now = g.now.Truncate([]time.Duration{time.Second, time.Millisecond, time.Microsecond, 1}[g.rng.IntN(4)])
}
