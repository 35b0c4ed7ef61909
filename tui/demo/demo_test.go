package demo

import (
	"testing"
	"time"

	"github.com/crmem/crmem/store"
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
		if e.Content == "" {
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
