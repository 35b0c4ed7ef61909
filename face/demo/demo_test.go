package demo

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

func TestEntries(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	es, err := Entries(now)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) < 12 {
		t.Fatalf("got %d entries, want at least 12", len(es))
	}
	kinds := map[store.Kind]int{}
	names := map[string]bool{}
	for i, e := range es {
		kinds[e.Kind]++
		if names[e.Name] {
			t.Errorf("duplicate name %q", e.Name)
		}
		names[e.Name] = true
		if e.ID != uint64(i+1) {
			t.Errorf("%s: id %d, want %d", e.Name, e.ID, i+1)
		}
		if i > 0 && e.CreatedAt < es[i-1].CreatedAt {
			t.Errorf("%s: ids not in creation order", e.Name)
		}
		if e.Content == "" && e.Name != "todo-later" { // the one empty note, for crmem lint to find
			t.Errorf("%s: empty content", e.Name)
		}
	}
	for _, k := range store.Kinds {
		if kinds[k] == 0 {
			t.Errorf("no %s in the demo", k)
		}
	}
	if span := es[len(es)-1].CreatedAt - es[0].CreatedAt; span < 21*24*3600 {
		t.Errorf("entries span %d s, want weeks so date groups show", span)
	}
}

func TestParseAge(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"2h", 2 * time.Hour},
		{"3d", 72 * time.Hour},
		{"1d4h", 28 * time.Hour},
	}
	for _, tt := range tests {
		got, err := parseAge(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("parseAge(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := parseAge("soon"); err == nil {
		t.Error("parseAge(soon) succeeded")
	}
}

func TestWrite(t *testing.T) {
	path, cleanup, err := Write(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := sessions.Read(filepath.Join(filepath.Dir(path), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	refs := sessions.Index(ss)
	names := map[string]bool{}
	for _, e := range f.Entries {
		names[e.Name] = true
	}
	for archive := range refs.ReferencedBy {
		if !names[archive] {
			t.Errorf("a demo session names missing archive %q", archive)
		}
	}
	if len(refs.ResumeOf) != 3 || len(refs.ReferencedBy) != 4 {
		t.Errorf("demo sessions: %d resume points, %d referenced archives; want 3 and 4", len(refs.ResumeOf), len(refs.ReferencedBy))
	}
	cleanup()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("cleanup left %s", path)
	}
}

// TestWrite_Recalls: the demo sessions hold the agent's recalls in
// crabtalk's step shapes, all readable but for the two planted problems,
// with event times relative to when the demo was written.
func TestWrite_Recalls(t *testing.T) {
	now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	path, cleanup, err := Write(now)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	results := map[string]int{}
	agents := map[string]bool{}
	p, err := sessions.WalkRecalls(filepath.Join(filepath.Dir(path), "sessions"), sessions.RecallOptions{}, func(s sessions.SessionRecalls) error {
		for _, r := range s.Recalls {
			results[r.Result]++
			agents[r.Agent] = true
			if r.TimeFrom != sessions.TimeEvent || r.Time.After(now) || r.Time.Before(now.AddDate(0, 0, -40)) {
				t.Errorf("%q: time %v from %s, want an event time within 40 days before %v", r.Query, r.Time, r.TimeFrom, now)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{sessions.ResultNames: 4, sessions.ResultNone: 2, sessions.ResultUnparsable: 1}
	if !reflect.DeepEqual(results, want) {
		t.Errorf("results %v, want %v", results, want)
	}
	if !agents["crab"] || !agents["ledger"] {
		t.Errorf("agents %v, want crab and ledger", agents)
	}
	if p.UnparsableSteps != 0 || p.BadArguments != 1 || p.UnparsableResults != 1 || p.UnknownAgents != 0 {
		t.Errorf("problems %+v, want only the planted bad arguments and unparsable result", p)
	}
}
