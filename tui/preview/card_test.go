package preview

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

// TestCard_LinesNeverWrap pins a finding of the review of issue 10: the
// card's lines were cut to width-4 cells, but the box (border and padding
// included in its width) holds width-5, so a line of exactly that length
// wrapped: at 80×24 "created 2026-01-02 21:21 UTC (10mo ago)" broke
// before "ago)", and the sessions folder's path was cut and wrapped.
func TestCard_LinesNeverWrap(t *testing.T) {
	st := testContext(80, 24).Styles
	created := uint64(time.Date(2026, 1, 2, 21, 21, 0, 0, time.UTC).Unix())
	now := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	e := store.Entry{ID: 81, Name: strings.Repeat("long-name-", 12), Kind: store.Note, CreatedAt: created, Content: "x"}
	for width := 20; width <= 80; width++ {
		extra := []string{"sessions none found in " + strings.Repeat("/x", width)}
		out := card(st, e, true, 1, width, now, time.UTC, extra, width%2 == 0)
		lines := strings.Split(out, "\n")
		if want := 2 + 5; len(lines) != want { // border, name, kind, created, size, sessions, border
			t.Errorf("at width %d the card takes %d lines, want %d:\n%s", width, len(lines), want, out)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > width-1 {
				t.Errorf("at width %d a card line is %d wide: %q", width, w, l)
			}
		}
	}
}
