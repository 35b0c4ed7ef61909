package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func TestOptions_NoMouseStartsWithCaptureOff(t *testing.T) {
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		noMouse bool
		want    tea.MouseMode
	}{
		{false, tea.MouseModeCellMotion},
		{true, tea.MouseModeNone},
	} {
		m := newModel(configFrom(Options{Path: "memory.db", NoMouse: tc.noMouse}, noEnv))
		if got := m.View().MouseMode; got != tc.want {
			t.Errorf("NoMouse=%v: mouse mode %v, want %v", tc.noMouse, got, tc.want)
		}
	}
}

func TestCheckStyle(t *testing.T) {
	for _, s := range []string{"", "auto", "dark", "light", "notty", "ascii", "dracula", "pink", "tokyo-night"} {
		if err := CheckStyle(s); err != nil {
			t.Errorf("CheckStyle(%q) = %v, want ok", s, err)
		}
	}
	if err := CheckStyle("neon"); err == nil {
		t.Error("CheckStyle(neon) accepted an unknown style")
	}
}

func TestPadCells(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"term", 6, "term  "},
		{"migration", 6, "migra…"},
		{"東京", 6, "東京  "},       // two wide characters are four cells
		{"東京の天気は晴れ", 6, "東京… "}, // a third wide character would not fit
	} {
		if got := padCells(tc.in, tc.n); got != tc.want {
			t.Errorf("padCells(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
	if got := termColumn(46); got+explainIndent+numbersWidth > 46 {
		t.Errorf("at 46 cells the explain table is %d wide", got+explainIndent+numbersWidth)
	}
}

func TestAge(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) uint64 { return uint64(now.Add(d).Unix()) }
	for _, tc := range []struct {
		created uint64
		list    string
		card    string
	}{
		{at(-30 * time.Second), "now", "just now"},
		{at(30 * time.Second), "now", "just now"}, // within a minute of skew
		{at(-5 * time.Minute), "5m", "5m ago"},
		{at(-3 * 24 * time.Hour), "3d", "3d ago"},
		{at(-400 * 24 * time.Hour), "1y", "1y ago"},
		{at(2 * time.Hour), "fut", "in the future"},
		{at(2 * 365 * 24 * time.Hour), "fut", "in the future"},
	} {
		if got := age(now, tc.created); got != tc.list {
			t.Errorf("age(%v) = %q, want %q", time.Unix(int64(tc.created), 0).Sub(now), got, tc.list)
		}
		if got := ago(now, tc.created); got != tc.card {
			t.Errorf("ago(%v) = %q, want %q", time.Unix(int64(tc.created), 0).Sub(now), got, tc.card)
		}
	}
}
