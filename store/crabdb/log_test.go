package crabdb

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// replayLog replays every record WalkLog gives into a live map.
func replayLog(t *testing.T, data []byte) (map[Key]string, LogEnd, int) {
	t.Helper()
	live := map[Key]string{}
	n := 0
	end := WalkLog(data, func(r LogRecord) bool {
		n++
		k := Key{r.Col, string(r.Key)}
		if r.Op == OpPut {
			live[k] = string(r.Value)
		} else {
			delete(live, k)
		}
		return true
	})
	return live, end, n
}

// TestWalkLog_ReplaysToTheLiveState: replaying the whole log, snapshots
// skipped, gives exactly the live keys crabdb's reader (snapshot plus the
// records after it) gives, on every store crabtalk's code wrote.
func TestWalkLog_ReplaysToTheLiveState(t *testing.T) {
	for _, path := range []string{
		filepath.Join(refDir, "small.crmem"),
		filepath.Join(refDir, "compacted.crmem"),
		filepath.Join(refDir, "torn.crmem"),
		filepath.Join(refDir, "empty.crmem"),
		filepath.Join(writesDir, "before.crmem"),
		filepath.Join(writesDir, "after.crmem"),
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Read(data)
			if err != nil {
				t.Fatal(err)
			}
			live, end, n := replayLog(t, data)
			if end.Err != nil {
				t.Fatalf("walk stopped: %+v", end)
			}
			if len(live) != s.Len() {
				t.Errorf("replayed %d live keys, the reader has %d", len(live), s.Len())
			}
			for k, v := range live {
				if got, ok := s.Get(k.Col, k.Key); !ok || string(got) != v {
					t.Errorf("(%d, %q): replayed %q, reader has %q (%v)", k.Col, k.Key, v, got, ok)
				}
			}
			h := s.Header()
			if h.HasSnapshot() && (len(end.Snapshots) == 0 || end.Snapshots[len(end.Snapshots)-1] != int64(h.IndexAt)) {
				t.Errorf("snapshots skipped %v, header's at %d", end.Snapshots, h.IndexAt)
			}
			t.Logf("%d records, snapshots at %v, end %d (torn %v)", n, end.Snapshots, end.Offset, end.Torn)
		})
	}
}

// TestWalkLog_SkipsOlderSnapshots: a store checkpointed twice keeps its
// first snapshot as dead bytes in the log; the walk skips it (and so reads
// every record after it) instead of reading it as records.
func TestWalkLog_SkipsOlderSnapshots(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(refDir, "small.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := ParseHeader(data)
	if !h.HasSnapshot() {
		t.Fatal("fixture has no snapshot")
	}
	// Check it again: append a copy of the live index as a new snapshot
	// and point the header at it, as crabdb's checkpoint does.
	s, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	snap := encodeSnapshotForTest(s)
	grown := append([]byte(nil), data...)
	at := len(grown)
	grown = append(grown, snap...)
	more := appendRecord(nil, OpPut, ColMemory, MemoryPrefix+"after-second-checkpoint", []byte(`{"name":"after-second-checkpoint","kind":"note","content":"x","aliases":[],"created_at":"2026-01-01T00:00:00+00:00"}`))
	grown = append(grown, more...)
	binary.LittleEndian.PutUint64(grown[16:], uint64(at))
	binary.LittleEndian.PutUint64(grown[24:], uint64(len(snap)))
	live, end, _ := replayLog(t, grown)
	if end.Err != nil || end.Torn {
		t.Fatalf("walk stopped: %+v", end)
	}
	if len(end.Snapshots) != 2 || end.Snapshots[0] != int64(h.IndexAt) || end.Snapshots[1] != int64(at) {
		t.Errorf("snapshots %v, want [%d %d]", end.Snapshots, h.IndexAt, at)
	}
	if _, ok := live[Key{ColMemory, MemoryPrefix + "after-second-checkpoint"}]; !ok {
		t.Error("the record after the second snapshot was not read")
	}
	s2, err := Read(grown)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != s2.Len() {
		t.Errorf("replayed %d live keys, reader %d", len(live), s2.Len())
	}
}

// encodeSnapshotForTest encodes s's live keys as crabdb's checkpoint
// does (db.rs snapshot: count, then col, key length, key, offset).
func encodeSnapshotForTest(s *Store) []byte {
	keys := s.keys()
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(keys)))
	for _, sk := range keys {
		v := s.live[sk.Key]
		out = append(out, sk.Col)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(sk.Key.Key)))
		out = append(out, sk.Key.Key...)
		out = binary.LittleEndian.AppendUint64(out, uint64(v.off))
	}
	return out
}

// TestWalkLog_StopsAtAnUndecodableRecord: an unknown op ends the walk with
// its offset; the records before it were all given.
func TestWalkLog_StopsAtAnUndecodableRecord(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(writesDir, "after.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, total := replayLog(t, data)
	// Find the 10th record after before.crmem's end and break its op.
	var offs []int64
	WalkLog(data, func(r LogRecord) bool { offs = append(offs, r.Offset); return true })
	bad := append([]byte(nil), data...)
	at := offs[len(offs)-10]
	bad[at] = 7
	_, end, n := replayLog(t, bad)
	if end.Err == nil || end.Offset != at {
		t.Fatalf("end = %+v, want an error at %d", end, at)
	}
	if n != total-10 {
		t.Errorf("gave %d records, want %d", n, total-10)
	}
}

// TestWalkLog_WritesInOrder: the memory records the walk gives after
// before.crmem's end are, op by op, the ones crabtalk's code appended
// (crabdb-writes' step-NN.records.jsonl, column 2).
func TestWalkLog_WritesInOrder(t *testing.T) {
	before, err := os.Stat(filepath.Join(writesDir, "before.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(writesDir, "after.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	type rec struct{ Op, Key, Value string }
	var want []rec
	for i := 1; i <= 19; i++ {
		f, err := os.Open(filepath.Join(writesDir, "step-"+pad2(i)+".records.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			var r struct {
				Op    string `json:"op"`
				Col   int    `json:"col"`
				Key   string `json:"key"`
				Value string `json:"value"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if r.Col == ColMemory {
				want = append(want, rec{r.Op, r.Key, r.Value})
			}
		}
		f.Close()
	}
	var got []rec
	WalkLog(data, func(r LogRecord) bool {
		if r.Offset >= before.Size() && r.Col == ColMemory {
			op := "put"
			if r.Op == OpDelete {
				op = "delete"
			}
			got = append(got, rec{op, string(r.Key), string(r.Value)})
		}
		return true
	})
	if len(got) != len(want) {
		t.Fatalf("%d memory records, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("record %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func pad2(i int) string {
	if i < 10 {
		return "0" + string(rune('0'+i))
	}
	return string(rune('0'+i/10)) + string(rune('0'+i%10))
}

// WalkLog walks the whole log (WalkLogFrom from the header).
func WalkLog(data []byte, fn func(LogRecord) bool) LogEnd {
	return WalkLogFrom(data, HeaderLen, 0, fn)
}
