package tui

import (
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/tui/part"
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

// TestCheckStyle_StyleFile: a style file is read by crmem's capped,
// regular-file-only reader, a folder or a missing file refused (the
// renderer's side: preview's TestNewRenderer_StyleFile).
func TestCheckStyle_StyleFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "style.json")
	if err := os.WriteFile(good, []byte(`{"document": {"margin": 0}, "strong": {"bold": true}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CheckStyle(good); err != nil {
		t.Errorf("CheckStyle(%s) = %v", good, err)
	}
	for _, bad := range []string{dir, filepath.Join(dir, "missing.json")} {
		if err := CheckStyle(bad); err == nil {
			t.Errorf("CheckStyle(%s) accepted it", bad)
		}
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

// padCells cuts s to n cells (with an ellipsis) and pads it to exactly n
// (part.PadCells), as the explain view did.
func padCells(s string, n int) string { return part.PadCells(s, n) }
