package cli

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store/crabdb"
)

// leaveUnfinishedAppend puts beside a copy of the fixture store what a
// crmem killed inside an append of one entry leaves: its note, and either
// the reserve record (reserve: the room taken, nothing in it yet) or, for
// the two-write append crmem made before, the batch with its first 6 bytes
// zeroed, two thirds written, then crabtalk's record written over it as
// crabdb writes (from the torn record's offset, cutting nothing), which
// makes crabdb refuse the store. It returns the store's path and its
// bytes before.
func leaveUnfinishedAppend(t *testing.T, reserve bool) (string, []byte) {
	t.Helper()
	path := copyStore(t, "small.crmem", "store.crmem")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := crabdb.Read(before)
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	if err := b.PutMemory(crabdb.Entry{Name: "unfinished", Kind: "note", Content: "crmem was stopped " + strings.Repeat("while writing this ", 100), CreatedAt: "2026-01-01T00:00:00+00:00"}); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	sum := sha256.Sum256(data)
	note := map[string]any{"offset": len(before), "length": len(data), "sha256": hex.EncodeToString(sum[:]), "header": hex.EncodeToString(before[:crabdb.HeaderLen])}
	var tail []byte
	if reserve {
		note["scheme"] = "reserve"
		tail = make([]byte, len(data)+10)
		tail[0] = crabdb.OpDelete
		binary.LittleEndian.PutUint32(tail[2:6], uint32(len(data)))
		for i := 6; i < len(data); i++ {
			tail[i] = 1
		}
		tail[len(data)] = crabdb.OpDelete
	} else {
		tail = append(make([]byte, 6), data[6:len(data)*2/3]...)
		c := s.NewBatch() // crabtalk remembers an entry, over the zeros
		if err := c.PutMemory(crabdb.Entry{Name: "crab-new", Kind: "note", Content: "the daemon wrote this", CreatedAt: "2026-02-02T00:00:00+00:00"}); err != nil {
			t.Fatal(err)
		}
		copy(tail, c.Bytes())
	}
	js, _ := json.Marshal(note)
	if err := os.WriteFile(crabdb.IntentPath(path), js, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(slices.Clone(before), tail...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, before
}

// TestUnfinishedAppend_LeftWhileTheDaemonRuns: while the check before a
// write fails (crabtalk's daemon has the store open: it keeps its append
// position in memory, and would write past a cut, leaving zeros that read
// as records), a start cuts nothing, says what it found and why it left
// it; the reserve is harmless to crabtalk's reader meanwhile.
func TestUnfinishedAppend_LeftWhileTheDaemonRuns(t *testing.T) {
	path, _ := leaveUnfinishedAppend(t, true)
	data, _ := os.ReadFile(path)
	_, errs, code := runIn(nil, "", "--db", path, "ls")
	if code != 0 || !strings.Contains(errs, "reserved; left as it is") || !strings.Contains(errs, "daemon is running") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if got, _ := os.ReadFile(path); !slices.Equal(got, data) {
		t.Error("the file changed")
	}
	if _, err := os.Stat(crabdb.IntentPath(path)); err != nil {
		t.Error("the note is gone")
	}
	if _, err := crabdb.Read(data); err != nil {
		t.Errorf("crabtalk's reader: %v", err)
	}
}

// TestUnfinishedAppend_RepairedByAReadOnlyStart: a crmem start that only
// reads (ls, check, history, show) repairs what a killed append of crmem's
// left, before it reads, and says so on stderr; check names the state in
// its report. After it crabtalk's reader opens the store, and the note is
// gone: the reserve alone is cut (the store is byte for byte as before);
// the two-write leftover that crabtalk wrote over is cut after crabtalk's
// record.
func TestUnfinishedAppend_RepairedByAReadOnlyStart(t *testing.T) {
	for _, args := range [][]string{{"ls"}, {"check"}, {"history", "crab-new"}, {"show", "crab-new"}} {
		for _, reserve := range []bool{true, false} {
			t.Run(strings.Join(args, " ")+map[bool]string{true: "/reserve", false: "/legacy written over"}[reserve], func(t *testing.T) {
				path, before := leaveUnfinishedAppend(t, reserve)
				if !reserve {
					data, _ := os.ReadFile(path)
					if _, err := crabdb.Read(data); err == nil {
						t.Fatal("the leftover reads cleanly: the test proves nothing")
					}
				}
				out, errs, _ := runGuarded(noDaemon, nil, "", append([]string{"--db", path}, args...)...)
				state := map[bool]string{true: "reserved; repaired", false: "crabtalk wrote at its offset; repaired"}[reserve]
				if !strings.Contains(errs, "crmem's unfinished append at offset") || !strings.Contains(errs, state) {
					t.Errorf("stderr %q does not say what was repaired (%q)", errs, state)
				}
				if args[0] == "check" && !strings.Contains(out, state) {
					t.Errorf("check's report %q does not name the state", out)
				}
				data, _ := os.ReadFile(path)
				s, err := crabdb.Read(data)
				if err != nil || len(s.Warnings()) > 0 {
					t.Fatalf("crabtalk's reader after the repair: %v %q", err, s.Warnings())
				}
				if reserve && !slices.Equal(data, before) {
					t.Errorf("the reserve was not cut: %d bytes, before %d", len(data), len(before))
				}
				if _, ok := s.Get(crabdb.ColMemory, crabdb.MemoryKey("crab-new")); !reserve && !ok {
					t.Error("crabtalk's entry is gone")
				}
				if _, err := os.Stat(crabdb.IntentPath(path)); !os.IsNotExist(err) {
					t.Errorf("the note is left: %v", err)
				}
				if _, errs, _ := runGuarded(noDaemon, nil, "", append([]string{"--db", path}, args...)...); strings.Contains(errs, "unfinished append") {
					t.Errorf("the next start still warns: %q", errs)
				}
			})
		}
	}
}
