package genlog

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/crmem/crmem/store/crabdb"
)

// small is the options of the tests' log: 1,000 column-2 records over 200
// names, a snapshot every 300 of them, 10 sessions.
func small(index bool) Options {
	return Options{Seed: 4, Entries: 200, MemoryRecords: 1000, Index: index, CheckpointEvery: 300, Sessions: 10}
}

// generate is GenerateFile for t.
func generate(t *testing.T, opt Options) (string, []byte, Stats, []TruthOp) {
	t.Helper()
	return GenerateFile(t, opt)
}

// survivors replays the truth's ops up to (not including) seq: each
// surviving name and the op that last wrote it.
func survivors(ops []TruthOp, seq int) map[string]TruthOp {
	out := map[string]TruthOp{}
	for _, o := range ops {
		if o.Seq >= seq {
			break
		}
		switch o.Op {
		case "put":
			out[o.Name] = o
		case "remove":
			delete(out, o.Name)
		case "rename":
			delete(out, o.Name)
			out[o.To] = o
		}
	}
	return out
}

// checkEntries compares a store's memory entries with what the truth says
// survives: the same names, each the record at the offset the truth gives
// for its last write, with its kind, content length, aliases and
// created_at.
func checkEntries(t *testing.T, s *crabdb.Store, data []byte, want map[string]TruthOp) {
	t.Helper()
	entries, problems := s.Entries()
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	if len(entries) != len(want) {
		t.Errorf("%d entries, the truth says %d survive", len(entries), len(want))
	}
	for _, e := range entries {
		o, ok := want[e.Name]
		if !ok {
			t.Errorf("entry %q survives, the truth says not", e.Name)
			continue
		}
		if e.Kind != o.Kind || len(e.Content) != o.ContentLen || !slices.Equal(nonNil(e.Aliases), o.Aliases) || e.CreatedAt != o.CreatedAt {
			t.Errorf("entry %q = %s, kind %q, %d bytes of content, aliases %q, created_at %q\nthe truth: %+v", e.Name, e.Raw, e.Kind, len(e.Content), e.Aliases, e.CreatedAt, o)
		}
		op, col, key, val, _ := recordAt(data, o.Offset)
		if op != crabdb.OpPut || col != crabdb.ColMemory || key != crabdb.MemoryKey(e.Name) || !bytes.Equal(val, e.Raw) {
			t.Errorf("entry %q: the record at the truth's offset %d is (%d, %d, %q), not its live value", e.Name, o.Offset, op, col, key)
		}
	}
}

// recordAt decodes the record at off.
func recordAt(data []byte, off int64) (op, col byte, key string, val []byte, size int) {
	b := data[off:]
	klen := int(binary.LittleEndian.Uint32(b[2:]))
	vlen := int(binary.LittleEndian.Uint32(b[6+klen:]))
	return b[0], b[1], string(b[6 : 6+klen]), b[10+klen : 10+klen+vlen], 10 + klen + vlen
}

// walk calls fn with every record of the log, stepping over the
// snapshots.
func walk(t *testing.T, data []byte, snaps []Snapshot, fn func(op, col byte, key string, val []byte, off int64)) {
	t.Helper()
	at := int64(crabdb.HeaderLen)
	for at < int64(len(data)) {
		if i := slices.IndexFunc(snaps, func(s Snapshot) bool { return int64(s.At) == at }); i >= 0 {
			at += int64(snaps[i].Len)
			continue
		}
		op, col, key, val, size := recordAt(data, at)
		if op > crabdb.OpDelete {
			t.Fatalf("offset %d: op %d", at, op)
		}
		fn(op, col, key, val, at)
		at += int64(size)
	}
}

