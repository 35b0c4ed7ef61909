package humanize

import (
	"fmt"
	"testing"
	"time"
)

// TestAge_AsFmt: Age, written with strconv, gives what its fmt form gave
// for ages across every unit and their boundaries.
func TestAge_AsFmt(t *testing.T) {
	byFmt := func(now time.Time, created uint64) string {
		if created > MaxDisplayTime {
			return "-"
		}
		d := now.Sub(time.Unix(int64(created), 0))
		switch {
		case d < -time.Minute:
			return "fut"
		case d < time.Minute:
			return "now"
		case d < time.Hour:
			return fmt.Sprintf("%dm", d/time.Minute)
		case d < day:
			return fmt.Sprintf("%dh", d/time.Hour)
		case d < 2*week:
			return fmt.Sprintf("%dd", d/day)
		case d < 2*month:
			return fmt.Sprintf("%dw", d/week)
		case d < year:
			return fmt.Sprintf("%dmo", d/month)
		}
		return fmt.Sprintf("%dy", d/year)
	}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, u := range []time.Duration{time.Second, time.Minute, time.Hour, day, week, month, year} {
		for k := -3; k <= 120; k++ {
			for _, off := range []time.Duration{-time.Second, 0, time.Second} {
				created := uint64(now.Add(-time.Duration(k)*u + off).Unix())
				if got, want := Age(now, created), byFmt(now, created); got != want {
					t.Errorf("Age(%d %v back) = %q, want %q", k, u, got, want)
				}
			}
		}
	}
	if got := Age(now, MaxDisplayTime+1); got != "-" {
		t.Errorf("Age past MaxDisplayTime = %q", got)
	}
}
