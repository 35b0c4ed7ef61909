// Package genlog generates a big crabtalk store (store.crmem, SPEC §10)
// with a long log, deterministically from a seed: the file the history of
// an entry (issue 32) is measured on. Every memory op goes through
// crabdb's own writer (crabdb.Batch), which writes what crabtalk's
// put_memory and remove_memory write; sessions, agents and snapshots are
// encoded here in crabtalk's shapes. It is test tooling, never a source of
// parity: the fixtures written by crabtalk's own code decide the format.
//
// What the file is not: crabdb compacts a store once its dead bytes reach
// half of it, which a real daemon would have done long before a million
// memory records; the generated log keeps them all, the case issue 32
// measures. Sessions are written as crabtalk writes a run (the meta, the
// session index key "local/idx/sess/…", messages, events, the meta again)
// but without their own text indexes in column 6 (the messages and meta
// documents crabtalk indexes for session search), with or without
// Options.Index: crmem reads none of them. A run holds only the tool call
// and its result, no user prompt or assistant text.
//
// It lives apart from package crabdbtest because it imports crabdb, whose
// own tests import crabdbtest (a cycle).
package genlog

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/crmem/crmem/store/crabdb"
)

// Options says what to generate.
type Options struct {
	// Seed makes the file: the same options give the same bytes.
	Seed uint64
	// Entries is the number of distinct names the log uses (a tenth with
	// spaces, a twentieth with non-ASCII letters or emoji). Every one is
	// used when MemoryRecords allows it.
	Entries int
	// MemoryRecords is the number of column-2 records (Puts and Deletes
	// of memory entries) the log ends up with.
	MemoryRecords int
	// Index writes every op exactly as crabtalk does: the entry record,
	// then its text in the memory index (column 6). Without it only the
	// column-2 records are written, which crabtalk never does (its store
	// always indexes an entry); that isolates the cost of reading the
	// memory records.
	Index bool
	// CheckpointEvery appends a snapshot of the live keys, as crabdb's
	// checkpoint does, after the op that brings the count of column-2
	// records to a multiple of it (0: none). The header names the last
	// one; the others stay in the log as dead bytes. The writer must then
	// be an io.WriterAt (an *os.File) for the header to be rewritten.
	CheckpointEvery int
	// Sessions is the number of sessions that may explain ops (0: none).
	// About 70 % of the ops whose kind a session can explain (new
	// entries, upserts, re-creations and removes; never renames, which
	// crabtalk's tools cannot do) are then a remember or forget tool call
	// in one of them, written after the memory records the call caused,
	// as crabtalk's finalize_run does at the end of a run.
	Sessions int
	// Truth, when set, receives one JSON line (TruthOp) per memory op.
	Truth io.Writer
	// Start is the clock of the first op (zero: 2026-01-01T00:00:00Z).
	// It advances by 1 to 31 seconds per op (a million ops in about six
	// months), with a fraction of 0, 3, 6 or 9 digits.
	Start time.Time
}

// TruthOp is one memory op as the generator made it: a line of the truth.
type TruthOp struct {
	Seq int    `json:"seq"`
	Op  string `json:"op"` // "put", "remove" or "rename"
	// Name is the entry written or removed; for a rename, the old name.
	Name string `json:"name"`
	// To is a rename's new name.
	To string `json:"to,omitempty"`
	// Kind, ContentLen, Aliases and CreatedAt are the entry as written
	// (a remove's: as it was before it went).
	Kind       string   `json:"kind"`
	ContentLen int      `json:"content_len"`
	Aliases    []string `json:"aliases"`
	CreatedAt  string   `json:"created_at"`
	// At is the op's clock: the time of its tool call when a session
	// explains it (the tool_start event's ts), and created_at of a new
	// entry.
	At string `json:"at"`
	// New says the name was not live before (a new entry or a re-created
	// one; for a rename, To).
	New bool `json:"new,omitempty"`
	// Offset is the file offset of the op's column-2 record: the Put (a
	// rename's Put under To) or the Delete.
	Offset int64 `json:"offset"`
	// RemoveOffset is a rename's Delete of Name.
	RemoveOffset int64 `json:"remove_offset,omitempty"`
	// Session and Msg name the session and the index of the assistant
	// message whose tool call made the op; missing when no session
	// explains it.
	Session string `json:"session,omitempty"`
	Msg     *int   `json:"msg,omitempty"`
}

// Snapshot is one snapshot the log holds.
type Snapshot struct {
	At, Len uint64
	Keys    int
}

