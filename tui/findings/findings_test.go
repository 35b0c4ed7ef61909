package findings

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/tui/part"
)

var keys = keymap.DefaultKeyMap()

// snap is a snapshot of no entries.
type snap struct{}

func (snap) Entries() []store.Entry         { return nil }
func (snap) Get(uint64) (store.Entry, bool) { return store.Entry{}, false }

// squeeze is s without its white space (a wrapped text compared whole).
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

func TestDifferingLines(t *testing.T) {
	tests := []struct {
		a, b string
		want string
	}{
		{"same\nold\nsame", "same\nnew\nsame", "[false true false] [false true false]"},
		{"one\ntwo", "one\ntwo\nthree", "[false false] [false false true]"},
		{"x", "x", "[false] [false]"},
		{strings.Repeat("l\n", 100000), "l", "[] []"}, // too long to compare: nothing marked
	}
	for _, tt := range tests {
		d := differingLines(tt.a, tt.b)
		if got := fmt.Sprint(d[0], " ", d[1]); got != tt.want {
			t.Errorf("differingLines(%.20q, %.20q) = %s, want %s", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestFindingsView_BoundedNoteWhole: what the report did not compare is
// said whole, wrapped to the pane, never cut at its width (seen with the
// raised near-duplicate threshold: "bounded: near-duplicates: searched at
// similarity 0.95, not 0.65: at 0.65 about 270 million pa…").
func TestFindingsView_BoundedNoteWhole(t *testing.T) {
	note := "near-duplicates: searched at similarity 0.95, not 0.65: at 0.65 about 270 million pairs (estimated by comparing 12 entries with all the others), the entries are too alike to list; --min-similarity 0.65 searches there anyway, within the work bounds"
	c := &part.Context{Styles: &part.Styles{}, Keys: &keys}
	empty := hygiene.Report{Entries: 3, Bounded: []string{note}}
	found := hygiene.Report{Entries: 3, Bounded: []string{note}, Findings: []hygiene.Finding{{Kind: hygiene.Outsize, Check: "empty",
		Entries: []hygiene.Ref{{ID: 1, Name: "todo"}}, Reason: `"todo" has no content`}}}
	for name, r := range map[string]hygiene.Report{"nothing found": empty, "a finding": found} {
		v := &View{open: true, shown: snap{}, report: r}
		got := squeeze(ansi.Strip(v.listView(c, false, 60, 30)))
		if !strings.Contains(got, squeeze("bounded: "+note)) || strings.Contains(got, "…") {
			t.Errorf("%s: the bounded note is not whole:\n%s", name, v.listView(c, false, 60, 30))
		}
	}
}

// TestFindingLines_MixedNamesMarked: a look-alike pair's names read apart
// in the findings as in the list, the mixed-script one marked (seen: the
// demo's "user-preferences, #5 user-prеferences" read alike but for the
// ids, and not at all where ids are not shown).
func TestFindingLines_MixedNamesMarked(t *testing.T) {
	fd := hygiene.Finding{Kind: hygiene.Name, Check: "confusable", Reason: "look alike",
		Entries: []hygiene.Ref{{ID: 1, Name: "user-preferences"}, {ID: 5, Name: "user-pr\u0435ferences"}}}
	for _, ids := range []bool{true, false} {
		head, _ := findingLines(nil, fd, ids)
		refs := strings.SplitN(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(head), "confusable")), ", ", 2)
		if len(refs) != 2 || !strings.HasSuffix(refs[1], part.MixedMark) || strings.HasSuffix(refs[0], part.MixedMark) {
			t.Errorf("ids %v: %q: want the Cyrillic name alone marked %q", ids, head, part.MixedMark)
		}
	}
}
