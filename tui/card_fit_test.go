package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCard_SessionsFolderKeepsItsEnd pins a finding of the review of issue
// 10: at 80×24 the card said "sessions none found in /tmp/r10/sessio…",
// cutting the folder's own name; the path is now shortened in the middle
// keeping the folder's own name.
func TestCard_SessionsFolderKeepsItsEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("deep-folder-", 6), "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	h := newEditHarnessIn(t, copyFixture(t, "crmem/medium.db"), dir)
	m := h.m
	for _, w := range []int{80, 100, 120} {
		drive(m, resizeCmd(w, 24))
		press(m, "3") // archives: the card lists their sessions
		var line string
		for _, l := range strings.Split(plainScreen(m), "\n") {
			if strings.Contains(l, "none found in") {
				line = l
			}
		}
		if !strings.HasSuffix(strings.TrimRight(strings.TrimSuffix(strings.TrimSpace(line), "│"), " "), "/sessions") {
			t.Errorf("at %d columns the card's sessions line lost the folder's name: %q", w, line)
		}
	}
}

// TestShortPath pins how the card shortens a folder's path.
func TestShortPath(t *testing.T) {
	tests := []struct {
		path string
		w    int
		want string
	}{
		{"/tmp/short", 20, "/tmp/short"},
		{"/tmp/TestX/deep-folder-deep-folder/agent-sessions", 24, "/tmp/Tes…/agent-sessions"},
		{"/tmp/TestX/a-very-long-final-element-name", 16, "/tmp/Te…ent-name"},
		{"no-separator-at-all-here", 10, "no-s…-here"},
	}
	for _, tt := range tests {
		got := shortPath(tt.path, tt.w)
		if got != tt.want || ansi.StringWidth(got) > tt.w {
			t.Errorf("shortPath(%q, %d) = %q, want %q", tt.path, tt.w, got, tt.want)
		}
	}
}
