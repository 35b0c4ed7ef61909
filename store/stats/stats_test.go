package stats_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/stats"
)

// at is the unix time of a UTC date and time.
func at(y int, m time.Month, d, h int) uint64 {
	return uint64(time.Date(y, m, d, h, 0, 0, 0, time.UTC).Unix())
}

func entry(id uint64, k store.Kind, created uint64, content string, aliases ...string) store.Entry {
	return store.Entry{ID: id, Name: fmt.Sprintf("e%d", id), Kind: k, CreatedAt: created, Content: content, Aliases: aliases}
}

func TestCompute_KindsAndTotals(t *testing.T) {
	entries := []store.Entry{
		entry(1, store.Note, at(2025, 1, 5, 0), "deploy the api server", "rollout"),
		entry(2, store.Archive, at(2025, 1, 6, 0), "a long conversation about rollbacks"),
		entry(3, store.Note, 0, ""),
		entry(4, store.Topic, at(2025, 3, 1, 0), "topic body"),
	}
	s := stats.Compute(entries, stats.Options{})
	wantTotal := stats.Sizes{Entries: 4}
	for i := range entries {
		wantTotal.Bytes += len(entries[i].Content)
		wantTotal.Tokens += entries[i].Tokens()
	}
	if s.Total != wantTotal {
		t.Errorf("total = %+v, want %+v", s.Total, wantTotal)
	}
	tests := []struct {
		kind store.Kind
		want stats.Sizes
	}{
		{store.Note, stats.Sizes{Entries: 2, Bytes: len("deploy the api server"), Tokens: 4}}, // "the" is a stopword
		{store.Archive, stats.Sizes{Entries: 1, Bytes: len("a long conversation about rollbacks"), Tokens: entries[1].Tokens()}},
		{store.Topic, stats.Sizes{Entries: 1, Bytes: len("topic body"), Tokens: 2}},
	}
	if len(s.Kinds) != len(store.Kinds) {
		t.Fatalf("kinds = %d rows, want %d", len(s.Kinds), len(store.Kinds))
	}
	for _, tt := range tests {
		got := s.Kinds[tt.kind]
		if got.Kind != tt.kind || got.Sizes != tt.want {
			t.Errorf("kind %s = %+v, want %+v", tt.kind, got, tt.want)
		}
	}
}

func TestCompute_Months(t *testing.T) {
	tests := []struct {
		name    string
		entries []store.Entry
		loc     *time.Location
		want    []string // "2006-01 note/archive/topic total"
		undated stats.Counts
	}{
		{
			name: "gaps are left out, totals run",
			entries: []store.Entry{
				entry(1, store.Note, at(2024, 11, 2, 0), "a"),
				entry(2, store.Archive, at(2024, 11, 30, 0), "b"),
				entry(3, store.Note, at(2025, 2, 1, 0), "c"),
				entry(4, store.Note, at(2025, 2, 28, 23), "d"),
			},
			want: []string{"2024-11 1/1/0 2", "2025-02 2/0/0 4"},
		},
		{
			name: "unknown and far-future dates are undated, not 1970",
			entries: []store.Entry{
				entry(1, store.Note, 0, "a"),
				entry(2, store.Archive, 0, "b"),
				entry(3, store.Note, humanize.MaxDisplayTime+1, "c"),
				entry(4, store.Topic, 1, "d"), // one second after the epoch is a date
			},
			want:    []string{"1970-01 0/0/1 1"},
			undated: stats.Counts{Note: 2, Archive: 1},
		},
		{
			name:    "months are the zone's calendar months",
			entries: []store.Entry{entry(1, store.Note, at(2025, 1, 31, 23), "a")},
			loc:     time.FixedZone("UTC+2", 2*3600),
			want:    []string{"2025-02 1/0/0 1"},
		},
		{
			name:    "no entries",
			entries: nil,
			want:    nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stats.Compute(tt.entries, stats.Options{Loc: tt.loc})
			var got []string
			for _, m := range s.Months {
				got = append(got, fmt.Sprintf("%s %d/%d/%d %d", m.Month, m.Added.Note, m.Added.Archive, m.Added.Topic, m.Total))
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("months = %q, want %q", got, tt.want)
			}
			if s.Undated != tt.undated {
				t.Errorf("undated = %+v, want %+v", s.Undated, tt.undated)
			}
		})
	}
}

func TestCompute_MonthIndexTellsGaps(t *testing.T) {
	s := stats.Compute([]store.Entry{
		entry(1, store.Note, at(2024, 12, 1, 0), "a"),
		entry(2, store.Note, at(2025, 3, 1, 0), "b"),
	}, stats.Options{})
	if d := s.Months[1].Index() - s.Months[0].Index(); d != 3 {
		t.Errorf("2024-12 to 2025-03 = %d months apart, want 3", d)
	}
}

func TestCompute_Biggest(t *testing.T) {
	entries := []store.Entry{
		entry(1, store.Note, 1, strings.Repeat("x", 10)),          // 10 bytes, 1 token
		entry(2, store.Note, 1, "alpha beta gamma delta epsilon"), // 30 bytes, 5 tokens
		entry(3, store.Archive, 1, strings.Repeat("y", 30)),       // ties 2 by bytes
		entry(4, store.Note, 1, "a", "one two three four five six"),
		entry(5, store.Note, 1, ""),
	}
	tests := []struct {
		top                 int
		largest, mostTokens string
	}{
		{top: 2, largest: "2:30 3:30", mostTokens: "4:6 2:5"},
		{top: 0, largest: "2:30 3:30 1:10 4:1 5:0", mostTokens: "4:6 2:5 1:1 3:1 5:0"},
		{top: -1, largest: "", mostTokens: ""},
		{top: 100, largest: "2:30 3:30 1:10 4:1 5:0", mostTokens: "4:6 2:5 1:1 3:1 5:0"},
	}
	for _, tt := range tests {
		s := stats.Compute(entries, stats.Options{Top: tt.top})
		show := func(bs []stats.Big, bytes bool) string {
			var out []string
			for _, b := range bs {
				n := b.Tokens
				if bytes {
					n = b.Bytes
				}
				out = append(out, fmt.Sprintf("%d:%d", b.ID, n))
			}
			return strings.Join(out, " ")
		}
		if got := show(s.Largest, true); got != tt.largest {
			t.Errorf("top %d: largest = %q, want %q", tt.top, got, tt.largest)
		}
		if got := show(s.MostTokens, false); got != tt.mostTokens {
			t.Errorf("top %d: most tokens = %q, want %q", tt.top, got, tt.mostTokens)
		}
	}
}

func TestStats_JSON(t *testing.T) {
	s := stats.Compute([]store.Entry{entry(7, store.Archive, at(2025, 5, 1, 0), "hello world")}, stats.Options{})
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"total":{"entries":1,"bytes":11,"tokens":2}`,
		`{"kind":"archive","entries":1,"bytes":11,"tokens":2}`,
		`"months":[{"month":"2025-05","added":{"note":0,"archive":1,"topic":0},"total":1}]`,
		`"undated":{"note":0,"archive":0,"topic":0}`,
		`"largest":[{"id":7,"name":"e7","kind":"archive","bytes":11,"tokens":2}]`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s\nlacks %s", b, want)
		}
	}
}
