package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
)

// quits reports whether pressing key ends the program.
func quits(m *Model, key string) bool {
	return slices.ContainsFunc(pressCollect(m, key), func(msg tea.Msg) bool { _, ok := msg.(tea.QuitMsg); return ok })
}

// TestKeys_RemapReachesUpdateAndHelp: a [keys] table changes what the keys
// do and what the short and full help say.
func TestKeys_RemapReachesUpdateAndHelp(t *testing.T) {
	dir := t.TempDir()
	file := "[keys]\nquit = [\"Q\", \"ctrl+c\"]\nsort = \"S\"\ncopy_name = false\nzoom = \"Z\"\n"
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := crmemconfig.Load(crmemconfig.Options{Getenv: func(k string) string {
		return map[string]string{"HOME": dir, "CRMEM_CONFIG": filepath.Join(dir, "config.toml")}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(config_(copyFixture(t, "crmem/small.db"), cfg))
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
	drive(m, openCmd(m.path, ""))

	if quits(m, "q") {
		t.Error("q still quits")
	}
	press(m, "S")
	if m.list.Order != sortOldest {
		t.Errorf("S did not sort: %v", m.list.Order)
	}
	press(m, "s")
	if m.list.Order != sortOldest {
		t.Errorf("s still sorts: %v", m.list.Order)
	}
	if out := raws(pressCollect(m, "y")); len(out) != 0 {
		t.Error("disabled y still copies")
	}
	short := strings.Split(plainScreen(m), "\n")[39]
	if !strings.Contains(short, "Q/ctrl+c quit") || !strings.Contains(short, "S sort order") {
		t.Errorf("short help %q", short)
	}
	press(m, "Z")
	if !m.read.zoom {
		t.Error("Z did not zoom")
	}
	press(m, "?")
	help := plainScreen(m)
	for _, want := range []string{"Q/ctrl+c quit", "S      sort order", "Z zoom preview"} {
		if !strings.Contains(strings.Join(strings.Fields(help), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("help lacks %q", want)
		}
	}
	if strings.Contains(help, "copy name") {
		t.Error("help lists the disabled copy name")
	}
	press(m, "esc")
	press(m, "/")
	typeText(m, "Q")
	if m.bar.Input.Value() != "Q" {
		t.Errorf("Q while typing: query %q", m.bar.Input.Value())
	}
	if !quits(m, "ctrl+c") {
		t.Error("ctrl+c does not quit while typing")
	}
}

// config_ builds the model configuration Run would from a crmemconfig.Config.
func config_(path string, c *crmemconfig.Config) config {
	cfg := configFrom(Options{Path: path, Style: "dark", Keys: c.Keys, Sort: c.Sort}, func(string) string { return "" })
	cfg.noColor, cfg.now, cfg.loc, cfg.after = true, func() time.Time { return testNow }, time.UTC, noTimer
	cfg.ed, cfg.why = nil, nil
	return cfg
}

// TestOptions_ReachModel: the configured sort, limits and expansions are
// the model's.
func TestOptions_ReachModel(t *testing.T) {
	cfg := configFrom(Options{Path: "x", Sort: "size", NameMatches: 3, RecallLimit: 7, MaxExpansions: 9}, func(string) string { return "" })
	cfg.ed, cfg.why = nil, nil
	m := newModel(cfg)
	if m.list.Order != sortSize || m.lim.nameRows != 3 || m.lim.recallLimit != 7 || m.maxExpansions != 9 {
		t.Errorf("order %v, limits %+v, expansions %d", m.list.Order, m.lim, m.maxExpansions)
	}
	if in := m.searchInput("q"); in.expand != 9 {
		t.Errorf("search input expansions %d", in.expand)
	}
}

// TestKeys_HelpTitleNamesRemappedKeys: the help screen's title names the
// keys that close and scroll it as configured, not the defaults.
func TestKeys_HelpTitleNamesRemappedKeys(t *testing.T) {
	dir := t.TempDir()
	file := "[keys]\nquit = [\"Q\", \"ctrl+c\"]\nhelp = \"Z\"\nup = \"K\"\ndown = \"J\"\n"
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := crmemconfig.Load(crmemconfig.Options{Getenv: func(k string) string {
		return map[string]string{"HOME": dir, "CRMEM_CONFIG": filepath.Join(dir, "config.toml")}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []tea.WindowSizeMsg{{Width: 80, Height: 24}, {Width: 200, Height: 80}} {
		m := newModel(config_(copyFixture(t, "crmem/small.db"), cfg))
		drive(m, func() tea.Msg { return size })
		drive(m, openCmd(m.path, ""))
		press(m, "Z")
		if !m.hp.Open() {
			t.Fatalf("%v: Z did not open the help", size)
		}
		title := strings.Split(plainScreen(m), "\n")[1]
		if !strings.Contains(title, "Q/esc/Z close") || strings.Contains(title, "?") || strings.Contains(title, "q ") {
			t.Errorf("%v: help title %q", size, title)
		}
		if size.Height == 24 && !strings.Contains(title, "K J scroll") {
			t.Errorf("%v: help title %q does not name the scroll keys", size, title)
		}
		last := strings.Split(plainScreen(m), "\n")[size.Height-1]
		if !strings.Contains(last, "Q/esc/Z close help") {
			t.Errorf("%v: short help %q", size, last)
		}
	}
}

// TestKeys_RemappedQuitClosesTheLog: the reload log closes with the quit
// keys as configured, not with a hard-wired q; ctrl+c quits from it.
func TestKeys_RemappedQuitClosesTheLog(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[keys]\nquit = [\"Q\", \"ctrl+c\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := crmemconfig.Load(crmemconfig.Options{Getenv: func(k string) string {
		return map[string]string{"HOME": dir, "CRMEM_CONFIG": filepath.Join(dir, "config.toml")}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	path := copyFixture(t, "crmem/small.db")
	m := newModel(config_(path, cfg))
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
	drive(m, openCmd(m.path, ""))
	apply(t, path, store.Add{Name: "first-add", Content: "x"})
	reload(m)
	press(m, "c")
	if !m.chg.log.Open() {
		t.Fatal("c did not open the log")
	}
	if quits(m, "Q") {
		t.Error("Q quit from the log")
	}
	if m.chg.log.Open() {
		t.Error("Q did not close the log")
	}
	press(m, "c")
	if !quits(m, "ctrl+c") {
		t.Error("ctrl+c does not quit from the log")
	}
}
