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
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
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
