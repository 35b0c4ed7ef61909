package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// TestTmux_StatsPanel opens the stats panel in a real terminal, follows an
// agent's write while it is open, is resized narrow, and closes.
func TestTmux_StatsPanel(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	e.start("s", bin+" "+path)
	e.waitFor("s", 5*time.Second, "first screen", contains("final-note"))
	e.keys("s", "i")
	e.waitFor("s", 5*time.Second, "stats panel", contains("Memory stats", "added per month", "kind", "entries", "bytes", "tokens"))

	before := e.screen("s")
	apply(t, path, store.Add{Name: "external-note", Content: "written by the agent"})
	e.waitFor("s", 5*time.Second, "figures after the agent's write", func(s string) bool {
		return s != before && strings.Contains(s, "Memory stats") && strings.Contains(s, humanize.Plural(countEntries(t, path), "entry")+" · ")
	})

	e.tmux("resize-window", "-t", "s", "-x", "24", "-y", "12")
	e.waitFor("s", 5*time.Second, "narrow panel", func(s string) bool {
		lines := strings.Split(s, "\n")
		return len(lines) > 2 && strings.HasPrefix(lines[1], "Memory stats")
	})
	e.keys("s", "Escape")
	e.waitFor("s", 5*time.Second, "panel closed", func(s string) bool { return !strings.Contains(s, "Memory stats") })
}

// countEntries is the number of entries in the file at path.
func countEntries(t *testing.T, path string) int {
	t.Helper()
	db, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return db.Memory().Len()
}

// TestTmux_StatsPanelRecalls opens the panel over a memory with a
// sessions folder of recalls beside it: its end is the recall section.
func TestTmux_StatsPanelRecalls(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	if err := os.CopyFS(filepath.Join(filepath.Dir(path), "sessions"), os.DirFS("../testdata/recalls/sessions")); err != nil {
		t.Fatal(err)
	}
	e.start("s", bin+" "+path)
	e.waitFor("s", 5*time.Second, "first screen", contains("final-note"))
	// The recall history is read off the loop after the first screen; the
	// card says so once it is. G before it is read scrolled to the bottom
	// of a panel without its recall section, which came in below the fold
	// (seen under load: "recall section: not seen within 5s").
	e.waitFor("s", 15*time.Second, "the recall history read", contains("recorded recall"))
	e.keys("s", "i")
	e.waitFor("s", 5*time.Second, "stats panel", contains("Memory stats"))
	e.keys("s", "G")
	e.waitFor("s", 5*time.Second, "recall section", contains("recall history", "recorded recalls in", "never recalled", "1×  N deploy-steps"))
}
