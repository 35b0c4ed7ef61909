package tui

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// TestParseDateFilter: every form of the date filter, and bad input with
// its message.
func TestParseDateFilter(t *testing.T) {
	now := time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)
	day := uint64(24 * 3600)
	unix := func(y int, mo time.Month, d int) uint64 {
		return uint64(time.Date(y, mo, d, 0, 0, 0, 0, time.UTC).Unix())
	}
	nowU := uint64(now.Unix())
	tests := []struct {
		in       string
		from, to uint64
		err      string
	}{
		{in: "<30d", from: nowU - 30*day, to: math.MaxUint64},
		{in: ">90d", from: 0, to: nowU - 90*day},
		{in: " <2w ", from: nowU - 14*day, to: math.MaxUint64},
		{in: "<6m", from: nowU - 6*60, to: math.MaxUint64}, // m is minutes everywhere
		{in: ">6mo", from: 0, to: nowU - 180*day},
		{in: "<1y", from: nowU - 365*day, to: math.MaxUint64},
		{in: "<12h", from: nowU - 12*3600, to: math.MaxUint64},
		{in: "2026-03", from: unix(2026, 3, 1), to: unix(2026, 4, 1)},
		{in: "2025-12", from: unix(2025, 12, 1), to: unix(2026, 1, 1)},
		{in: "2026-03-01", from: unix(2026, 3, 1), to: unix(2026, 3, 2)},
		{in: "2026-03-01..2026-04-15", from: unix(2026, 3, 1), to: unix(2026, 4, 16)},
		{in: "2026-02..2026-03", from: unix(2026, 2, 1), to: unix(2026, 4, 1)},
		{in: "2026-03-10..", from: unix(2026, 3, 10), to: math.MaxUint64},
		{in: "..2026-01-31", from: 0, to: unix(2026, 2, 1)},
		// Issue 17 item 4: 300y wrapped around (>300y listed everything,
		// <1000y nothing); the largest span is accepted, beyond it refused.
		{in: ">292y", from: 0, to: 0},
		{in: "<292y", from: 0, to: math.MaxUint64},
		{in: ">300y", err: `"300y": at most 292y`},
		{in: "<1000y", err: `"1000y": at most 292y`},
		{in: "<30", err: `"<30": write a span like 45m, 12h, 30d, 2w, 6mo or 1y`},
		{in: ">x", err: `">x": write a span like 45m, 12h, 30d, 2w, 6mo or 1y`},
		{in: "<", err: `"<": write a span like`},
		{in: "2026-13", err: `"2026-13": write <30d (newer than), >90d (older than), 2026-03 (a month), 2026-03-01 (a day) or 2026-03-01..2026-04-15`},
		{in: "march", err: `"march": write <30d`},
		{in: "2026-03-01..2026-02-01", err: `"2026-03-01..2026-02-01": the range is empty; write <30d`},
		{in: "..", err: `"..": the range is empty`},
		{in: "2026-03-01..soon", err: `"soon": write <30d`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := parseDateFilter(tt.in, now, time.UTC)
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.from != tt.from || r.to != tt.to || r.text != strings.TrimSpace(tt.in) {
				t.Errorf("got [%d, %d) %q, want [%d, %d)", r.from, r.to, r.text, tt.from, tt.to)
			}
		})
	}
	if r, err := parseDateFilter("  ", now, time.UTC); err != nil || r.on() {
		t.Errorf("empty input: %+v %v, want the filter off", r, err)
	}
}

// TestParseDateFilter_LocalCalendar: a month is the month of the local
// calendar, not UTC's.
func TestParseDateFilter_LocalCalendar(t *testing.T) {
	loc := time.FixedZone("UTC+10", 10*3600)
	r, err := parseDateFilter("2026-03", time.Now(), loc)
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(time.Date(2026, 3, 1, 0, 0, 0, 0, loc).Unix()); r.from != want {
		t.Errorf("from %d, want %d", r.from, want)
	}
}

// datedModel opens a memory of notes and archives spread over months.
func datedModel(t *testing.T) *Model {
	t.Helper()
	at := func(y int, mo time.Month, d int) uint64 {
		return uint64(time.Date(y, mo, d, 9, 0, 0, 0, time.UTC).Unix())
	}
	entries := []store.Entry{
		{ID: 1, Name: "old-archive", Kind: store.Archive, CreatedAt: at(2025, 6, 1), Content: "postgres rollout"},
		{ID: 2, Name: "march-note", Kind: store.Note, CreatedAt: at(2025, 10, 5), Content: "postgres tuning"},
		{ID: 3, Name: "march-archive", Kind: store.Archive, CreatedAt: at(2025, 10, 20), Content: "postgres vacuum"},
		{ID: 4, Name: "recent-note", Kind: store.Note, CreatedAt: at(2025, 12, 20), Content: "postgres pool"},
		{ID: 5, Name: "fresh-archive", Kind: store.Archive, CreatedAt: at(2026, 1, 2), Content: "redis"},
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, entries)
	return openModel(t, path, 120, 30)
}

// filterDates types a date filter at the f prompt.
func filterDates(m *Model, text string) {
	press(m, "f")
	typeText(m, text)
	press(m, "enter")
}

