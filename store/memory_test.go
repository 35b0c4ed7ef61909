package store_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

var now = time.Unix(1767300000, 0)

// newMemory builds a memory without an index, so these tests do not depend
// on package bm25.
func newMemory(t testing.TB, entries ...store.Entry) *store.Memory {
	t.Helper()
	f, err := store.Decode(store.Encode(1, entries))
	if err != nil {
		t.Fatal(err)
	}
	return store.NewMemoryWith(f, store.IndexOnDemand)
}

func mustApply(t testing.TB, m *store.Memory, ops ...store.Op) []store.Change {
	t.Helper()
	changes, err := m.Apply(now, ops...)
	if err != nil {
		t.Fatalf("apply %v: %v", ops, err)
	}
	return changes
}

func names(m *store.Memory) []string {
	var out []string
	for _, e := range m.Entries() {
		out = append(out, fmt.Sprintf("%d:%s", e.ID, e.Name))
	}
	return out
}

func TestLookup(t *testing.T) {
	m := newMemory(t,
		note(1, "alpha", "a", "shared", "one"),
		note(2, "beta", "b", "shared", "alpha-alias"),
		note(3, "shared", "c"),
		note(4, "Gamma", "d", "beta"),
	)
	tests := []struct {
		name string
		want uint64 // 0: not found
	}{
		{"alpha", 1},
		{"one", 1},
		{"alpha-alias", 2},
		{"shared", 3}, // a name wins over aliases
		{"beta", 2},   // likewise
		{"Gamma", 4},
		{"gamma", 0}, // case-sensitive
		{"", 0},
	}
	for _, tt := range tests {
		e, ok := m.Lookup(tt.name)
		if tt.want == 0 {
			if ok {
				t.Errorf("Lookup(%q) = %d, want none", tt.name, e.ID)
			}
			continue
		}
		if !ok || e.ID != tt.want {
			t.Errorf("Lookup(%q) = %d %v, want %d", tt.name, e.ID, ok, tt.want)
		}
	}
	// The lowest-id alias holder wins, and the next one takes over.
	mustApply(t, m, store.Remove{Name: "shared"})
	if e, _ := m.Lookup("shared"); e.ID != 1 {
		t.Errorf("alias shared -> %d, want 1", e.ID)
	}
	mustApply(t, m, store.Remove{Name: "alpha"})
	if e, _ := m.Lookup("shared"); e.ID != 2 {
		t.Errorf("alias shared -> %d, want 2", e.ID)
	}
}

func TestLookup_DuplicateNamesFixture(t *testing.T) {
	f := decodeFixture(t, "bad/ok-duplicate-names.db")
	m := store.NewMemoryWith(f, store.IndexOnDemand)
	if m.Len() != 2 {
		t.Fatalf("%d entries, want both", m.Len())
	}
	e, ok := m.Lookup(m.Entries()[0].Name)
	if !ok || e.ID != 2 {
		t.Errorf("lookup found id %d, want the later one (2)", e.ID)
	}
}

func TestAdd_StaleNextID(t *testing.T) {
	m := store.NewMemoryWith(decodeFixture(t, "bad/ok-stale-next-id.db"), store.IndexOnDemand)
	c := mustApply(t, m, store.Add{Name: "new", Content: "x"})
	if id := c[0].After.ID; id != 10 {
		t.Errorf("new id %d, want 10", id)
	}
}

