package stats_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/store/stats"
)

// sessionsOf is a sessions reader over recalls in hand: each list of
// names is one recall, all in one session.
type sessionsOf struct {
	names    [][]string
	problems sessions.RecallProblems
}

func (f sessionsOf) Read() ([]sessions.Session, error) { return nil, nil }

func (f sessionsOf) Recalls(_ sessions.RecallOptions, fn func(sessions.SessionRecalls) error) (sessions.RecallProblems, error) {
	s := sessions.SessionRecalls{Session: "s"}
	for _, n := range f.names {
		s.Recalls = append(s.Recalls, sessions.Recall{Query: "q", Names: n, Result: sessions.ResultNames})
	}
	if len(s.Recalls) > 0 {
		if err := fn(s); err != nil {
			return f.problems, err
		}
	}
	return f.problems, nil
}

// thenOf reads f as `crmem stats` reads the sessions.
func thenOf(t *testing.T, f sessionsOf) *recalls.Then {
	t.Helper()
	th, err := recalls.ReadThen(f, sessions.RecallOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// names lists the names of us.
func names(us []stats.Recalled) []string {
	out := []string{}
	for _, u := range us {
		out = append(out, u.Name)
	}
	return out
}

func TestCompute_Recalls(t *testing.T) {
	// e1..e8: ids, ages and sizes chosen so every order has a tie to break.
	entries := []store.Entry{
		entry(1, store.Note, at(2025, 1, 1, 0), "aaaa"),
		entry(2, store.Archive, at(2024, 6, 1, 0), "aaaaaaaa"),
		entry(3, store.Note, at(2025, 3, 1, 0), "aa"),
		entry(4, store.Note, 0, strings.Repeat("a", 100)),
		entry(5, store.Topic, at(2024, 1, 1, 0), "aaaaaaaa"),
		entry(6, store.Note, at(2024, 1, 1, 0), "a"),
		entry(7, store.Note, at(2026, 1, 1, 0), "aaa"),
		entry(8, store.Note, at(2026, 2, 1, 0), "aaaaaaaaa"),
	}
	tests := []struct {
		name                  string
		f                     sessionsOf
		top                   int
		zero                  bool
		recalled, never       int
		most, oldest, biggest []string
		mostThen              []int
		problems              sessions.RecallProblems
	}{
		{
			name: "no recall", f: sessionsOf{problems: sessions.RecallProblems{Sessions: 3}}, zero: true,
			never: 8, oldest: []string{"e5", "e6", "e2", "e1", "e3"}, biggest: []string{"e4", "e8", "e2", "e5", "e1"},
			most: []string{}, mostThen: []int{}, problems: sessions.RecallProblems{Sessions: 3},
		},
		{
			name: "no folder", f: sessionsOf{problems: sessions.RecallProblems{NoFolder: "/x"}}, zero: true,
			never: 8, oldest: []string{"e5", "e6", "e2", "e1", "e3"}, biggest: []string{"e4", "e8", "e2", "e5", "e1"},
			most: []string{}, mostThen: []int{}, problems: sessions.RecallProblems{NoFolder: "/x"},
		},
		{
			name: "most first, ties by id; gone names not counted",
			f: sessionsOf{names: [][]string{{"e3", "e1"}, {"e3", "gone"}, {"e7", "e1"}, {"e3"}, {}},
				problems: sessions.RecallProblems{Sessions: 1, UnparsableSteps: 2}},
			recalled: 3, never: 5,
			most: []string{"e3", "e1", "e7"}, mostThen: []int{3, 2, 1},
			oldest:   []string{"e5", "e6", "e2", "e8"}, // e4 has no date
			biggest:  []string{"e4", "e8", "e2", "e5", "e6"},
			problems: sessions.RecallProblems{Sessions: 1, UnparsableSteps: 2},
		},
		{
			name: "top 2 keeps two of each", top: 2,
			f:        sessionsOf{names: [][]string{{"e3", "e1", "e7"}, {"e3"}}},
			recalled: 3, never: 5,
			most: []string{"e3", "e1"}, mostThen: []int{2, 1},
			oldest: []string{"e5", "e6"}, biggest: []string{"e4", "e8"},
		},
		{
			name: "top none lists nothing but counts", top: -1,
			f:        sessionsOf{names: [][]string{{"e3"}}},
			recalled: 1, never: 7, most: []string{}, mostThen: []int{}, oldest: []string{}, biggest: []string{},
		},
	}
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stats.Compute(entries, stats.Options{Top: tt.top, Recalled: thenOf(t, tt.f), Now: now})
			r := s.Recalls
			if r == nil {
				t.Fatal("no recall section")
			}
			if r.IsZero() != tt.zero || r.Recalls != len(tt.f.names) || r.Sessions != tt.f.problems.Sessions {
				t.Errorf("zero %v, %d recalls in %d sessions; want %v, %d in %d", r.IsZero(), r.Recalls, r.Sessions, tt.zero, len(tt.f.names), tt.f.problems.Sessions)
			}
			if r.Recalled != tt.recalled || r.Never != tt.never || r.Problems != tt.problems || !r.At.Equal(now) {
				t.Errorf("recalled %d never %d problems %+v at %v; want %d %d %+v %v", r.Recalled, r.Never, r.Problems, r.At, tt.recalled, tt.never, tt.problems, now)
			}
			var then []int
			for _, u := range r.Most {
				then = append(then, u.Then)
			}
			if then == nil {
				then = []int{}
			}
			for _, c := range []struct {
				what      string
				got, want []string
			}{{"most", names(r.Most), tt.most}, {"never oldest", names(r.NeverOldest), tt.oldest}, {"never biggest", names(r.NeverBiggest), tt.biggest}} {
				if !slices.Equal(c.got, c.want) {
					t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
				}
			}
			if !slices.Equal(then, tt.mostThen) {
				t.Errorf("most counts %v, want %v", then, tt.mostThen)
			}
		})
	}
}

// TestCompute_RecallsJSON checks the section's JSON: left out without a
// history read or without a recall, its fields with one.
func TestCompute_RecallsJSON(t *testing.T) {
	entries := []store.Entry{entry(1, store.Note, at(2025, 1, 1, 0), "x"), entry(2, store.Note, at(2025, 2, 1, 0), "yy")}
	tests := []struct {
		name    string
		then    *recalls.Then
		present bool
	}{
		{"not read", nil, false},
		{"no folder", thenOf(t, sessionsOf{problems: sessions.RecallProblems{NoFolder: "/x"}}), false},
		{"no recall", thenOf(t, sessionsOf{problems: sessions.RecallProblems{Sessions: 2}}), false},
		{"history", thenOf(t, sessionsOf{names: [][]string{{"e1"}}, problems: sessions.RecallProblems{Sessions: 1}}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(stats.Compute(entries, stats.Options{Recalled: tt.then}))
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			raw, ok := doc["recalls"]
			if ok != tt.present {
				t.Fatalf("recalls present %v, want %v: %s", ok, tt.present, b)
			}
			if !ok {
				return
			}
			var r map[string]json.RawMessage
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range r {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			want := []string{"most", "never", "never_biggest", "never_oldest", "problems", "recalled", "recalls", "sessions"}
			if !slices.Equal(keys, want) {
				t.Errorf("recalls keys %q, want %q", keys, want)
			}
			if string(r["most"]) != `[{"id":1,"name":"e1","kind":"note","then":1,"created_at":1735689600,"bytes":1}]` {
				t.Errorf("most = %s", r["most"])
			}
		})
	}
}
