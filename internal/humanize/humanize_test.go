package humanize

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestAge(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) uint64 { return uint64(now.Add(d).Unix()) }
	for _, tc := range []struct {
		created  uint64
		age, ago string
	}{
		{at(-30 * time.Second), "now", "just now"},
		{at(30 * time.Second), "now", "just now"}, // within a minute of skew
		{at(-5 * time.Minute), "5m", "5m ago"},
		{at(-3 * time.Hour), "3h", "3h ago"},
		{at(-3 * day), "3d", "3d ago"},
		{at(-13 * day), "13d", "13d ago"},
		{at(-30 * day), "4w", "4w ago"},
		{at(-59 * day), "8w", "8w ago"},
		{at(-90 * day), "3mo", "3mo ago"},
		{at(-400 * day), "1y", "1y ago"},
		{at(2 * time.Hour), "fut", "in the future"},
		{MaxDisplayTime + 1, "-", "-"},
	} {
		if got := Age(now, tc.created); got != tc.age {
			t.Errorf("Age(%v) = %q, want %q", time.Unix(int64(tc.created), 0).Sub(now), got, tc.age)
		}
		if got := Ago(now, tc.created); got != tc.ago {
			t.Errorf("Ago(%v) = %q, want %q", time.Unix(int64(tc.created), 0).Sub(now), got, tc.ago)
		}
	}
}

// TestAgeReadsBack pins the promise that an age shown in the list, typed
// back into a prompt, means the same span.
func TestAgeReadsBack(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, d := range []time.Duration{5 * time.Minute, 3 * time.Hour, 3 * day, 3 * week, 3 * month, 2 * year} {
		a := Age(now, uint64(now.Add(-d).Unix()))
		got, err := ParseSpan(a)
		if err != nil || got != d {
			t.Errorf("ParseSpan(Age(%v) = %q) = %v, %v", d, a, got, err)
		}
	}
}

func TestParseSpan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"6m", 6 * time.Minute}, {"12h", 12 * time.Hour}, {"30d", 30 * day}, {"2w", 2 * week},
		{"6mo", 6 * month}, {"1y", year}, {"2 w", 2 * week}, {" 0d ", 0},
	} {
		if got, err := ParseSpan(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseSpan(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "d", "30", "30x", "-3d", "3.5d", "1234567d", "mo", "3dd", "3 mo s"} {
		if _, err := ParseSpan(bad); !errors.Is(err, ErrSpan) {
			t.Errorf("ParseSpan(%q) error = %v, want ErrSpan", bad, err)
		}
	}
}

// TestParseSpan_RefusesSpansThatWrap pins issue 17 item 4: 293y is more
// than a time.Duration holds and wrapped around to a negative span (O
// 293y marked every archive; f >300y listed everything, f <1000y
// nothing). The largest span of each unit is accepted; one more is
// refused with the largest named.
func TestParseSpan_RefusesSpansThatWrap(t *testing.T) {
	for _, tc := range []struct {
		largest, tooLong, msg string
	}{
		{"292y", "293y", `"293y": at most 292y`},
		{"292y", "300y", `"300y": at most 292y`},
		{"292y", "999999y", "at most 292y"},
		{"3558mo", "3559mo", "at most 3558mo"},
		{"15250w", "15251w", "at most 15250w"},
		{"106751d", "106752d", "at most 106751d"},
	} {
		d, err := ParseSpan(tc.largest)
		if err != nil || d <= 0 {
			t.Errorf("ParseSpan(%q) = %v, %v; want the largest positive span", tc.largest, d, err)
		}
		d, err = ParseSpan(tc.tooLong)
		var tooLong *SpanTooLongError
		if !errors.As(err, &tooLong) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("ParseSpan(%q) = %v, %v; want a SpanTooLongError saying %q", tc.tooLong, d, err, tc.msg)
		}
	}
}

func TestSizeCountPlural(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Size(512), "512B"}, {Size(1500), "1.5K"}, {Size(34 * 1024), "34K"}, {Size(1 << 20 * 3 / 2), "1.5M"},
		{Count(0), "0"}, {Count(999), "999"}, {Count(1000), "1,000"}, {Count(14435), "14,435"}, {Count(-1234567), "-1,234,567"},
		{Plural(1, "hit"), "1 hit"}, {Plural(14435, "hit"), "14,435 hits"}, {Plural(2, "entry"), "2 entries"},
		{Plural(2, "day"), "2 days"}, {Plural(3, "match"), "3 matches"}, {Word(0, "archive"), "archives"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestCounted: a count with the words given for its number, thousands
// separated as Count does; Plural is Counted with Word's plural.
func TestCounted(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 sessions name it"}, {1, "1 session names it"}, {2, "2 sessions name it"}, {14435, "14,435 sessions name it"}} {
		if got := Counted(tc.n, "session names it", "sessions name it"); got != tc.want {
			t.Errorf("Counted(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	for _, n := range []int{0, 1, 2, 1000} {
		if Plural(n, "entry") != Counted(n, "entry", "entries") || Plural(n, "alias") != Counted(n, "alias", "aliases") {
			t.Errorf("Plural(%d) disagrees with Counted", n)
		}
	}
}

// TestSize_AsSprintf pins Size to what it wrote with fmt.Sprintf, at
// every unit's edges and across the range a memory's entries span.
func TestSize_AsSprintf(t *testing.T) {
	old := func(n int) string {
		switch {
		case n < 1000:
			return fmt.Sprintf("%dB", n)
		case n < 10_000:
			return fmt.Sprintf("%.1fK", float64(n)/1024)
		case n < 1_000_000:
			return fmt.Sprintf("%dK", n/1024)
		}
		return fmt.Sprintf("%.1fM", float64(n)/(1024*1024))
	}
	check := func(n int) {
		if got, want := Size(n), old(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
	for n := -2000; n < 1_100_000; n += 7 {
		check(n)
	}
	for _, n := range []int{999, 1000, 1023, 1024, 1075, 9999, 10_000, 999_999, 1_000_000, 1 << 30, 1<<62 + 12345} {
		check(n)
	}
}