func TestApply_Errors(t *testing.T) {
	base := []store.Entry{note(1, "a", "one", "x"), note(2, "b", "two")}
	expectA := base[0]
	stale := base[0]
	stale.Content = "older"
	tests := []struct {
		name string
		op   store.Op
		want error
		text string
	}{
		{"add duplicate", store.Add{Name: "a"}, store.ErrNameTaken, `name already taken: "a"`},
		{"add invalid", store.Add{Name: "a/b"}, store.ErrInvalidName, `invalid name "a/b": contains '/'`},
		{"add bad utf8", store.Add{Name: "c", Content: "\xff"}, store.ErrInvalidEntry, ""},
		{"add bad kind", store.Add{Name: "c", Kind: 7}, store.ErrInvalidEntry, ""},
		{"update missing", store.Update{Name: "zz"}, store.ErrNotFound, `no such entry "zz"`},
		{"write missing", store.Write{Name: "zz"}, store.ErrNotFound, ""},
		{"alias missing", store.SetAliases{Name: "zz"}, store.ErrNotFound, ""},
		{"rename missing", store.Rename{Name: "zz", New: "q"}, store.ErrNotFound, ""},
		{"rename taken", store.Rename{Name: "a", New: "b"}, store.ErrNameTaken, ""},
		{"rename invalid", store.Rename{Name: "a", New: ".hidden"}, store.ErrInvalidName, ""},
		{"remove missing", store.Remove{Name: "zz"}, store.ErrNotFound, `no such entry "zz"`},
		{"remove stale", store.Remove{Name: "a", Expect: &stale}, store.ErrConflict, ""},
		{"update stale", store.Update{Name: "a", Expect: &stale}, store.ErrConflict, ""},
		{"update other id", store.Update{Name: "a", Expect: &store.Entry{ID: 9, Name: "a",
			Content: "one", Aliases: []string{"x"}}}, store.ErrConflict, ""},
		{"restore id taken", store.Restore{Entry: note(1, "c", "")}, store.ErrIDTaken, ""},
		{"restore name taken", store.Restore{Entry: note(5, "b", "")}, store.ErrNameTaken, ""},
		{"replace dup id", store.Replace{Entries: []store.Entry{note(1, "p", ""), note(1, "q", "")}}, store.ErrIDTaken, ""},
		{"nil op", nil, store.ErrInvalidEntry, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMemory(t, base...)
			before := m.Entries()
			// The failing op comes after a good one: all or nothing.
			_, err := m.Apply(now, store.Write{Name: "b", Content: "changed"}, tt.op)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if tt.text != "" && err.Error() != tt.text {
				t.Errorf("error text %q, want %q", err, tt.text)
			}
			sameEntries(t, m.Entries(), before)
			if m.NextID() != 3 {
				t.Errorf("next id %d, want 3", m.NextID())
			}
		})
	}
	m := newMemory(t, base...)
	if _, err := m.Apply(now, store.Remove{Name: "a", Expect: &expectA}); err != nil {
		t.Errorf("remove with matching Expect: %v", err)
	}
}

func TestApply_Ops(t *testing.T) {
	m := newMemory(t, note(1, "a", "one", "x"), note(2, "b", "two"))
	mustApply(t, m, store.Add{Name: "c", Content: "three", Aliases: []string{"y"}, Kind: store.Topic})
	c, _ := m.Lookup("c")
	want := store.Entry{ID: 3, Name: "c", Kind: store.Topic, CreatedAt: uint64(now.Unix()),
		Aliases: []string{"y"}, Content: "three"}
	sameEntries(t, []store.Entry{c}, []store.Entry{want})

	mustApply(t, m, store.Update{Name: "x", Content: "uno", Aliases: []string{"z", "w"}})
	mustApply(t, m, store.SetAliases{Name: "b", Aliases: []string{"bb"}})
	mustApply(t, m, store.SetAliases{Name: "b", Aliases: []string{"cc"}}) // set, not append
	mustApply(t, m, store.Write{Name: "cc", Content: "dos"})
	mustApply(t, m, store.Rename{Name: "c", New: "see"})
	got := m.Entries()
	wantAll := []store.Entry{
		{ID: 1, Name: "a", CreatedAt: 1767265201, Content: "uno", Aliases: []string{"z", "w"}},
		{ID: 2, Name: "b", CreatedAt: 1767265202, Content: "dos", Aliases: []string{"cc"}},
		{ID: 3, Name: "see", Kind: store.Topic, CreatedAt: uint64(now.Unix()), Content: "three", Aliases: []string{"y"}},
	}
	sameEntries(t, got, wantAll)
	if _, ok := m.Lookup("x"); ok {
		t.Error("old alias x still resolves")
	}
	if _, ok := m.Lookup("c"); ok {
		t.Error("old name c still resolves")
	}
}

func TestApply_IDsNeverReused(t *testing.T) {
	m := newMemory(t, note(1, "a", ""), note(2, "b", ""))
	mustApply(t, m, store.Remove{Name: "b"})
	c := mustApply(t, m, store.Add{Name: "b", Content: "again"})
	if c[0].After.ID != 3 {
		t.Errorf("re-added id %d, want 3", c[0].After.ID)
	}
}

func TestApply_Replace(t *testing.T) {
	m := newMemory(t, note(1, "a", "one"), note(2, "b", "two"), note(5, "e", "five"))
	in := []store.Entry{note(1, "a", "one"), note(2, "bee", "two"), note(3, "c", "three")}
	changes := mustApply(t, m, store.Replace{Entries: in})
	sameEntries(t, m.Entries(), in)
	if m.NextID() != 6 { // never down: id 5 was handed out
		t.Errorf("next id %d, want 6", m.NextID())
	}
	var ids []uint64
	for _, c := range changes {
		ids = append(ids, c.ID())
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []uint64{2, 3, 5}) {
		t.Errorf("changed ids %v, want [2 3 5]", ids)
	}
}

