package recalls

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// fakeSessions is a sessions reader over recalls in hand, with the
// problems it reports and an error it ends with.
type fakeSessions struct {
	sessions []sessions.SessionRecalls
	problems sessions.RecallProblems
	err      error
}

func (f fakeSessions) Read() ([]sessions.Session, error) { return nil, nil }

func (f fakeSessions) Recalls(_ sessions.RecallOptions, fn func(sessions.SessionRecalls) error) (sessions.RecallProblems, error) {
	for _, s := range f.sessions {
		if err := fn(s); err != nil {
			return f.problems, err
		}
	}
	return f.problems, f.err
}

// TestReadThen counts per name how many recalls returned it then and the
// latest time, keeps the reader's problems and wraps its error.
func TestReadThen(t *testing.T) {
	t1, t2 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	rc := func(tm time.Time, names ...string) sessions.Recall {
		return sessions.Recall{Time: tm, Query: "q", Names: names, Result: sessions.ResultNames}
	}
	boom := errors.New("boom")
	tests := []struct {
		name      string
		r         fakeSessions
		recalls   int
		counts    map[string]int
		last      map[string]time.Time
		sessions  int
		wantError bool
	}{
		{name: "nothing", r: fakeSessions{}, counts: map[string]int{"a": 0}},
		{name: "no folder", r: fakeSessions{problems: sessions.RecallProblems{NoFolder: "/x"}}, counts: map[string]int{"a": 0}},
		{
			name: "two sessions",
			r: fakeSessions{sessions: []sessions.SessionRecalls{
				{Session: "s1", Recalls: []sessions.Recall{rc(t2, "a", "b"), rc(time.Time{}, "a")}},
				{Session: "s2", Recalls: []sessions.Recall{rc(t1, "a"), {Query: "q", Result: sessions.ResultUnparsable}}},
			}, problems: sessions.RecallProblems{Sessions: 2, UnparsableResults: 1}},
			recalls: 4, counts: map[string]int{"a": 3, "b": 1, "c": 0},
			last:     map[string]time.Time{"a": t2, "b": t2},
			sessions: 2,
		},
		{
			name: "error after one session",
			r: fakeSessions{sessions: []sessions.SessionRecalls{{Session: "s1", Recalls: []sessions.Recall{rc(t1, "a")}}},
				problems: sessions.RecallProblems{Sessions: 1}, err: boom},
			recalls: 1, counts: map[string]int{"a": 1}, last: map[string]time.Time{"a": t1}, sessions: 1, wantError: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, err := ReadThen(tt.r, sessions.RecallOptions{}, nil)
			if (err != nil) != tt.wantError || tt.wantError && !errors.Is(err, boom) {
				t.Fatalf("error %v, want error %v", err, tt.wantError)
			}
			if th.Recalls != tt.recalls || th.Problems != tt.r.problems || th.Problems.Sessions != tt.sessions {
				t.Errorf("recalls %d problems %+v, want %d %+v", th.Recalls, th.Problems, tt.recalls, tt.r.problems)
			}
			for name, want := range tt.counts {
				n, last := th.Count(name)
				if n != want || !last.Equal(tt.last[name]) {
					t.Errorf("Count(%q) = %d, %v; want %d, %v", name, n, last, want, tt.last[name])
				}
			}
		})
	}
	var none *Then
	if n, last := none.Count("a"); n != 0 || !last.IsZero() {
		t.Errorf("a nil Then counts %d, %v", n, last)
	}
}

// TestTallySharesThen checks the report's then counts are the Then's:
// one count for both.
func TestTallySharesThen(t *testing.T) {
	var tl Tally
	tl.Add(Item{Recall: sessions.Recall{Query: "q", Names: []string{"a", "b"}}, Now: []string{"a"}})
	tl.Add(Item{Recall: sessions.Recall{Query: "r", Names: []string{"a"}}})
	if n, _ := tl.then.Count("a"); n != 2 || tl.then.Recalls != 2 {
		t.Errorf("then a = %d of %d recalls, want 2 of 2", n, tl.then.Recalls)
	}
}

// TestMemoryNames reads names as NameSet over the same entries does: an
// exact name's content (the later entry's when two share it, a shadow's
// when only a shadow has it), never an alias, nothing for a name longer
// than every entry's, on a file whose ids ascend (the maps built lazily)
// and on one with a shadowed id.
func TestMemoryNames(t *testing.T) {
	e := func(id uint64, name, content string, aliases ...string) store.Entry {
		return store.Entry{ID: id, Name: name, Content: content, Aliases: aliases}
	}
	for _, tc := range []struct {
		name    string
		entries []store.Entry
	}{
		{"ascending", []store.Entry{e(1, "deploy", "one", "ship"), e(2, "deploy\nnotes", "two"), e(3, "deploy", "three"), e(4, "canary", "four")}},
		{"shadowed id", []store.Entry{e(1, "deploy", "one"), e(2, "old", "shadowed", "gone"), e(2, "deploy", "two"), e(3, "canary", "three", "old-alias")}},
		{"empty", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := store.NewMemoryWith(&store.File{Entries: slices.Clone(tc.entries)}, store.IndexOnDemand)
			want, got := NameSet(mem.Entries()), MemoryNames(mem)
			for _, probe := range []string{"deploy", "deploy\nnotes", "canary", "old", "ship", "gone", "old-alias", "missing", "", "deploy\nnotes\nand more"} {
				wc, wok := want(probe)
				gc, gok := got(probe)
				if gc != wc || gok != wok {
					t.Errorf("%q: (%q, %v), NameSet (%q, %v)", probe, gc, gok, wc, wok)
				}
			}
		})
	}
}
