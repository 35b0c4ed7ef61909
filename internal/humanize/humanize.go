// Package humanize formats ages, time spans, byte sizes and counts the same
// way everywhere in crmem: the TUI's list and card, its prompts (the date
// filter, mark-older-than) and the command line's tables.
//
// # Units
//
// One table of time units serves both directions: m minutes, h hours,
// d days, w weeks, mo months (30 days), y years (365 days). An age is shown
// in the largest unit that keeps it readable (days up to two weeks, weeks up
// to two months), and a span typed by the user is read with the same units,
// so "6m" is six minutes wherever it appears.
package humanize

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxDisplayTime is the last second of year 9999 (UTC); later creation
// times have no calendar form and are shown raw.
const MaxDisplayTime = 253402300799

const (
	day   = 24 * time.Hour
	week  = 7 * day
	month = 30 * day
	year  = 365 * day
)

// unit is one time unit: its suffix and length.
type unit struct {
	suffix string
	size   time.Duration
}

// units lists every unit a span may be written in, longest suffix first so
// "mo" is matched before "m".
var units = [...]unit{
	{"mo", month}, {"m", time.Minute}, {"h", time.Hour}, {"d", day}, {"w", week}, {"y", year},
}

// Age is a compact relative age of a unix creation time: "now", "5m", "3h",
// "2d", "3w", "5mo", "2y"; "fut" for a time more than a minute ahead of now
// (clock skew, a bad import: it must not pass for a fresh entry); "-" beyond
// year 9999.
func Age(now time.Time, created uint64) string {
	if created > MaxDisplayTime {
		return "-"
	}
	// strconv, not fmt, as Size: recalls --report gives the age of each
	// of 100k never-recalled entries.
	d := now.Sub(time.Unix(int64(created), 0))
	switch {
	case d < -time.Minute:
		return "fut"
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d < day:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d < 2*week:
		return strconv.FormatInt(int64(d/day), 10) + "d"
	case d < 2*month:
		return strconv.FormatInt(int64(d/week), 10) + "w"
	case d < year:
		return strconv.FormatInt(int64(d/month), 10) + "mo"
	}
	return strconv.FormatInt(int64(d/year), 10) + "y"
}

// Ago is Age as a phrase: "3d ago", "just now", "in the future", "-".
func Ago(now time.Time, created uint64) string {
	switch a := Age(now, created); a {
	case "now":
		return "just now"
	case "fut":
		return "in the future"
	case "-":
		return a
	default:
		return a + " ago"
	}
}

// ErrSpan is returned by ParseSpan for text that is not a span.
var ErrSpan = errors.New("write a span like 45m, 12h, 30d, 2w, 6mo or 1y")

// SpanTooLongError is returned by ParseSpan for a span longer than a
// time.Duration holds (about 292 years), which would wrap around and pass
// for a negative or small span. Its message is short enough for a prompt
// on an 80-column screen: `"293y": at most 292y`.
type SpanTooLongError struct {
	Span    string // as typed
	Largest string // the largest span in the unit typed: "292y"
}

func (e *SpanTooLongError) Error() string { return fmt.Sprintf("%q: at most %s", e.Span, e.Largest) }

// ParseSpan reads a span typed by the user: a whole number and one unit
// (m, h, d, w, mo, y), optionally separated by a space: "30d", "6mo", "2 w".
// A span beyond the largest duration (292y, 3558mo, …) is refused with a
// *SpanTooLongError rather than wrapped around.
func ParseSpan(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	for _, u := range units {
		digits, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		digits = strings.TrimSpace(digits)
		if digits == "" || len(digits) > 6 || strings.TrimLeft(digits, "0123456789") != "" {
			return 0, fmt.Errorf("%q: %w", s, ErrSpan)
		}
		n, _ := strconv.Atoi(digits)
		if largest := int(math.MaxInt64 / u.size); n > largest {
			return 0, &SpanTooLongError{Span: s, Largest: strconv.Itoa(largest) + u.suffix}
		}
		return time.Duration(n) * u.size, nil
	}
	return 0, fmt.Errorf("%q: %w", s, ErrSpan)
}

// Size is a compact byte count in powers of 1024: "512B", "1.2K", "34K",
// "1.1M".
func Size(n int) string {
	// strconv, not fmt: a report lists the size of each of 100k entries
	// (recalls --report's never recalled), and it writes the same.
	switch {
	case n < 1000:
		return strconv.Itoa(n) + "B"
	case n < 10_000:
		return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + "K"
	case n < 1_000_000:
		return strconv.Itoa(n/1024) + "K"
	}
	return strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + "M"
}

// Count writes n with thousands separators: 14,435.
func Count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Plural is a count and its word: "1 hit", "14,435 hits", "2 entries".
// Words ending in a consonant and "y" take "ies". It is the one way crmem
// counts things in words, in both faces.
func Plural(n int, word string) string {
	return Counted(n, word, Word(2, word))
}

// Counted is a count and the words for it, in the number given: one for 1,
// many otherwise ("1 session names it", "3 sessions name it"), for a phrase
// Word cannot make plural.
func Counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(n) + " " + many
}

// Word is word, in the plural when n is not 1: "entry" → "entries".
func Word(n int, word string) string {
	switch {
	case n == 1:
		return word
	case strings.HasSuffix(word, "y") && !strings.HasSuffix(word, "ay") && !strings.HasSuffix(word, "ey") && !strings.HasSuffix(word, "oy"):
		return strings.TrimSuffix(word, "y") + "ies"
	case strings.HasSuffix(word, "s") || strings.HasSuffix(word, "sh") || strings.HasSuffix(word, "ch") || strings.HasSuffix(word, "x"):
		return word + "es"
	}
	return word + "s"
}