// TestUndo applies each op, then its inverse, and expects the memory back
// exactly as it was: ids, timestamps, names, aliases.
func TestUndo(t *testing.T) {
	base := []store.Entry{note(1, "a", "one", "x"), note(2, "odd name.", "two"),
		{ID: 7, Name: "arch", Kind: store.Archive, CreatedAt: 5, Content: "sum", Aliases: []string{}}}
	tests := []struct {
		name string
		ops  []store.Op
	}{
		{"add", []store.Op{store.Add{Name: "n", Content: "new"}}},
		{"remove", []store.Op{store.Remove{Name: "arch"}}},
		{"update", []store.Op{store.Update{Name: "a", Content: "new", Aliases: []string{"y"}}}},
		{"write", []store.Op{store.Write{Name: "x", Content: "new"}}},
		{"alias", []store.Op{store.SetAliases{Name: "a"}}},
		{"rename odd name", []store.Op{store.Rename{Name: "odd name.", New: "fine"}}},
		{"rename and edit", []store.Op{store.Rename{Name: "a", New: "b"}, store.Write{Name: "b", Content: "z"}}},
		{"remove all", []store.Op{store.Remove{Name: "a"}, store.Remove{Name: "arch"}, store.Remove{Name: "odd name."}}},
		{"swap names", []store.Op{store.Rename{Name: "a", New: "tmp"}, store.Rename{Name: "arch", New: "a"},
			store.Rename{Name: "tmp", New: "arch"}}},
		{"replace", []store.Op{store.Replace{Entries: []store.Entry{note(1, "arch", "other")}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMemory(t, base...)
			before := m.Entries()
			changes := mustApply(t, m, tt.ops...)
			if len(changes) == 0 {
				t.Fatal("no changes")
			}
			mustApply(t, m, store.Undo(changes)...)
			sameEntries(t, m.Entries(), before)
		})
	}
}

func TestUndo_ConflictsWhenChangedSince(t *testing.T) {
	m := newMemory(t, note(1, "a", "one"))
	changes := mustApply(t, m, store.Add{Name: "n", Content: "mine"})
	mustApply(t, m, store.Write{Name: "n", Content: "theirs"})
	if _, err := m.Apply(now, store.Undo(changes)...); !errors.Is(err, store.ErrConflict) {
		t.Errorf("undo after a foreign edit: %v, want ErrConflict", err)
	}
}

func TestApply_CoalescesChanges(t *testing.T) {
	m := newMemory(t, note(1, "a", "one"))
	changes := mustApply(t, m, store.Write{Name: "a", Content: "two"}, store.Write{Name: "a", Content: "three"},
		store.Add{Name: "tmp"}, store.Remove{Name: "tmp"})
	if len(changes) != 1 || changes[0].Before.Content != "one" || changes[0].After.Content != "three" {
		t.Errorf("changes %+v, want one change one -> three", changes)
	}
	if c := mustApply(t, m, store.Write{Name: "a", Content: "three"}); len(c) != 0 {
		t.Errorf("no-op write reported %d changes", len(c))
	}
}

func TestMemory_ReturnsCopies(t *testing.T) {
	m := newMemory(t, note(1, "a", "one", "x"))
	e, _ := m.Get(1)
	e.Aliases[0] = "mutated"
	all := m.Entries()
	all[0].Aliases[0] = "mutated"
	l, _ := m.Lookup("a")
	l.Aliases[0] = "mutated"
	if got, _ := m.Get(1); got.Aliases[0] != "x" {
		t.Errorf("alias changed to %q through a returned copy", got.Aliases[0])
	}
}

func TestSync(t *testing.T) {
	m := newMemory(t, note(1, "a", "one", "x"), note(2, "b", "two"), note(3, "c", "three"))
	next := []store.Entry{note(1, "a", "one", "x"), note(3, "c", "THREE"), note(4, "d", "four", "b")}
	f, err := store.Decode(store.Encode(10, next))
	if err != nil {
		t.Fatal(err)
	}
	d := m.Sync(f)
	if !slices.Equal(d.Added, []uint64{4}) || !slices.Equal(d.Removed, []uint64{2}) ||
		!slices.Equal(d.Changed, []uint64{3}) {
		t.Errorf("diff %+v", d)
	}
	sameEntries(t, m.Entries(), next)
	if e, _ := m.Lookup("b"); e.ID != 4 {
		t.Errorf("b resolves to %d, want 4 (alias)", e.ID)
	}
	if m.NextID() != 10 {
		t.Errorf("next id %d, want 10", m.NextID())
	}
	if d := m.Sync(f); !d.Empty() {
		t.Errorf("second sync diff %+v, want empty", d)
	}
}

func TestValidName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"deploy-steps", true},
		{"café notes", true},
		{"a.b", true},
		{"", false},
		{".", false},
		{"..", false},
		{".hidden", false},
		{"trailing.", false},
		{"trailing ", false},
		{"a/b", false},
		{`a\b`, false},
		{"a\x00b", false},
		{"a..b", false},
		{"tab\there", false},
		{"esc\x1b[31m", false},
		{"c1\u0085", false},
		{"\xff", false},
		{"del\x7f", false},
		{"ok\u202eexe.txt", false}, // right-to-left override
		{"nor\u200bmal", false},    // zero-width space
		{"zw\u200djoin", false},    // zero-width joiner
		{"bom\ufeff", false},       // zero-width no-break space
		{"tag\U000E0041", false},   // tag character (Cf, above U+FFFF)
		{"line\u2028sep", false},   // line separator
		{"newline\nname", false},
		{strings.Repeat("n", 252), true}, // NAME.md is 255 bytes
		{strings.Repeat("n", 253), false},
		{strings.Repeat("é", 126), true},  // 252 bytes
		{strings.Repeat("é", 127), false}, // 254 bytes
		{"日本語のメモ", true},
		{"emoji 🦀", true},
	}
	for _, tt := range tests {
		err := store.ValidName(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("ValidName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
		if err != nil && !errors.Is(err, store.ErrInvalidName) {
			t.Errorf("ValidName(%q) = %v, not ErrInvalidName", tt.name, err)
		}
	}
}

// TestNewMemory_RepeatedNames opens files whose ids ascend (one map
// assignment per name until a name repeats) and whose ids do not (add per
// entry): a repeated name resolves to its latest entry, and to the one
// before once that is removed, wherever the repeat first shows.
func TestNewMemory_RepeatedNames(t *testing.T) {
	tests := []struct {
		name    string
		entries []store.Entry
		want    map[string]uint64 // name -> id found
		remove  []string          // removed in turn (each time the latest entry)
		after   uint64            // id then found for the last removed name (0: none)
	}{
		{"unique", []store.Entry{note(1, "a", "x"), note(2, "b", "y"), note(5, "c", "z")},
			map[string]uint64{"a": 1, "b": 2, "c": 5}, []string{"b"}, 0},
		{"repeat late", []store.Entry{note(1, "a", "x"), note(2, "b", "y"), note(3, "c", "z"),
			note(4, "b", "w"), note(5, "d", "v"), note(6, "a", "u")},
			map[string]uint64{"a": 6, "b": 4, "c": 3, "d": 5}, []string{"b"}, 2},
		{"repeat late, later name", []store.Entry{note(1, "a", "x"), note(2, "b", "y"), note(3, "c", "z"),
			note(4, "b", "w"), note(5, "d", "v"), note(6, "a", "u")},
			map[string]uint64{"a": 6}, []string{"a"}, 1},
		{"repeat first", []store.Entry{note(1, "a", "x"), note(2, "a", "y"), note(3, "a", "z"), note(4, "b", "w")},
			map[string]uint64{"a": 3, "b": 4}, []string{"a", "a"}, 1},
		{"ids not ascending", []store.Entry{note(4, "a", "x"), note(2, "b", "y"), note(3, "a", "z")},
			map[string]uint64{"a": 3, "b": 2}, []string{"a"}, 4},
	}
	for _, tt := range tests {
		for _, mode := range []store.IndexMode{store.IndexNow, store.IndexOnDemand} {
			m := store.NewMemoryWith(&store.File{NextID: 10, Entries: slices.Clone(tt.entries)}, mode)
			for name, id := range tt.want {
				if e, ok := m.Lookup(name); !ok || e.ID != id {
					t.Errorf("%s: Lookup(%q) = %d, %v; want %d", tt.name, name, e.ID, ok, id)
				}
			}
			for _, name := range tt.remove {
				mustApply(t, m, store.Remove{Name: name})
			}
			last := tt.remove[len(tt.remove)-1]
			e, ok := m.Lookup(last)
			if tt.after == 0 && ok || tt.after != 0 && (!ok || e.ID != tt.after) {
				t.Errorf("%s: after removing, Lookup(%q) = %d, %v; want %d", tt.name, last, e.ID, ok, tt.after)
			}
			if m.Len() != len(tt.entries)-len(tt.remove) {
				t.Errorf("%s: %d entries after removals, want %d", tt.name, m.Len(), len(tt.entries)-len(tt.remove))
			}
		}
	}
}