// Stats says what was written.
type Stats struct {
	Bytes          int64
	Records        int // every record
	MemoryRecords  int // column 2
	IndexRecords   int // column 6
	SessionRecords int // columns 0 (agents) and 1 (sessions)
	Ops            int // memory ops, by kind below
	New            int // a name's first put
	Upserts        int // a put over a live entry (remember)
	Recreates      int // a put of a removed name
	Removes        int
	Renames        int
	Explained      int // ops a session's tool call made
	Names          int // distinct names used
	LiveEntries    int // at the end
	Sessions       int // sessions written
	Snapshots      []Snapshot
}

// Header is a store's 32-byte header naming the snapshot at (at, n), or
// none when n is 0.
func Header(at, n uint64) []byte {
	h := make([]byte, 0, crabdb.HeaderLen)
	h = append(h, crabdb.Magic...)
	h = binary.LittleEndian.AppendUint32(h, crabdb.Version)
	h = append(h, 0, 0, 0, 0, 0, 0) // flags, reserved
	h = binary.LittleEndian.AppendUint64(h, at)
	return binary.LittleEndian.AppendUint64(h, n)
}

// Generate writes the store to w from its first byte and returns what it
// wrote.
func Generate(w io.Writer, opt Options) (Stats, error) {
	if opt.Entries <= 0 || opt.MemoryRecords <= 0 {
		return Stats{}, errors.New("genlog: Entries and MemoryRecords must be positive")
	}
	if opt.CheckpointEvery < 0 || opt.Sessions < 0 {
		return Stats{}, errors.New("genlog: CheckpointEvery and Sessions must not be negative")
	}
	wa, _ := w.(io.WriterAt)
	if opt.CheckpointEvery > 0 && wa == nil {
		return Stats{}, errors.New("genlog: checkpoints rewrite the header: the writer must be an io.WriterAt")
	}
	if opt.Start.IsZero() {
		opt.Start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	g := &gen{
		opt:  opt,
		rng:  rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15)),
		bw:   bufio.NewWriterSize(w, 1<<20),
		live: map[crabdb.Key]int64{},
		now:  opt.Start.UTC(),
	}
	if opt.Truth != nil {
		g.truth = bufio.NewWriterSize(opt.Truth, 1<<16)
	}
	if err := g.run(); err != nil {
		return g.stats, err
	}
	if err := g.bw.Flush(); err != nil {
		return g.stats, fmt.Errorf("genlog: writing the store: %w", err)
	}
	if g.truth != nil {
		if err := g.truth.Flush(); err != nil {
			return g.stats, fmt.Errorf("genlog: writing the truth: %w", err)
		}
	}
	if n := len(g.stats.Snapshots); n > 0 {
		last := g.stats.Snapshots[n-1]
		if _, err := wa.WriteAt(Header(last.At, last.Len), 0); err != nil {
			return g.stats, fmt.Errorf("genlog: rewriting the header: %w", err)
		}
	}
	g.stats.Bytes = g.off
	g.stats.LiveEntries = len(g.liveNames)
	g.stats.Names = g.used
	return g.stats, nil
}

// gen is one generation's state.
type gen struct {
	opt   Options
	rng   *rand.Rand
	bw    *bufio.Writer
	truth *bufio.Writer
	off   int64 // where the next byte goes
	now   time.Time
	stats Stats
	// live is every live key and the offset of its Put: what a snapshot
	// lists (kept only when there will be one).
	live map[crabdb.Key]int64
	// st is the store as written, for the Batch (Index only).
	st *crabdb.Store

	names     []string       // the name pool, in order of first use
	used      int            // names[:used] have been used
	entries   []crabdb.Entry // each name's entry, when live or last live
	liveNames []int          // live name indexes
	livePos   []int          // index in liveNames, -1 when not live
	dead      []int          // removed name indexes
	deadPos   []int          // index in dead, -1 when not there
	hot       int            // names[:hot] get a tenth of the upserts

	sessions []session
	agents   []agent
	calls    int // tool call ids
}

// session is one session's state.
type session struct {
	handle    string
	agent     int
	createdAt string
	title     string
	msgs      int
	evts      int
	created   bool
}

// agent is one of the agents sessions belong to.
type agent struct{ id, name string }

// The kinds of op.
const (
	opNew = iota
	opUpsert
	opRecreate
	opRemove
	opRename
)