// TestGenerate_ReadsBackAsTheTruthSays: with and without the index, the
// log crabdb reads (its snapshot checked, the records after it replayed)
// holds exactly the entries the truth says survive, each at the offset the
// truth gives; the log holds the 1,000 column-2 records asked for; both
// files tell the same story; every kind of op and of name occurs.
func TestGenerate_ReadsBackAsTheTruthSays(t *testing.T) {
	var stories [2][]TruthOp
	for i, index := range []bool{false, true} {
		t.Run(fmt.Sprintf("index=%v", index), func(t *testing.T) {
			_, data, st, ops := generate(t, small(index))
			s, err := crabdb.Read(data)
			if err != nil {
				t.Fatal(err)
			}
			if w := s.Warnings(); len(w) > 0 {
				t.Errorf("warnings: %q", w)
			}
			if len(st.Snapshots) != 3 {
				t.Fatalf("%d snapshots, want 3 (after records 300, 600, 900)", len(st.Snapshots))
			}
			last := st.Snapshots[2]
			if h := s.Header(); h.IndexAt != last.At || h.IndexLen != last.Len {
				t.Errorf("header %+v, the last snapshot is %+v", h, last)
			}
			want := survivors(ops, len(ops))
			checkEntries(t, s, data, want)
			if st.LiveEntries != len(want) || st.Ops != len(ops) || st.Bytes != int64(len(data)) {
				t.Errorf("stats %+v: live %d, ops %d, %d bytes", st, len(want), len(ops), len(data))
			}

			counts := map[byte]int{}
			walk(t, data, st.Snapshots, func(_, col byte, _ string, _ []byte, _ int64) { counts[col]++ })
			if counts[crabdb.ColMemory] != 1000 || st.MemoryRecords != 1000 {
				t.Errorf("%d column-2 records (stats %d), want 1000", counts[crabdb.ColMemory], st.MemoryRecords)
			}
			if index != (counts[crabdb.ColText] > 0) || counts[crabdb.ColText] != st.IndexRecords {
				t.Errorf("index %v: %d column-6 records (stats %d)", index, counts[crabdb.ColText], st.IndexRecords)
			}
			if index {
				checkIndex(t, s)
			}

			if st.New == 0 || st.Upserts == 0 || st.Recreates == 0 || st.Removes == 0 || st.Renames == 0 || st.Names != 200 {
				t.Errorf("not every kind of op, or not every name: %+v", st)
			}
			var spaced, unicode bool
			for _, o := range ops {
				spaced = spaced || strings.Contains(o.Name, " ")
				unicode = unicode || utf8.RuneCountInString(o.Name) != len(o.Name)
			}
			if !spaced || !unicode {
				t.Errorf("names with spaces %v, with non-ASCII %v", spaced, unicode)
			}
			for i := range ops {
				ops[i].Offset, ops[i].RemoveOffset = 0, 0
			}
			stories[i] = ops
		})
	}
	if !slicesEqualJSON(stories[0], stories[1]) {
		t.Error("the files with and without the index tell different stories")
	}
}

// checkIndex: the memory index holds a document for every live entry
// with words, and its stats count them.
func checkIndex(t *testing.T, s *crabdb.Store) {
	t.Helper()
	entries, _ := s.Entries()
	var st struct {
		Docs uint64 `json:"docs"`
	}
	v, _ := s.Get(crabdb.ColText, "local/idx/text/mem/stats")
	if err := json.Unmarshal(v, &st); err != nil {
		t.Fatalf("stats %q: %v", v, err)
	}
	docs := s.Keys(crabdb.ColText, "local/idx/text/mem/doc/")
	if st.Docs != uint64(len(entries)) || len(docs) != len(entries) {
		t.Errorf("%d entries, %d documents, stats say %d", len(entries), len(docs), st.Docs)
	}
	for _, e := range entries {
		if _, ok := s.Get(crabdb.ColText, "local/idx/text/mem/doc/"+e.Key); !ok {
			t.Errorf("entry %q has no document", e.Name)
		}
	}
}

// slicesEqualJSON compares two truths line by line.
func slicesEqualJSON(a, b []TruthOp) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// TestGenerate_EverySnapshotChecksOut: each snapshot, the dead older ones
// too, lists the live keys of its moment in (col, key) order, each
// pointing at a Put of that key before it; and the file cut just after it,
// its header pointing at it, reads (crabdb checks every offset) as the
// entries the truth says lived then.
func TestGenerate_EverySnapshotChecksOut(t *testing.T) {
	for _, index := range []bool{false, true} {
		t.Run(fmt.Sprintf("index=%v", index), func(t *testing.T) {
			_, data, st, ops := generate(t, small(index))
			// The seq of the first op after each snapshot.
			var after []int
			for _, sn := range st.Snapshots {
				i := slices.IndexFunc(ops, func(o TruthOp) bool { return o.Offset > int64(sn.At) })
				if i < 0 {
					i = len(ops)
				}
				after = append(after, i)
			}
			for i, sn := range st.Snapshots {
				snap := data[sn.At : sn.At+sn.Len]
				if n := int(binary.LittleEndian.Uint32(snap)); n != sn.Keys {
					t.Errorf("snapshot %d: count %d, stats %d", i, n, sn.Keys)
				}
				cut := slices.Clone(data[:sn.At+sn.Len])
				copy(cut, Header(sn.At, sn.Len))
				s, err := crabdb.Read(cut)
				if err != nil {
					t.Fatalf("snapshot %d at %d: %v", i, sn.At, err)
				}
				if s.Len() != sn.Keys {
					t.Errorf("snapshot %d: %d live keys read, %d listed", i, s.Len(), sn.Keys)
				}
				// The keys the log before it leaves live, in every column.
				live := map[crabdb.Key]bool{}
				walk(t, data[:sn.At], st.Snapshots[:i], func(op, col byte, key string, _ []byte, _ int64) {
					if op == crabdb.OpPut {
						live[crabdb.Key{Col: col, Key: key}] = true
					} else {
						delete(live, crabdb.Key{Col: col, Key: key})
					}
				})
				if len(live) != sn.Keys {
					t.Errorf("snapshot %d lists %d keys, the log before it leaves %d live", i, sn.Keys, len(live))
				}
				checkEntries(t, s, data, survivors(ops, after[i]))
			}
		})
	}
}

