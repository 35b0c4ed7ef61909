package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/stats"
)

// TestStats_BothFormats checks that stats counts what ls lists, on a v1
// file and on crabtalk's store (one Source for both).
func TestStats_BothFormats(t *testing.T) {
	for _, db := range []string{copyFixture(t, "crmem/small.db"), copyStore(t, "small.crmem", config.StoreFileName)} {
		t.Run(filepath.Base(db), func(t *testing.T) {
			var listed []struct { // the fields both formats' ls --json share
				Kind, Content string
				Aliases       []string
			}
			mustJSON(t, mustRun(t, "", "ls", "--json", "--db", db), &listed)
			var got stats.Stats
			mustJSON(t, mustRun(t, "", "stats", "--json", "--db", db), &got)
			want := map[store.Kind]stats.Sizes{}
			var total stats.Sizes
			for _, e := range listed {
				k, err := store.ParseKind(e.Kind)
				if err != nil {
					t.Fatal(err)
				}
				s := want[k]
				s.Entries++
				s.Bytes += len(e.Content)
				s.Tokens += documentTokens(e.Content, e.Aliases)
				want[k] = s
				total.Entries++
				total.Bytes += len(e.Content)
				total.Tokens += documentTokens(e.Content, e.Aliases)
			}
			if len(listed) == 0 || got.Total != total {
				t.Errorf("total = %+v, want %+v (%d entries listed)", got.Total, total, len(listed))
			}
			for _, k := range got.Kinds {
				if k.Sizes != want[k.Kind] {
					t.Errorf("%s = %+v, want %+v", k.Kind, k.Sizes, want[k.Kind])
				}
			}
			added := got.Undated.Total()
			for _, m := range got.Months {
				added += m.Added.Total()
			}
			if added != len(listed) {
				t.Errorf("months and undated count %d entries, want %d", added, len(listed))
			}
		})
	}
}

// TestStats_Text checks the human form: every line fits the width stats
// draws at when not on a terminal, with the chart and the biggest entries.
func TestStats_Text(t *testing.T) {
	db := copyFixture(t, "crmem/medium.db")
	out := mustRun(t, "", "stats", "--top", "3", "--db", db)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > defaultStatsWidth {
			t.Errorf("line %d cells wide, more than %d: %q", w, defaultStatsWidth, l)
		}
	}
	for _, want := range []string{"kind", "added per month", "largest entries (bytes)", "most tokens"} {
		if !containsLine(out, want) && !strings.Contains(out, "\n"+want) {
			t.Errorf("no %q section in\n%s", want, out)
		}
	}
	if !strings.Contains(out, "█") {
		t.Errorf("no bar in\n%s", out)
	}
}

// TestStats_Top checks --top's bounds.
func TestStats_Top(t *testing.T) {
	db := copyFixture(t, "crmem/medium.db")
	tests := []struct {
		args []string
		n    int
		code int
	}{
		{[]string{"--top", "0"}, 0, 0},
		{[]string{"--top", "2"}, 2, 0},
		{nil, stats.DefaultTop, 0},
		{[]string{"--top", "-1"}, 0, 2},
	}
	for _, tt := range tests {
		r := crmem(t, "", append([]string{"stats", "--json", "--db", db}, tt.args...)...)
		if r.code != tt.code {
			t.Fatalf("stats %q: exit %d (%s), want %d", tt.args, r.code, r.stderr, tt.code)
		}
		if r.code != 0 {
			continue
		}
		var s stats.Stats
		mustJSON(t, r.stdout, &s)
		if len(s.Largest) != tt.n || len(s.MostTokens) != tt.n {
			t.Errorf("stats %q: %d largest, %d most tokens, want %d", tt.args, len(s.Largest), len(s.MostTokens), tt.n)
		}
	}
}

// TestStats_StoreEntriesHaveNoID: crabtalk's store's entries have no id,
// so the biggest entries leave it out, as ls --json does.
func TestStats_StoreEntriesHaveNoID(t *testing.T) {
	out := mustRun(t, "", "stats", "--json", "--db", copyStore(t, "small.crmem", config.StoreFileName))
	if strings.Contains(out, `"id":`) {
		t.Errorf("store entries show an id: %s", out)
	}
	if out := mustRun(t, "", "stats", "--json", "--db", copyFixture(t, "crmem/small.db")); !strings.Contains(out, `"id":`) {
		t.Errorf("v1 entries show no id: %s", out)
	}
}

// TestStats_V1IDsAreShownWhateverTheirValue: whether an entry's id is
// shown is the format's (Features.ShowsIDs), not a range of ids: a v1
// entry whose id lies where crmem's internal ids for crabtalk's store
// start (2^62) keeps it in stats --json, as ls shows it.
func TestStats_V1IDsAreShownWhateverTheirValue(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	const high = uint64(1)<<62 + 5
	es := []store.Entry{{ID: high, Name: "high", Kind: store.Note, Content: "a high id"}}
	if err := os.WriteFile(db, store.Encode(high+1, es), 0o600); err != nil {
		t.Fatal(err)
	}
	var s stats.Stats
	mustJSON(t, mustRun(t, "", "stats", "--json", "--db", db), &s)
	if len(s.Largest) != 1 || s.Largest[0].ID != high {
		t.Errorf("largest = %+v, want the entry with id %d", s.Largest, high)
	}
}