// run writes the header, the agents and the ops.
func (g *gen) run() error {
	g.write(Header(0, 0))
	if g.opt.Index {
		st, err := crabdb.Read(Header(0, 0))
		if err != nil {
			return fmt.Errorf("genlog: an empty store: %w", err)
		}
		g.st = st
	}
	g.makeNames()
	if g.opt.Sessions > 0 {
		g.agents = []agent{{"01JGENAGENT00000000000CRAB", "crab"}, {"01JGENAGENT0000000000SC0UT", "scout"}, {"01JGENAGENT000000000LEDGER", "ledger"}}
		for _, a := range g.agents {
			v, _ := marshal(struct {
				Name string `json:"name"`
			}{a.name})
			g.record(crabdb.OpPut, crabdb.ColAgent, "local/agent/"+a.id, v)
		}
		g.sessions = make([]session, g.opt.Sessions)
		for i := range g.sessions {
			g.sessions[i] = session{handle: fmt.Sprintf("gen-%06d", i), agent: g.rng.IntN(len(g.agents))}
		}
	}
	for seq := 0; g.stats.MemoryRecords < g.opt.MemoryRecords; seq++ {
		before := g.stats.MemoryRecords
		if err := g.op(seq); err != nil {
			return err
		}
		if k := g.opt.CheckpointEvery; k > 0 && g.stats.MemoryRecords/k > before/k {
			g.checkpoint()
		}
	}
	return nil
}

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
	case opRename:
		return g.rename(t)
	}
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

// memBatch is one op's memory records: through crabdb's Batch with the
// index, or the column-2 records alone.
type memBatch struct {
	g   *gen
	b   *crabdb.Batch
	buf []byte
}

func (g *gen) batch() *memBatch {
	if g.st != nil {
		return &memBatch{g: g, b: g.st.NewBatch()}
	}
	return &memBatch{g: g}
}

func (m *memBatch) put(e crabdb.Entry) error {
	if m.b != nil {
		if err := m.b.PutMemory(e); err != nil {
			return fmt.Errorf("genlog: put %q: %w", e.Name, err)
		}
		return nil
	}
	m.buf = appendRecord(m.buf, crabdb.OpPut, crabdb.ColMemory, crabdb.MemoryKey(e.Name), crabdb.EntryJSON(e))
	return nil
}

func (m *memBatch) remove(name string) error {
	if m.b != nil {
		existed, err := m.b.RemoveMemory(name)
		if err != nil {
			return fmt.Errorf("genlog: remove %q: %w", name, err)
		}
		if !existed {
			return fmt.Errorf("genlog: remove %q: not live", name)
		}
		return nil
	}
	m.buf = appendRecord(m.buf, crabdb.OpDelete, crabdb.ColMemory, crabdb.MemoryKey(name), nil)
	return nil
}

// flush writes the batch's records and returns the offsets of its
// column-2 records.
func (g *gen) flush(m *memBatch) []int64 {
	b := m.buf
	if m.b != nil {
		b = m.b.Bytes()
		if err := g.st.Extend(b); err != nil {
			panic(fmt.Sprintf("genlog: crabdb's own batch does not replay: %v", err)) // cannot happen: Batch encodes whole records
		}
	}
	var offs []int64
	base := g.off
	walkRecords(b, func(op, col byte, key []byte, at int) {
		g.track(op, col, string(key), base+int64(at))
		if col == crabdb.ColMemory {
			offs = append(offs, base+int64(at))
		}
	})
	g.write(b)
	return offs
}

// record writes one record outside the memory batches.
func (g *gen) record(op, col byte, key string, val []byte) {
	g.track(op, col, key, g.off)
	g.write(appendRecord(nil, op, col, key, val))
}

// track counts a record and keeps the live keys' offsets.
func (g *gen) track(op, col byte, key string, at int64) {
	g.stats.Records++
	switch col {
	case crabdb.ColMemory:
		g.stats.MemoryRecords++
	case crabdb.ColText:
		g.stats.IndexRecords++
	default:
		g.stats.SessionRecords++
	}
	if g.opt.CheckpointEvery == 0 {
		return // no snapshot will list them
	}
	k := crabdb.Key{Col: col, Key: key}
	if op == crabdb.OpPut {
		g.live[k] = at
	} else {
		delete(g.live, k)
	}
}

// write appends bytes to the file (a failure is the bufio.Writer's, seen
// at its Flush).
func (g *gen) write(b []byte) {
	g.bw.Write(b)
	g.off += int64(len(b))
}

