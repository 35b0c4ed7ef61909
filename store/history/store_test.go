package history

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/crmem/crmem/store/crabdb"
)

const writesDir = "../../testdata/reference/crabdb-writes"

// op is one line of crabdb-writes' ops.jsonl.
type op struct {
	Op        string   `json:"op"`
	Name      string   `json:"name"`
	Content   string   `json:"content"`
	Aliases   []string `json:"aliases"`
	Kind      string   `json:"kind"`
	CreatedAt string   `json:"created_at"`
	Now       string   `json:"now"`
	From      string   `json:"from"`
	To        string   `json:"to"`
}

// want is a version as the ops say it must read.
type want struct {
	action                   Action
	name, from               string
	kind, content, createdAt string
	aliases                  []string
}

// TestStoreHistory_OpsAreTheTruth: every op crabtalk's own code applied
// to crabdb-writes' store is a version of its entry, in order, with the
// content, aliases, kind and created_at the op gave it (created_at kept
// by an upsert, as crabtalk's remember keeps it); a rename is one version
// on the new name, the old name's versions before it; a remove of a
// missing name is no version.
func TestStoreHistory_OpsAreTheTruth(t *testing.T) {
	before, err := os.ReadFile(filepath.Join(writesDir, "before.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := crabdb.Read(before)
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]crabdb.Entry{}
	entries, _ := st.Entries()
	for _, e := range entries {
		live[e.Name] = e
	}
	f, err := os.Open(filepath.Join(writesDir, "ops.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []want
	linked := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var o op
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		if o.Aliases == nil {
			o.Aliases = []string{}
		}
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
			e := crabdb.Entry{Name: o.Name, Kind: "note", Content: o.Content, Aliases: o.Aliases, CreatedAt: created}
			live[o.Name] = e
			events = append(events, want{Write, o.Name, "", "note", o.Content, created, o.Aliases})
		case "put":
			live[o.Name] = crabdb.Entry{Name: o.Name, Kind: o.Kind, Content: o.Content, Aliases: o.Aliases, CreatedAt: o.CreatedAt}
			events = append(events, want{Write, o.Name, "", o.Kind, o.Content, o.CreatedAt, o.Aliases})
		case "rename":
			e := live[o.From]
			delete(live, o.From)
			e.Name = o.To
			live[o.To] = e
			al := e.Aliases
			if al == nil {
				al = []string{}
			}
			events = append(events, want{RenameIn, o.To, o.From, e.Kind, e.Content, e.CreatedAt, al})
			linked[o.To] = append(linked[o.To], o.From)
			linked[o.From] = append(linked[o.From], o.To)
		case "remove":
			if _, ok := live[o.Name]; ok {
				delete(live, o.Name)
				events = append(events, want{Delete, o.Name, "", "", "", "", nil})
			}
		}
	}
	after, err := os.ReadFile(filepath.Join(writesDir, "after.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	ix := FromStore(after, nil)
	checked := 0
	for _, e := range events {
		name := e.name
		comp := map[string]bool{name: true}
		for changed := true; changed; {
			changed = false
			for n := range comp {
				for _, m := range linked[n] {
					if !comp[m] {
						comp[m], changed = true, true
					}
				}
			}
		}
		var exp []want
		for _, ev := range events {
			if comp[ev.name] {
				exp = append(exp, ev)
			}
		}
		h := ix.History(name)
		var got []want
		for _, v := range h.Versions {
			if v.Log == nil {
				t.Fatalf("%s: version #%d has no log position", name, v.N)
			}
			if v.Log.Offset < int64(len(before)) {
				continue // from before.crmem's own log
			}
			got = append(got, want{v.Action, v.Name, v.From, v.Kind, v.Content, v.CreatedAt, v.Aliases})
		}
		if len(got) != len(exp) {
			t.Errorf("%q: %d versions after before.crmem, want %d:\n got %+v\nwant %+v", name, len(got), len(exp), got, exp)
			continue
		}
		for i := range got {
			g, w := got[i], exp[i]
			if g.action != w.action || g.name != w.name || g.from != w.from || g.kind != w.kind || g.content != w.content ||
				g.createdAt != w.createdAt || !slices.Equal(g.aliases, w.aliases) {
				t.Errorf("%q version %d:\n got %+v\nwant %+v", name, i, g, w)
			}
		}
		checked++
		exists := false
		for n := range comp {
			_, ok := live[n]
			exists = exists || ok
		}
		if h.Exists != exists {
			t.Errorf("%q: Exists %v, want %v", name, h.Exists, exists)
		}
		if _, ok := live[name]; ok && !h.Versions[len(h.Versions)-1].Current {
			t.Errorf("%q: its last version is not current", name)
		}
	}
	if checked < 18 {
		t.Errorf("checked %d names", checked)
	}
	// No session in this store wrote anything: every version says so.
	for _, n := range ix.Names() {
		for _, v := range ix.History(n).Versions {
			if v.Call != nil || v.Origin != FromLog {
				t.Errorf("%q #%d: origin %s, call %v; no session is in the store", n, v.N, v.Origin, v.Call)
			}
		}
	}
}