// TestDateFilter_WithKindAndSearch: f filters every kind, with the kind
// filter and the search; the header shows it; f + enter on empty clears it.
func TestDateFilter_WithKindAndSearch(t *testing.T) {
	m := datedModel(t)
	sorted := func() []string { n := listNames(m); slices.Sort(n); return n }

	filterDates(m, "<30d") // testNow is 2026-01-03
	if got := sorted(); !slices.Equal(got, []string{"fresh-archive", "recent-note"}) {
		t.Errorf("<30d lists %v", got)
	}
	if !strings.Contains(plainScreen(m), "created <30d") {
		t.Errorf("header does not show the filter:\n%s", strings.Split(plainScreen(m), "\n")[0])
	}

	filterDates(m, "2025-10")
	if got := sorted(); !slices.Equal(got, []string{"march-archive", "march-note"}) {
		t.Errorf("2025-10 lists %v", got)
	}
	press(m, "3") // archives only
	if got := sorted(); !slices.Equal(got, []string{"march-archive"}) {
		t.Errorf("2025-10 + archives lists %v", got)
	}
	press(m, "1")

	filterDates(m, ">90d")
	press(m, "/")
	typeText(m, "postgres")
	press(m, "enter")
	if got := sorted(); !slices.Equal(got, []string{"march-note", "old-archive"}) {
		t.Errorf(">90d + /postgres lists %v", got)
	}
	press(m, "esc")

	filterDates(m, "2025-10-01..2025-10-10")
	if got := sorted(); !slices.Equal(got, []string{"march-note"}) {
		t.Errorf("range lists %v", got)
	}

	press(m, "f")
	if !strings.Contains(plainScreen(m), "now 2025-10-01..2025-10-10") {
		t.Errorf("the prompt does not name the filter in force")
	}
	press(m, "esc")
	filterDates(m, "") // f, enter: cleared
	if got := sorted(); len(got) != 5 || strings.Contains(strings.Split(plainScreen(m), "\n")[0], "created") {
		t.Errorf("cleared filter lists %v", got)
	}
}

// TestDateFilter_BadInputKeepsPrompt: a bad filter says why and keeps the
// prompt open with the text; esc leaves the old filter in place.
func TestDateFilter_BadInputKeepsPrompt(t *testing.T) {
	m := datedModel(t)
	filterDates(m, "<30d")
	press(m, "f")
	typeText(m, "<x")
	press(m, "enter")
	if !m.dates.prompting || !strings.Contains(m.dates.err, "write a span like") {
		t.Fatalf("prompting %v, error %q", m.dates.prompting, m.dates.err)
	}
	if !strings.Contains(plainScreen(m), "write a span like") {
		t.Errorf("the error is not shown")
	}
	press(m, "esc")
	if m.dates.prompting || m.dates.r.text != "<30d" || len(listNames(m)) != 2 {
		t.Errorf("after esc: prompting %v, filter %q, %d listed", m.dates.prompting, m.dates.r.text, len(listNames(m)))
	}
}

// TestDateFilter_TypingIsNotCommands: letters typed at the prompt are text,
// not the keys they are bound to (q quits, d deletes, e edits elsewhere).
func TestDateFilter_TypingIsNotCommands(t *testing.T) {
	m := datedModel(t)
	m.setEditing(newEditingPart(Options{Path: m.path}))
	press(m, "f")
	typeText(m, "qdey")
	if m.dates.input.Value() != "qdey" || !m.dates.prompting {
		t.Errorf("prompt holds %q (prompting %v)", m.dates.input.Value(), m.dates.prompting)
	}
}

// TestDateFilter_PromptWrapsOnANarrowScreen: the prompt's examples and the
// key that clears the filter stay whole below the line typed when they do
// not fit beside it (seen at 40 columns: "created:   <30d  >90d  2026-03
// 2026-03…", the range and "(enter: all dates)" cut off), as a dialog's
// prompt wraps.
func TestDateFilter_PromptWrapsOnANarrowScreen(t *testing.T) {
	for _, width := range []int{40, 24} {
		m := datedModel(t)
		drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: width, Height: 12} })
		press(m, "f")
		s := squeeze(plainScreen(m))
		for _, want := range []string{"created:", "2026-03-01..2026-04-15", "(enter: all dates)"} {
			if !strings.Contains(s, squeeze(want)) {
				t.Errorf("at %d columns the prompt lacks %q:\n%s", width, want, plainScreen(m))
			}
		}
		for i, l := range strings.Split(plainScreen(m), "\n") {
			if w := drawnWidth(l); w > width {
				t.Errorf("at %d columns line %d is %d wide: %q", width, i, w, l)
			}
		}
		typeText(m, "<30d")
		if !strings.Contains(plainScreen(m), "created: <30d") {
			t.Errorf("at %d columns the typed filter is not shown:\n%s", width, plainScreen(m))
		}
	}
}

// TestDateFilter_NothingListedSaysWhy: a date filter that lists nothing
// says what was looked for (seen: "no all here" under the kind filter
// all).
func TestDateFilter_NothingListedSaysWhy(t *testing.T) {
	m := datedModel(t)
	filterDates(m, "2020-01")
	if s := plainScreen(m); strings.Contains(s, "no all here") || !strings.Contains(s, "no entries created 2020-01") {
		t.Errorf("all kinds:\n%s", s)
	}
	press(m, "2")
	if s := plainScreen(m); !strings.Contains(s, "no notes created 2020-01") {
		t.Errorf("notes:\n%s", s)
	}
}
