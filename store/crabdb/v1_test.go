package crabdb

import (
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestEntryV1 pins the one conversion from a store entry to a v1 entry: a
// created_at that cannot be read is 0 (unknown), never a made-up time such
// as now; an unknown kind is a note; both say so.
func TestEntryV1(t *testing.T) {
	for _, tc := range []struct {
		name        string
		in          Entry
		wantCreated uint64
		wantKind    store.Kind
		wantNotices int
	}{
		{"good", Entry{Name: "a", Kind: "archive", CreatedAt: "2026-01-01T11:00:00+00:00"}, 1767265200, store.Archive, 0},
		{"sub-second", Entry{Name: "a", Kind: "topic", CreatedAt: "2026-08-20T10:11:12.9+02:00"}, 1787213472, store.Topic, 0},
		{"missing", Entry{Name: "a", Kind: "note"}, 0, store.Note, 1},
		{"garbage", Entry{Name: "a", Kind: "note", CreatedAt: "yesterday"}, 0, store.Note, 1},
		{"before 1970", Entry{Name: "a", Kind: "note", CreatedAt: "1960-01-01T00:00:00Z"}, 0, store.Note, 1},
		{"epoch", Entry{Name: "a", Kind: "note", CreatedAt: "1970-01-01T00:00:00Z"}, 0, store.Note, 0},
		{"plural kind", Entry{Name: "a", Kind: "notes", CreatedAt: "1970-01-01T00:00:01Z"}, 1, store.Note, 1},
		{"unknown kind and time", Entry{Name: "a", Kind: "fact", CreatedAt: "x"}, 0, store.Note, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, notices := tc.in.V1(7)
			if got.ID != 7 || got.Name != "a" || got.CreatedAt != tc.wantCreated || got.Kind != tc.wantKind {
				t.Errorf("V1 = %+v, want id 7, created %d, kind %v", got, tc.wantCreated, tc.wantKind)
			}
			if got.Aliases == nil {
				t.Error("aliases are nil, want empty (JSON prints [])")
			}
			if len(notices) != tc.wantNotices {
				t.Errorf("notices = %q, want %d", notices, tc.wantNotices)
			}
		})
	}
}

// TestEntryV1KeepsAliases: aliases and content come through as stored.
func TestEntryV1KeepsAliases(t *testing.T) {
	got, _ := Entry{Name: "n", Kind: "note", Aliases: []string{"x", "y"}, Content: "body"}.V1(1)
	if !slices.Equal(got.Aliases, []string{"x", "y"}) || got.Content != "body" {
		t.Errorf("V1 = %+v", got)
	}
}