// TestGenerate_OpsAsCrabtalkMakesThem: an upsert (remember over a live
// entry) keeps its created_at and makes it a note; a new or re-created
// entry is created at the op's clock, later than every op before it; a
// rename carries the old entry's kind, content, aliases and created_at to
// a name that is not live, and the old name goes.
func TestGenerate_OpsAsCrabtalkMakesThem(t *testing.T) {
	_, _, _, ops := generate(t, small(false))
	live := map[string]TruthOp{}
	var last, clock time.Time
	archives := 0
	for _, o := range ops {
		at, err := time.Parse(time.RFC3339Nano, o.At)
		if err != nil || !at.After(clock) {
			t.Errorf("op %d at %q, not after %s (%v)", o.Seq, o.At, clock, err)
		}
		clock = at
		old, was := live[o.Name]
		switch {
		case o.Op == "put" && was:
			if o.New || o.Kind != "note" || o.CreatedAt != old.CreatedAt {
				t.Errorf("op %d: an upsert of %+v wrote %+v", o.Seq, old, o)
			}
		case o.Op == "put":
			at, err := time.Parse(time.RFC3339Nano, o.CreatedAt)
			if err != nil || !o.New || !at.After(last) {
				t.Errorf("op %d: a new entry %+v created at or before %s (%v)", o.Seq, o, last, err)
			}
			last = at
			if o.CreatedAt != o.At {
				t.Errorf("op %d: a new entry created at %s, the op's clock is %s", o.Seq, o.CreatedAt, o.At)
			}
		case o.Op == "remove":
			if !was {
				t.Errorf("op %d: remove of %q, which is not live", o.Seq, o.Name)
			}
		case o.Op == "rename":
			if old.Kind == "archive" {
				archives++
			}
			if _, taken := live[o.To]; !was || taken || o.Kind != old.Kind || o.ContentLen != old.ContentLen ||
				!slices.Equal(o.Aliases, old.Aliases) || o.CreatedAt != old.CreatedAt {
				t.Errorf("op %d: rename %+v of %+v", o.Seq, o, old)
			}
		}
		switch o.Op {
		case "put":
			live[o.Name] = o
		case "remove":
			delete(live, o.Name)
		case "rename":
			delete(live, o.Name)
			live[o.To] = o
		}
	}
	if archives == 0 {
		t.Error("no archive was renamed: the kind a rename keeps is not shown")
	}
}

// TestGenerate_Deterministic: the same options give the same bytes and
// truth; another seed another file.
func TestGenerate_Deterministic(t *testing.T) {
	_, a, _, ta := generate(t, small(true))
	_, b, _, tb := generate(t, small(true))
	if !bytes.Equal(a, b) || !slicesEqualJSON(ta, tb) {
		t.Error("two runs with the same seed differ")
	}
	opt := small(true)
	opt.Seed++
	_, c, _, _ := generate(t, opt)
	if bytes.Equal(a, c) {
		t.Error("another seed gave the same file")
	}
}

