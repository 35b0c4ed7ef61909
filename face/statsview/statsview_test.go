package statsview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/stats"
)

// sample is a memory over three years with a gap, an undated entry and an
// odd name.
func sample() stats.Stats {
	var entries []store.Entry
	id := uint64(0)
	add := func(k store.Kind, y int, m time.Month, n int) {
		for range n {
			id++
			entries = append(entries, store.Entry{ID: id, Name: fmt.Sprintf("entry-%d", id), Kind: k,
				CreatedAt: uint64(time.Date(y, m, 3, 0, 0, 0, 0, time.UTC).Unix()), Content: strings.Repeat("word ", int(id))})
		}
	}
	add(store.Note, 2023, 1, 3)
	add(store.Archive, 2023, 1, 1)
	add(store.Note, 2023, 3, 1) // one empty month before
	add(store.Topic, 2025, 6, 1234)
	add(store.Archive, 2025, 7, 12)
	entries = append(entries, store.Entry{ID: 9999, Name: "evil\x1b[2Jname\u200b", Kind: store.Note, Content: strings.Repeat("x", 1<<20)})
	return stats.Compute(entries, stats.Options{})
}

// TestLines_FitEveryWidth draws the page at every width from 1 to 250:
// no line is wider, as the TUI's width function measures it.
func TestLines_FitEveryWidth(t *testing.T) {
	s := sample()
	for w := 1; w <= 250; w++ {
		for i, l := range Lines(s, w, Style{}) {
			if got := ansi.StringWidth(l); got > w {
				t.Fatalf("width %d: line %d is %d cells: %q", w, i, got, l)
			}
		}
	}
}

// TestLines_Content checks the sections at a comfortable width.
func TestLines_Content(t *testing.T) {
	out := strings.Join(Lines(sample(), 100, Style{}), "\n")
	for _, want := range []string{
		"1,252 entries",
		"added per month  █ note  ▒ archive  ░ topic",
		"2023-02\n", // a one-month gap is drawn as its month
		"⋯ 26 months without additions",
		"date unknown: 1 note",
		"largest entries (bytes)",
		"name⟨U+200B⟩", // names are made safe
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("an escape sequence reaches the page:\n%q", out)
	}
	if strings.Contains(out, "1970") {
		t.Errorf("an undated entry is drawn as 1970:\n%s", out)
	}
}

// TestLines_BarsScale checks the busiest month's bar is MaxBar long on a
// wide screen and every month with additions has a bar.
func TestLines_BarsScale(t *testing.T) {
	lines := Lines(sample(), 250, Style{})
	longest := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "20") && len(l) > len("2006-01") && l[4] == '-' && strings.ContainsAny(l, "█▒░") {
			n := strings.Count(l, "█") + strings.Count(l, "▒") + strings.Count(l, "░")
			longest = max(longest, n)
			if n == 0 {
				t.Errorf("month without a bar: %q", l)
			}
		}
	}
	if longest != MaxBar {
		t.Errorf("longest bar %d cells, want %d", longest, MaxBar)
	}
}

func TestBarParts(t *testing.T) {
	tests := []struct {
		counts      []int
		full, cells int
		want        string
	}{
		{[]int{10, 0, 0}, 10, 20, "[20 0 0]"},
		{[]int{5, 5, 0}, 10, 20, "[10 10 0]"},
		{[]int{5, 0, 0}, 10, 20, "[10 0 0]"},
		{[]int{1000, 1, 0}, 1001, 10, "[9 1 0]"}, // a small part still shows
		{[]int{1, 0, 0}, 1000, 10, "[1 0 0]"},    // a small month still shows
		{[]int{0, 0, 0}, 10, 10, "[0 0 0]"},
		{[]int{3, 3, 3}, 9, 1, "[0 1 0]"}, // no room for every part
		{[]int{3, 0, 0}, 3, 0, "[0 0 0]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(barParts(tt.counts, tt.full, tt.cells)); got != tt.want {
			t.Errorf("barParts(%v, %d, %d) = %s, want %s", tt.counts, tt.full, tt.cells, got, tt.want)
		}
	}
}

// TestBar_WidthIsMeasured checks a bar is as many cells as its parts say,
// measured with the width function the TUI uses.
func TestBar_WidthIsMeasured(t *testing.T) {
	for cells := 1; cells <= MaxBar; cells++ {
		b := Bar([]int{7, 2, 1}, 10, cells, Style{})
		if got := ansi.StringWidth(b); got != cells {
			t.Errorf("bar of %d cells is %d wide: %q", cells, got, b)
		}
	}
}
