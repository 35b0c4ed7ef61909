package tui

import (
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

func TestNameIndexFind(t *testing.T) {
	es := []store.Entry{
		{ID: 1, Name: "apis"},
		{ID: 2, Name: "x", Aliases: []string{"y", "API", "z"}},
		{ID: 3, Name: "rapid"},
		{ID: 4, Name: "Api"},
		{ID: 5, Name: "b", Aliases: []string{"api-b"}},
	}
	n := buildNameIndex(es, []int{4, 3, 2, 1, 0}) // newest first
	tests := []struct {
		q     string
		limit int
		want  []int
		exact int
	}{
		{"api", 10, []int{3, 1, 4, 2, 0}, 2},
		{"api", 3, []int{3, 1, 4}, 2},
		{"api", 1, []int{3, 1}, 2}, // whole names are never cut
		{"y", 10, []int{1}, 1},
		{"pid", 10, []int{2}, 0},
		{"s\x01", 10, nil, 0},
	}
	for _, tt := range tests {
		got, exact := n.find(tt.q, tt.limit)
		if !slices.Equal(got, tt.want) || exact != tt.exact {
			t.Errorf("find(%q, %d) = %v, %d; want %v, %d", tt.q, tt.limit, got, exact, tt.want, tt.exact)
		}
	}
}
