package tui

import (
	"testing"

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