// TestGenerate_SessionsExplainTheirOps: each op the truth gives a session
// has, in that session, the assistant message whose remember or forget
// call names the entry with its content, the user message with the
// tool's result, and a tool_start event for the call, all written after
// the op's memory records; about 70 % of the ops a session can explain
// are explained, and never a rename.
func TestGenerate_SessionsExplainTheirOps(t *testing.T) {
	_, data, st, ops := generate(t, small(false))
	s, err := crabdb.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	offs := map[string]int64{}
	walk(t, data, st.Snapshots, func(_, col byte, key string, _ []byte, off int64) {
		if col == crabdb.ColSession {
			offs[key] = off
		}
	})
	if got := len(s.Sessions()); got != st.Sessions || got == 0 || got > 10 {
		t.Errorf("%d sessions in the store, stats %d", got, st.Sessions)
	}
	explainable, explained := 0, 0
	for _, o := range ops {
		if o.Op == "rename" {
			if o.Session != "" {
				t.Errorf("op %d: a rename explained by %s", o.Seq, o.Session)
			}
			continue
		}
		explainable++
		if o.Session == "" {
			continue
		}
		explained++
		prefix := "local/session/" + o.Session + "/"
		useKey := fmt.Sprintf("%smsg/%012d", prefix, *o.Msg)
		resKey := fmt.Sprintf("%smsg/%012d", prefix, *o.Msg+1)
		var use, res struct {
			Message struct {
				Role    string `json:"role"`
				Content []struct {
					Type      string          `json:"type"`
					ID        string          `json:"id"`
					Name      string          `json:"name"`
					Input     json.RawMessage `json:"input"`
					ToolUseID string          `json:"tool_use_id"`
					Content   string          `json:"content"`
				} `json:"content"`
			} `json:"message"`
		}
		v1, _ := s.Get(crabdb.ColSession, useKey)
		v2, _ := s.Get(crabdb.ColSession, resKey)
		if json.Unmarshal(v1, &use) != nil || json.Unmarshal(v2, &res) != nil || len(use.Message.Content) != 1 || len(res.Message.Content) != 1 {
			t.Fatalf("op %d: messages %s / %s", o.Seq, v1, v2)
		}
		u, r := use.Message.Content[0], res.Message.Content[0]
		var in struct {
			Name    string   `json:"name"`
			Content *string  `json:"content"`
			Aliases []string `json:"aliases"`
		}
		json.Unmarshal(u.Input, &in)
		tool, result := "remember", "remembered: "+o.Name
		if o.Op == "remove" {
			tool, result = "forget", "forgot: "+o.Name
		}
		if use.Message.Role != "assistant" || u.Type != "tool_use" || u.Name != tool || in.Name != o.Name ||
			(tool == "remember" && (in.Content == nil || len(*in.Content) != o.ContentLen || !slices.Equal(nonNil(in.Aliases), o.Aliases))) {
			t.Errorf("op %d %+v: assistant message %s", o.Seq, o, v1)
		}
		if res.Message.Role != "user" || r.Type != "tool_result" || r.ToolUseID != u.ID || r.Content != result {
			t.Errorf("op %d: result message %s", o.Seq, v2)
		}
		if offs[useKey] <= o.Offset || offs[resKey] <= offs[useKey] {
			t.Errorf("op %d: messages at %d, %d, not after its memory record at %d", o.Seq, offs[useKey], offs[resKey], o.Offset)
		}
		found := false
		for _, k := range s.Keys(crabdb.ColSession, prefix+"evt/") {
			v, _ := s.Get(crabdb.ColSession, k)
			found = found || (bytes.Contains(v, []byte(`"event":"tool_start"`)) && bytes.Contains(v, []byte(`"id":"`+u.ID+`"`)) &&
				bytes.Contains(v, []byte(`"ts":"`+o.At+`"`)))
		}
		if !found {
			t.Errorf("op %d: no tool_start event for %s at %s", o.Seq, u.ID, o.At)
		}
	}
	if share := float64(explained) / float64(explainable); share < 0.6 || share > 0.8 || explained != st.Explained {
		t.Errorf("%d of %d ops explained (%.2f; stats %d), want about 70 %%", explained, explainable, share, st.Explained)
	}
}

// TestGenerate_Refusals: what cannot be generated says why.
func TestGenerate_Refusals(t *testing.T) {
	var buf bytes.Buffer
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Entries: 10}, "must be positive"},
		{Options{Entries: 10, MemoryRecords: 10, Sessions: -1}, "must not be negative"},
		{Options{Entries: 10, MemoryRecords: 10, CheckpointEvery: 5}, "io.WriterAt"},
	} {
		if _, err := Generate(&buf, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opt, err, c.want)
		}
	}
	// Without checkpoints any writer does, and the header names no
	// snapshot.
	if _, err := Generate(&buf, Options{Entries: 10, MemoryRecords: 30}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes()[:crabdb.HeaderLen], Header(0, 0)) {
		t.Errorf("header % x", buf.Bytes()[:crabdb.HeaderLen])
	}
}

// BenchmarkGenerate: 10,000 column-2 records over 2,000 names, with and
// without the index.
func BenchmarkGenerate(b *testing.B) {
	for _, index := range []bool{false, true} {
		b.Run(fmt.Sprintf("index=%v", index), func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(io.Discard, Options{Seed: 1, Entries: 2000, MemoryRecords: 10_000, Index: index}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
