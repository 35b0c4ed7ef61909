package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
	"github.com/crmem/crmem/store/crabdb/crabdbtest/genlog"
	"github.com/crmem/crmem/store/sessions"
)

// renameSeq is issue 38's sequence, as crabdb-writes' ops: hist-a
// remembered twice, renamed to hist-b, hist-b written and removed, then
// a new hist-a remembered.
var renameSeq = []op{
	{Op: "remember", Name: "hist-a", Content: "first words of a", Aliases: []string{}, Now: "2026-03-02T09:00:00Z"},
	{Op: "remember", Name: "hist-a", Content: "second words of a", Aliases: []string{"ha"}, Now: "2026-03-02T09:01:00Z"},
	{Op: "rename", From: "hist-a", To: "hist-b"},
	{Op: "remember", Name: "hist-b", Content: "b wrote this", Aliases: []string{}, Now: "2026-03-02T09:03:00Z"},
	{Op: "remove", Name: "hist-b"},
	{Op: "remember", Name: "hist-a", Content: "a new entry named hist-a", Aliases: []string{}, Now: "2026-03-02T09:05:00Z"},
}

// renameSeqStore is crabdb-writes' before.crmem with renameSeq's memory
// records appended as crabtalk appends them (crabdbtest's records: the
// entry's JSON in crabtalk's field order; a rename is the put under the
// new name, then the delete of the old).
func renameSeqStore(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(writesDir, "before.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]storedEntry{}
	put := func(e storedEntry) {
		if e.Aliases == nil {
			e.Aliases = []string{}
		}
		v, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		live[e.Name] = e
		data = append(data, crabdbtest.Record(crabdb.OpPut, crabdb.ColMemory, crabdb.MemoryPrefix+e.Name, string(v))...)
	}
	remove := func(name string) {
		delete(live, name)
		data = append(data, crabdbtest.Record(crabdb.OpDelete, crabdb.ColMemory, crabdb.MemoryPrefix+name, "")...)
	}
	for _, o := range renameSeq {
		switch o.Op {
		case "remember":
			created := ""
			if e, ok := live[o.Name]; ok {
				created = e.CreatedAt
			} else {
				at, err := time.Parse(time.RFC3339Nano, o.Now)
				if err != nil {
					t.Fatal(err)
				}
				created = crabdb.RFC3339(at)
			}
			put(storedEntry{Name: o.Name, Kind: "note", Content: o.Content, Aliases: o.Aliases, CreatedAt: created})
		case "rename":
			e := live[o.From]
			e.Name = o.To
			put(e)
			remove(o.From)
		case "remove":
			remove(o.Name)
		}
	}
	return data
}

// oracleRenameSeqStore is the same sequence written by crabtalk's own
// store code ($CRMEM_ORACLE: crabdb-fx-writer's ops mode).
func oracleRenameSeqStore(t *testing.T) []byte {
	t.Helper()
	bin := os.Getenv("CRMEM_ORACLE")
	if bin == "" {
		t.Skip("CRMEM_ORACLE is unset (crabtalk's crabdb-fx-writer); TestLineage_RenameAwayEndsALife covers the same with crmem's records")
	}
	dir := t.TempDir()
	var ops strings.Builder
	for _, o := range renameSeq {
		fields := map[string]any{"op": o.Op} // only the op's own fields: the driver refuses others
		switch o.Op {
		case "remember":
			fields["name"], fields["content"], fields["aliases"], fields["now"] = o.Name, o.Content, o.Aliases, o.Now
		case "rename":
			fields["from"], fields["to"] = o.From, o.To
		case "remove":
			fields["name"] = o.Name
		}
		line, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		ops.Write(line)
		ops.WriteByte('\n')
	}
	before, err := os.ReadFile(filepath.Join(writesDir, "before.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"before.crmem": string(before), "ops.jsonl": ops.String(), "queries.jsonl": `{"query":"words","limit":5}` + "\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command(bin, "ops", filepath.Join(dir, "before.crmem"), filepath.Join(dir, "ops.jsonl"), filepath.Join(dir, "queries.jsonl"), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s ops: %v\n%s", bin, err, b)
	}
	data, err := os.ReadFile(filepath.Join(out, "after.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestLineage_RenameAwayEndsALife: issue 38's sequence, written with
// crmem's records. See checkRenameSeq.
func TestLineage_RenameAwayEndsALife(t *testing.T) {
	checkRenameSeq(t, renameSeqStore(t))
}

// TestLineage_RenameAwayEndsALife_Oracle: the same, written by crabtalk's
// own code.
func TestLineage_RenameAwayEndsALife_Oracle(t *testing.T) {
	checkRenameSeq(t, oracleRenameSeqStore(t))
}

// checkRenameSeq: hist-a's history is its old entry up to the rename
// away (marked as renamed to hist-b), then the new hist-a as a second
// life, never hist-b's later versions; restore takes only the new
// entry's versions and says why it refuses the old one's; hist-b's
// history goes back through the rename into it; --deleted lists hist-b,
// not hist-a; the JSON says which life each version is of. Whole-index
// and one-entry reads agree.
func checkRenameSeq(t *testing.T, data []byte) {
	type row struct {
		action   Action
		name, to string
		content  string
		life     int
		current  bool
	}
	for _, whole := range []bool{false, true} {
		read := func(name string) History {
			if whole {
				return ReadLog(storeLog, data, nil).History(name)
			}
			return OneLog(storeLog, data, name)
		}
		a := read("hist-a")
		var got []row
		for _, v := range a.Versions {
			got = append(got, row{v.Action, v.Name, v.To, v.Content, v.Life, v.Current})
		}
		want := []row{
			{Write, "hist-a", "", "first words of a", 1, false},
			{Write, "hist-a", "", "second words of a", 1, false},
			{RenameOut, "hist-a", "hist-b", "", 1, false},
			{Write, "hist-a", "", "a new entry named hist-a", 2, true},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("whole %v: hist-a:\n got %v\nwant %v", whole, got, want)
		}
		if lives := fmt.Sprintf("%+v", a.Lives); lives != "[{N:1 First:1 Last:3 Ended:renamed To:hist-b} {N:2 First:4 Last:4 Ended: To:}]" || !a.Exists {
			t.Errorf("hist-a lives %s, exists %v", lives, a.Exists)
		}

		// restore: only the new entry's versions.
		cur := &store.Entry{Name: "hist-a", Content: "a new entry named hist-a", Aliases: []string{}}
		for _, n := range []int{1, 2} {
			_, err := RestoreOps(a, a.Versions[n-1], cur)
			if err == nil || !strings.Contains(err.Error(), `an earlier entry named "hist-a", renamed to "hist-b" at #3`) ||
				!strings.Contains(err.Error(), "only this entry's versions (#4)") {
				t.Errorf("restore #%d: %v", n, err)
			}
		}
		if _, err := RestoreOps(a, a.Versions[2], cur); err == nil {
			t.Error("restore of the rename away: no error")
		}
		if _, err := RestoreOps(a, a.Versions[3], cur); !errors.Is(err, ErrCurrent) {
			t.Errorf("restore #4: %v", err)
		}

		b := read("hist-b")
		got = got[:0]
		for _, v := range b.Versions {
			got = append(got, row{v.Action, v.Name, v.To, v.Content, v.Life, v.Current})
		}
		want = []row{
			{Write, "hist-a", "", "first words of a", 1, false},
			{Write, "hist-a", "", "second words of a", 1, false},
			{RenameIn, "hist-b", "", "second words of a", 1, false},
			{Write, "hist-b", "", "b wrote this", 1, false},
			{Delete, "hist-b", "", "", 1, false},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || b.Exists || len(b.Lives) != 1 || b.Lives[0].Ended != LifeDeleted {
			t.Errorf("whole %v: hist-b:\n got %v\nwant %v\nlives %+v", whole, got, want, b.Lives)
		}
		// Before the new hist-a: the name's entry went on as hist-b, so
		// its versions are restored there, not copied back under hist-a.
		old := read("hist-a")
		old.Versions, old.Lives = old.Versions[:3], old.Lives[:1]
		if _, err := RestoreOps(old, old.Versions[1], nil); err == nil || !strings.Contains(err.Error(), `version #2 is of the entry renamed to "hist-b" at #3: restore it under that name`) {
			t.Errorf("restore under a name renamed away: %v", err)
		}
		// hist-b's entry, deleted, is brought back whole: any of its versions.
		if ops, err := RestoreOps(b, b.Versions[0], nil); err != nil || len(ops) != 1 {
			t.Errorf("restore hist-b #1: %v %v", ops, err)
		}

		js, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, frag := range []string{`"action":"rename_away","name":"hist-a","to":"hist-b","life":1`, `"life":2`,
			`"lives":[{"n":1,"first":1,"last":3,"ended":"renamed","to":"hist-b"},{"n":2,"first":4,"last":4}]`} {
			if !strings.Contains(string(js), frag) {
				t.Errorf("JSON lacks %s:\n%s", frag, js)
			}
		}
	}
	var forgotten []string
	for _, f := range ReadLog(storeLog, data, nil).Forgotten() {
		if strings.HasPrefix(f.Name, "hist-") {
			forgotten = append(forgotten, f.Name+":"+f.Last.Content)
		}
	}
	if fmt.Sprint(forgotten) != "[hist-b:b wrote this]" {
		t.Errorf("forgotten: %v", forgotten)
	}
}

// TestLineage_GeneratedLogNeverFollowsARenameAway: on a generated log of
// 3,000 records with renames, removes and re-creations, every name's
// history holds, in each life, versions under earlier names only before
// the rename that brought them into the name; every earlier life ends
// with the name's delete or its rename away; a rename away is only ever
// of the name asked about, and its To is what the log's rename says;
// restore takes exactly the versions with content of the entry that has
// (or had last) the name, none of a name renamed away.
func TestLineage_GeneratedLogNeverFollowsARenameAway(t *testing.T) {
	data, ops := generated(t, genlog.Options{Seed: 5, Entries: 200, MemoryRecords: 3000, CheckpointEvery: 900})
	renameTo := map[int64]string{} // the offset of a rename's delete → its new name
	renames := 0
	for _, o := range ops {
		if o.Op == "rename" {
			renameTo[o.RemoveOffset] = o.To
			renames++
		}
	}
	ix := ReadLog(storeLog, data, nil)
	aways, lives := 0, 0
	found := map[int64]bool{}
	for _, name := range ix.Names() {
		h := ix.History(name)
		lives += len(h.Lives)
		for k, l := range h.Lives {
			vs := h.Versions[l.First-1 : l.Last]
			for i, v := range vs {
				if v.Life != l.N {
					t.Fatalf("%q #%d: life %d in life %d", name, v.N, v.Life, l.N)
				}
				if v.Action == RenameOut {
					aways++
					found[v.Log.Offset] = true
					if v.Name != name || i != len(vs)-1 || renameTo[v.Log.Offset] != v.To {
						t.Errorf("%q #%d: rename away %+v", name, v.N, v)
					}
				}
				if v.Name == name {
					continue
				}
				// Under an earlier name: the next version under another
				// name is the rename from it.
				for _, w := range vs[i+1:] {
					if w.Name != v.Name {
						if w.Action != RenameIn || w.From != v.Name {
							t.Errorf("%q #%d under %q is followed by #%d %s under %q", name, v.N, v.Name, w.N, w.Action, w.Name)
						}
						break
					}
				}
			}
			if last := vs[len(vs)-1]; k < len(h.Lives)-1 && (last.Name != name || last.Action != Delete && last.Action != RenameOut) {
				t.Errorf("%q: life %d ends with #%d %s of %q", name, l.N, last.N, last.Action, last.Name)
			}
			// restore's choices: this entry's versions that held content,
			// and none when it went on under another name.
			this := k == len(h.Lives)-1
			for _, v := range vs {
				_, err := RestoreOps(h, v, nil)
				want := this && l.Ended != LifeRenamed && v.Action != Delete && v.Action != RenameOut
				if (err == nil) != want {
					t.Errorf("%q #%d (%s, life %d of %d, ended %q): restore error %v", name, v.N, v.Action, l.N, len(h.Lives), l.Ended, err)
				}
				if err != nil && !this && !strings.Contains(err.Error(), "an earlier entry named") {
					t.Errorf("%q #%d: refused as %v", name, v.N, err)
				}
			}
		}
	}
	back := 0
	for _, o := range ops {
		if o.Op != "rename" || found[o.RemoveOffset] {
			continue
		}
		// Not a rename away: then the entry came back under its old name
		// (renamed away and back: one entry, one life, the rename into the
		// other name one of its versions).
		in := false
		for _, v := range ix.History(o.Name).Versions {
			in = in || v.Log != nil && v.Log.Offset == o.Offset && v.Action == RenameIn && v.From == o.Name
		}
		if !in {
			t.Errorf("op %d: rename %q → %q is no rename away and not in %q's history", o.Seq, o.Name, o.To, o.Name)
		}
		back++
	}
	if renames == 0 || aways+back != renames || back == renames {
		t.Errorf("%d renames in the log, %d renames away read, %d back under the old name", renames, aways, back)
	}
	t.Logf("%d names, %d lives, %d renames away", len(ix.Names()), lives, aways)
}

// fakeSessions are sessions given whole (a store.SessionsReader).
type fakeSessions []sessions.SessionRecalls

func (f fakeSessions) Read() ([]sessions.Session, error) { return nil, nil }

func (f fakeSessions) Recalls(_ sessions.RecallOptions, fn func(sessions.SessionRecalls) error) (sessions.RecallProblems, error) {
	for _, s := range f {
		if err := fn(s); err != nil {
			return sessions.RecallProblems{}, err
		}
	}
	return sessions.RecallProblems{}, nil
}

// TestLineage_V1SplitsAtTheEntryNowsCreation: the same sequence on a
// memory.db, told by the agent's sessions: the rename was crmem's and
// left no trace, but the entry now was created after hist-a's first two
// calls, so they were an earlier entry's (its life ended unrecorded) and
// restore refuses them; a forget ends a life.
func TestLineage_V1SplitsAtTheEntryNowsCreation(t *testing.T) {
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	w := func(tool, name, content, when string) sessions.Write {
		result := map[string]string{sessions.RememberTool: "remembered: ", sessions.ForgetTool: "forgot: "}[tool] + name
		return sessions.Write{Tool: tool, Name: name, Content: content, Aliases: []string{}, Session: "s1", Step: "step-" + when,
			ID: "call-" + when, Time: at(when), TimeFrom: sessions.TimeEvent, Result: result, Outcome: sessions.WriteDone}
	}
	ss := fakeSessions{{Session: "s1", Writes: []sessions.Write{
		w(sessions.RememberTool, "hist-a", "first words of a", "2026-03-02T09:00:00Z"),
		w(sessions.RememberTool, "hist-a", "second words of a", "2026-03-02T09:01:00Z"),
		w(sessions.RememberTool, "hist-b", "b wrote this", "2026-03-02T09:03:00Z"),
		w(sessions.ForgetTool, "hist-b", "", "2026-03-02T09:04:00Z"),
		w(sessions.RememberTool, "hist-a", "a new entry named hist-a", "2026-03-02T09:05:00Z"),
		w(sessions.RememberTool, "hist-b", "hist-b again", "2026-03-02T09:06:00Z"),
	}}}
	current := map[string]Current{
		"hist-a": {Name: "hist-a", Kind: "note", Content: "a new entry named hist-a", Aliases: []string{}, CreatedAt: "2026-03-02T09:05:00Z"},
		"hist-b": {Name: "hist-b", Kind: "note", Content: "hist-b again", Aliases: []string{}, CreatedAt: "2026-03-02T09:06:00Z"},
	}
	for _, only := range []*string{nil, new("hist-a")} {
		ix, err := FromV1(current, ss, only)
		if err != nil {
			t.Fatal(err)
		}
		a := ix.History("hist-a")
		var got []string
		for _, v := range a.Versions {
			got = append(got, fmt.Sprintf("%s %q life %d current %v", v.Action, v.Content, v.Life, v.Current))
		}
		want := []string{
			`write "first words of a" life 1 current false`,
			`write "second words of a" life 1 current false`,
			`write "a new entry named hist-a" life 2 current true`,
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("hist-a:\n got %q\nwant %q", got, want)
		}
		if l := fmt.Sprintf("%+v", a.Lives); l != "[{N:1 First:1 Last:2 Ended:replaced To:} {N:2 First:3 Last:3 Ended: To:}]" {
			t.Errorf("hist-a lives %s", l)
		}
		cur := &store.Entry{Name: "hist-a", Content: "a new entry named hist-a", Aliases: []string{}}
		if _, err := RestoreOps(a, a.Versions[0], cur); err == nil || !strings.Contains(err.Error(), "removed or renamed away before this one was created") {
			t.Errorf("restore #1: %v", err)
		}
		if only != nil {
			continue
		}
		b := ix.History("hist-b")
		if l := fmt.Sprintf("%+v", b.Lives); l != "[{N:1 First:1 Last:2 Ended:deleted To:} {N:2 First:3 Last:3 Ended: To:}]" {
			t.Errorf("hist-b lives %s", l)
		}
	}
}