// checkpoint appends a snapshot of the live keys as crabdb's snapshot()
// encodes it: u32 count, then per key in (col, key) order col, u32 key
// length, key, u64 offset of its Put.
func (g *gen) checkpoint() {
	keys := make([]crabdb.Key, 0, len(g.live))
	for k := range g.live {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b crabdb.Key) int {
		return cmp.Or(cmp.Compare(a.Col, b.Col), strings.Compare(a.Key, b.Key))
	})
	buf := binary.LittleEndian.AppendUint32(nil, uint32(len(keys)))
	for _, k := range keys {
		buf = append(buf, k.Col)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(k.Key)))
		buf = append(buf, k.Key...)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(g.live[k]))
	}
	g.stats.Snapshots = append(g.stats.Snapshots, Snapshot{At: uint64(g.off), Len: uint64(len(buf)), Keys: len(keys)})
	g.write(buf)
}

// emit writes a truth line.
func (g *gen) emit(t TruthOp) error {
	if g.truth == nil {
		return nil
	}
	line, err := marshal(t)
	if err != nil {
		return fmt.Errorf("genlog: truth line %d: %w", t.Seq, err)
	}
	g.truth.Write(line)
	return g.truth.WriteByte('\n')
}

// session chooses the session of an explained op: sessions follow one
// another through the log, a few open at once.
func (g *gen) session() *session {
	n := len(g.sessions)
	i := min(n-1, int(int64(g.stats.MemoryRecords)*int64(n)/int64(g.opt.MemoryRecords))+g.rng.IntN(3))
	s := &g.sessions[i]
	if !s.created {
		// create_session: the meta, then the session index's key.
		s.created = true
		s.createdAt = crabdb.RFC3339(g.now.Add(-time.Second))
		s.title = fmt.Sprintf("%s and %s", words[g.rng.IntN(len(words))], words[g.rng.IntN(len(words))])
		g.putMeta(s, "", s.createdAt)
		g.record(crabdb.OpPut, crabdb.ColSession, "local/idx/sess/"+g.agents[s.agent].id+"/gen/"+s.createdAt+"/"+s.handle, []byte(s.handle))
		g.stats.Sessions++
	}
	return s
}

// putMeta writes a session's SessionMeta.
func (g *gen) putMeta(s *session, title, updated string) {
	v, _ := marshal(struct {
		Agent        string `json:"agent"`
		CreatedBy    string `json:"created_by"`
		CreatedAt    string `json:"created_at"`
		Title        string `json:"title"`
		UpdatedAt    string `json:"updated_at"`
		MessageCount int    `json:"message_count"`
	}{g.agents[s.agent].id, "gen", s.createdAt, title, updated, s.msgs})
	g.record(crabdb.OpPut, crabdb.ColSession, "local/session/"+s.handle+"/meta", v)
}

// toolUse is the tool_use block of an assistant message.
type toolUse struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// toolResult is the tool_result block of the user message after it.
type toolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Name      string `json:"name"`
	Content   string `json:"content"`
}

// message is a HistoryEntry.
type message struct {
	Message struct {
		Role    string `json:"role"`
		Content []any  `json:"content"`
	} `json:"message"`
}

// call writes the session records of the tool call that made a memory op,
// as crabtalk's finalize_run writes a run: the assistant message with the
// tool_use and the user message with its result, the meta, the
// tool_start and tool_result events, the meta again. It returns the
// assistant message's index.
func (g *gen) call(s *session, op string, e crabdb.Entry) int {
	g.calls++
	id := fmt.Sprintf("toolu_gen%09d", g.calls)
	tool, result := "remember", "remembered: "+e.Name
	// The arguments as a model sends them, and the input as crabtalk
	// keeps them (a serde_json Value: keys in order).
	args, _ := marshal(struct {
		Name    string   `json:"name"`
		Content string   `json:"content"`
		Aliases []string `json:"aliases"`
	}{e.Name, e.Content, nonNil(e.Aliases)})
	input, _ := marshal(struct {
		Aliases []string `json:"aliases"`
		Content string   `json:"content"`
		Name    string   `json:"name"`
	}{nonNil(e.Aliases), e.Content, e.Name})
	if op == "remove" {
		tool, result = "forget", "forgot: "+e.Name
		args, _ = marshal(struct {
			Name string `json:"name"`
		}{e.Name})
		input = args
	}
	prefix := "local/session/" + s.handle + "/"
	var use, res message
	use.Message.Role, use.Message.Content = "assistant", []any{toolUse{"tool_use", id, tool, input}}
	res.Message.Role, res.Message.Content = "user", []any{toolResult{"tool_result", id, tool, result}}
	msg := s.msgs
	for _, m := range []message{use, res} {
		v, _ := marshal(m)
		g.record(crabdb.OpPut, crabdb.ColSession, fmt.Sprintf("%smsg/%012d", prefix, s.msgs), v)
		s.msgs++
	}
	ts := crabdb.RFC3339(g.now)
	g.putMeta(s, s.title, ts)
	start, _ := marshal(struct {
		Event string `json:"event"`
		Calls []struct {
			ID        string `json:"id"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"calls"`
		TS string `json:"ts"`
	}{"tool_start", []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}{{id, tool, string(args)}}, ts})
	ms := 1 + g.rng.IntN(40)
	done, _ := marshal(struct {
		Event      string `json:"event"`
		CallID     string `json:"call_id"`
		DurationMS int    `json:"duration_ms"`
		TS         string `json:"ts"`
	}{"tool_result", id, ms, crabdb.RFC3339(g.now.Add(time.Duration(ms) * time.Millisecond))})
	for _, v := range [][]byte{start, done} {
		g.record(crabdb.OpPut, crabdb.ColSession, fmt.Sprintf("%sevt/%012d", prefix, s.evts), v)
		s.evts++
	}
	g.putMeta(s, s.title, ts)
	return msg
}

