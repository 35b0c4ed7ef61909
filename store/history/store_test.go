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

// entryModel is one entry as the ops made it: every version it had, under
// every name it had.
type entryModel struct{ events []want }

// lifeModel is one entry's time under a name: its versions up to cut (-1:
// still there), then the rename away, if it left by one.
type lifeModel struct {
	e    *entryModel
	cut  int
	away *want
}

// TestStoreHistory_OpsAreTheTruth: every op crabtalk's own code applied
// to crabdb-writes' store is a version of its entry, in order, with the
// content, aliases, kind and created_at the op gave it (created_at kept
// by an upsert, as crabtalk's remember keeps it); a rename is one version
// on the new name, the old name's versions before it, and on the old
// name a rename away that ends its life there (never what the new name
// did after); a remove of a missing name is no version. A name's history
// is its lives in order, each entry that held it.
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
	holder := map[string]*entryModel{} // name → the entry holding it now
	lives := map[string][]*lifeModel{}
	give := func(name string, e *entryModel) {
		holder[name] = e
		if ls := lives[name]; len(ls) > 0 && ls[len(ls)-1].e == e {
			ls[len(ls)-1].cut, ls[len(ls)-1].away = -1, nil // back under a name it had: one life
			return
		}
		lives[name] = append(lives[name], &lifeModel{e: e, cut: -1})
	}
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
		write := func(w want) {
			e := holder[o.Name]
			if e == nil {
				e = &entryModel{}
				give(o.Name, e)
			}
			e.events = append(e.events, w)
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
			write(want{Write, o.Name, "", "note", o.Content, created, o.Aliases})
		case "put":
			live[o.Name] = crabdb.Entry{Name: o.Name, Kind: o.Kind, Content: o.Content, Aliases: o.Aliases, CreatedAt: o.CreatedAt}
			write(want{Write, o.Name, "", o.Kind, o.Content, o.CreatedAt, o.Aliases})
		case "rename":
			e := live[o.From]
			delete(live, o.From)
			e.Name = o.To
			live[o.To] = e
			al := e.Aliases
			if al == nil {
				al = []string{}
			}
			m := holder[o.From]
			if m == nil { // an entry of before.crmem: its versions there are not checked
				m = &entryModel{}
				lives[o.From] = append(lives[o.From], &lifeModel{e: m, cut: -1})
			}
			l := lives[o.From][len(lives[o.From])-1]
			l.cut, l.away = len(m.events), &want{action: RenameOut, name: o.From}
			delete(holder, o.From)
			m.events = append(m.events, want{RenameIn, o.To, o.From, e.Kind, e.Content, e.CreatedAt, al})
			give(o.To, m)
		case "remove":
			if _, ok := live[o.Name]; ok {
				delete(live, o.Name)
				m := holder[o.Name]
				if m == nil {
					m = &entryModel{}
					lives[o.Name] = append(lives[o.Name], &lifeModel{e: m, cut: -1})
				}
				m.events = append(m.events, want{Delete, o.Name, "", "", "", "", nil})
				lives[o.Name][len(lives[o.Name])-1].cut = len(m.events)
				delete(holder, o.Name)
			}
		}
	}
	after, err := os.ReadFile(filepath.Join(writesDir, "after.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	ix := ReadLog(storeLog, after, nil)
	checked := 0
	for name, ls := range lives {
		var exp []want
		var expLife []int
		for k, l := range ls {
			evs := l.e.events
			if l.cut >= 0 {
				evs = evs[:l.cut]
			}
			if l.away != nil {
				evs = append(slices.Clip(evs), *l.away)
			}
			for _, ev := range evs {
				exp = append(exp, ev)
				expLife = append(expLife, k)
			}
		}
		h := ix.History(name)
		var got []want
		var gotLife []int
		for _, v := range h.Versions {
			if v.Log == nil {
				t.Fatalf("%s: version #%d has no log position", name, v.N)
			}
			if v.Log.Offset < int64(len(before)) {
				continue // from before.crmem's own log
			}
			got = append(got, want{v.Action, v.Name, v.From, v.Kind, v.Content, v.CreatedAt, v.Aliases})
			gotLife = append(gotLife, v.Life)
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
			if i > 0 && (gotLife[i] == gotLife[i-1]) != (expLife[i] == expLife[i-1]) {
				t.Errorf("%q versions %d and %d: lives %d and %d, want them in one life: %v", name, i-1, i, gotLife[i-1], gotLife[i], expLife[i] == expLife[i-1])
			}
		}
		checked++
		_, exists := live[name]
		if h.Exists != exists {
			t.Errorf("%q: Exists %v, want %v", name, h.Exists, exists)
		}
		if exists && !h.Versions[len(h.Versions)-1].Current {
			t.Errorf("%q: its last version is not current", name)
		}
		if n := len(h.Lives); n == 0 || h.Lives[n-1].N != h.Versions[len(h.Versions)-1].Life {
			t.Errorf("%q: lives %+v", name, h.Lives)
		}
	}
	if checked < len(lives) || checked < 15 {
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