// content is a new entry's text: 30 to 80 words in sentences, now and then
// a heading or a list item (about 200 to 500 bytes).
func (g *gen) content() string {
	var b strings.Builder
	n := 30 + g.rng.IntN(51)
	for i := range n {
		switch {
		case i == 0 && g.rng.IntN(4) == 0:
			b.WriteString("# ")
		case i > 0 && i%12 == 0:
			if g.rng.IntN(3) == 0 {
				b.WriteString(".\n- ")
			} else {
				b.WriteString(". ")
			}
		case i > 0:
			b.WriteByte(' ')
		}
		b.WriteString(words[g.rng.IntN(len(words))])
	}
	b.WriteByte('.')
	return b.String()
}

// edit is an upsert's new text: half the time a new text, else the old
// one with a few words replaced and perhaps a sentence added.
func (g *gen) edit(old string) string {
	if g.rng.IntN(2) == 0 || old == "" {
		return g.content()
	}
	ws := strings.Split(old, " ")
	for range 1 + g.rng.IntN(3) {
		i := g.rng.IntN(len(ws))
		if !strings.ContainsAny(ws[i], ".\n#-") {
			ws[i] = words[g.rng.IntN(len(words))]
		}
	}
	out := strings.Join(ws, " ")
	if g.rng.IntN(3) == 0 && len(out) < 1500 {
		out += " " + words[g.rng.IntN(len(words))] + " " + words[g.rng.IntN(len(words))] + " " + words[g.rng.IntN(len(words))] + "."
	}
	return out
}

// aliases is 0 to 3 aliases, now and then one with a space.
func (g *gen) aliases() []string {
	n := g.rng.IntN(4)
	out := make([]string, 0, n)
	for range n {
		a := words[g.rng.IntN(len(words))]
		if g.rng.IntN(5) == 0 {
			a += " " + words[g.rng.IntN(len(words))]
		}
		out = append(out, a)
	}
	return out
}

// nonNil is list, or an empty list for nil (so JSON says []).
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// marshal is compact JSON without HTML escaping, as serde_json writes the
// texts generated here (no U+2028 or U+2029 occurs in them).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// appendRecord appends one record: op, col, u32 key length, key, u32
// value length, value.
func appendRecord(dst []byte, op, col byte, key string, val []byte) []byte {
	dst = append(dst, op, col)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(key)))
	dst = append(dst, key...)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(val)))
	return append(dst, val...)
}

// walkRecords calls fn with each whole record of b and its offset in b.
func walkRecords(b []byte, fn func(op, col byte, key []byte, at int)) {
	for at := 0; at+6 <= len(b); {
		klen := int(binary.LittleEndian.Uint32(b[at+2:]))
		key := b[at+6 : at+6+klen]
		vlen := int(binary.LittleEndian.Uint32(b[at+6+klen:]))
		fn(b[at], b[at+1], key, at)
		at += 10 + klen + vlen
	}
}

// ReadTruth reads the truth's JSON lines.
func ReadTruth(r io.Reader) ([]TruthOp, error) {
	var out []TruthOp
	dec := json.NewDecoder(r)
	for {
		var t TruthOp
		err := dec.Decode(&t)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("genlog: truth line %d: %w", len(out)+1, err)
		}
		out = append(out, t)
	}
}
