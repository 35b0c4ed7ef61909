package tui

import (
	"flag"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/demo"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden screens under testdata/TestView")

// demoModel opens the built-in demo memory (created relative to testNow).
func demoModel(t *testing.T, w, h int) *Model {
	t.Helper()
	entries, err := demo.Entries(testNow)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeEntries(t, filepath.Join(dir, "memory.db"), entries)
	t.Chdir(dir) // a short, stable path on the status line
	return openModel(t, "memory.db", w, h)
}

// timings matches the search time on the status line, which varies.
var timings = regexp.MustCompile(`in [0-9.]+ (µs|ms|s)\b`)

// checkGolden compares a screen with dir/name.golden.
func checkGolden(t *testing.T, dir, name, got string) {
	t.Helper()
	got = timings.ReplaceAllString(got, "in N ms")
	path := filepath.Join(dir, name+".golden")
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("screen %s differs from %s (run with -update after checking):\n%s", name, path, got)
	}
}

func TestView(t *testing.T) {
	tests := []struct {
		name string
		w, h int
		keys []string
		text string
	}{
		{name: "list-120x40", w: 120, h: 40},
		{name: "list-80x24", w: 80, h: 24},
		{name: "search-100x30", w: 100, h: 30, keys: []string{"/"}, text: "rollout"},
		{name: "explain-100x30", w: 100, h: 30, keys: []string{"/"}, text: "postgres migr"},
		{name: "one-pane-preview-70x24", w: 70, h: 24, keys: []string{"j", "tab"}},
		{name: "help-100x30", w: 100, h: 30, keys: []string{"?"}},
	}
	golden, err := filepath.Abs(filepath.Join("testdata", "TestView"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := demoModel(t, tt.w, tt.h)
			press(m, tt.keys...)
			typeText(m, tt.text)
			if strings.HasPrefix(tt.name, "explain") {
				press(m, "enter", "x")
			}
			screen := plainScreen(m)
			if n := len(strings.Split(screen, "\n")); n != tt.h {
				t.Errorf("%d lines, want %d", n, tt.h)
			}
			for _, l := range strings.Split(screen, "\n") {
				if w := ansi.StringWidth(l); w > tt.w {
					t.Errorf("line %q is %d wide, want ≤ %d", l, w, tt.w)
				}
			}
			checkGolden(t, golden, tt.name, screen)
		})
	}
}

func TestView_HelpListsEveryBinding(t *testing.T) {
	m := demoModel(t, 140, 40)
	m.enableEditing()
	press(m, "?")
	screen := plainScreen(m)
	for _, group := range keymap.DefaultKeyMap().FullHelp() {
		for _, b := range group {
			if !strings.Contains(screen, b.Help().Desc) {
				t.Errorf("help lacks %q", b.Help().Desc)
			}
		}
	}
	press(m, "j") // any key closes
	if m.hp.Open() {
		t.Error("help still shown")
	}
}

func TestView_HighlightsMatchedTerms(t *testing.T) {
	m := demoModel(t, 120, 40)
	press(m, "/")
	typeText(m, "rollout")
	on := regexp.MustCompile(`\x1b\[7m(rollout|Rollout)\x1b\[27m`)
	if n := len(on.FindAllString(m.screen(), -1)); n < 2 {
		t.Errorf("%d highlighted matches of rollout in the preview", n)
	}
}

func TestView_NoColor(t *testing.T) {
	m := demoModel(t, 120, 40) // openModel sets noColor
	press(m, "/")
	typeText(m, "postgres")
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])[;m]`)
	if c := colour.FindString(m.screen()); c != "" {
		t.Errorf("colour sequence %q with NO_COLOR", c)
	}
	if m.c.glamourStyle() != "notty" {
		t.Errorf("glamour style %q with NO_COLOR", m.c.glamourStyle())
	}
}

func TestStyleFollowsBackgroundUnlessOverridden(t *testing.T) {
	tests := []struct {
		opt  string
		dark bool
		want string
	}{
		{"", true, "dark"},
		{"", false, "light"},
		{"auto", false, "light"},
		{"dark", false, "dark"},
		{"light", true, "light"},
		{"notty", true, "notty"},
	}
	for _, tt := range tests {
		m := newModel(config{style: tt.opt, after: noTimer})
		m.Update(tea.BackgroundColorMsg{Color: map[bool]rgb{true: {0, 0, 0}, false: {255, 255, 255}}[tt.dark]})
		if got := m.c.glamourStyle(); got != tt.want {
			t.Errorf("style %q on dark=%v: %q, want %q", tt.opt, tt.dark, got, tt.want)
		}
	}
}

// rgb is a plain RGB colour for BackgroundColorMsg.
type rgb struct{ r, g, b uint8 }

func (c rgb) RGBA() (r, g, b, a uint32) {
	return uint32(c.r) * 0x101, uint32(c.g) * 0x101, uint32(c.b) * 0x101, 0xffff
}

func TestMouse_ClickSelectsWheelScrollsAndToggle(t *testing.T) {
	m := demoModel(t, 120, 40)
	// Row 2 of the body is the first entry under two date headers; row 4 the next.
	drive(m, func() tea.Msg { return tea.MouseClickMsg{X: 5, Y: bodyTop + 4, Button: tea.MouseLeft} })
	want := m.c.snap.entries[m.list.Rows()[4].Idx].Name
	if got := selectedName(m); got != want {
		t.Errorf("click selected %q, want %q", got, want)
	}
	drive(m, func() tea.Msg { return tea.MouseWheelMsg{X: 5, Y: 10, Button: tea.MouseWheelDown} })
	if selectedName(m) == want {
		t.Error("wheel over the list did not move the selection")
	}
	press(m, "M")
	before := selectedName(m)
	drive(m, func() tea.Msg { return tea.MouseWheelMsg{X: 5, Y: 10, Button: tea.MouseWheelDown} })
	if selectedName(m) != before || m.View().MouseMode != tea.MouseModeNone {
		t.Error("mouse still active after M")
	}
}

func TestDaemonWarning(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "crabtalk.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix sockets unavailable: %v", err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	m := demoModel(t, 160, 30)
	drive(m, daemonCmd(sock))
	if !strings.Contains(plainScreen(m), "daemon running") {
		t.Errorf("no daemon warning:\n%s", plainScreen(m))
	}
	drive(m, daemonCmd(filepath.Join(t.TempDir(), "none.sock")))
	if strings.Contains(plainScreen(m), "daemon running") {
		t.Error("daemon warning without a daemon")
	}
}

func TestPollingFallback(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	drive(m, func() tea.Msg { return watchStartedMsg{err: os.ErrPermission} })
	if !m.w.polling {
		t.Fatal("not polling after the watcher failed")
	}
	apply(t, path, store.Add{Name: "polled", Content: "seen by polling"})
	future := time.Now().Add(time.Second) // same-second writes: force a new mtime
	os.Chtimes(path, future, future)
	drive(m, func() tea.Msg { return pollMsg{} })
	if !strings.Contains(strings.Join(listNames(m), " "), "polled") {
		t.Errorf("poll did not reload: %v", listNames(m))
	}
	// With a working watcher the backstop tick still notices a change
	// (mounts that send no events).
	m.w.polling = false
	apply(t, path, store.Add{Name: "backstop", Content: "no event came"})
	later := future.Add(time.Second)
	os.Chtimes(path, later, later)
	drive(m, func() tea.Msg { return pollMsg{} })
	if !strings.Contains(strings.Join(listNames(m), " "), "backstop") {
		t.Errorf("backstop tick did not reload: %v", listNames(m))
	}
	if m.pollInterval() != backstopEvery {
		t.Errorf("interval with a watcher %v", m.pollInterval())
	}
}

func TestWatcher_EventsReachTheModel(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	w, err := newWatcher(path)
	if err != nil {
		t.Skipf("fsnotify unavailable: %v", err)
	}
	defer w.close()
	os.WriteFile(filepath.Join(filepath.Dir(path), "other.db"), []byte("x"), 0o600)
	apply(t, path, store.Add{Name: "watched", Content: "x"})
	done := make(chan tea.Msg, 1)
	go func() { done <- waitEventCmd(w)() }()
	select {
	case msg := <-done:
		if _, ok := msg.(fileEventMsg); !ok {
			t.Errorf("got %T, want fileEventMsg", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no event for a write to the file")
	}
}

func TestManualReloadSaysNoChanges(t *testing.T) {
	m := demoModel(t, 120, 40)
	press(m, "R")
	if m.st.msg != "reloaded: no changes" {
		t.Errorf("status %q", m.st.msg)
	}
}

func TestIndexingShownOnSearchLine(t *testing.T) {
	m := demoModel(t, 120, 40)
	m.indexed = false
	if !strings.Contains(plainScreen(m), "indexing…") {
		t.Error("search line does not say the index is being built")
	}
	press(m, "/")
	typeText(m, "deploy")
	// Recall by a pass over the entries (rankBeforeIndex); the prefix
	// section waits for the index.
	if m.result == nil || m.result.NameTotal != 1 || m.result.ExactTotal != 3 || len(m.result.Prefix) != 0 || !m.result.indexing {
		t.Errorf("while indexing want name matches and recall without prefixes, got %+v", m.result)
	}
	if !strings.Contains(plainScreen(m), "indexing…") {
		t.Error("search line does not say the index is being built")
	}
}

func TestWatcher_FollowsASymlinkedFile(t *testing.T) {
	real := copyFixture(t, "crmem/small.db")
	link := filepath.Join(t.TempDir(), "memory.db")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	w, err := newWatcher(link)
	if err != nil {
		t.Skipf("fsnotify unavailable: %v", err)
	}
	defer w.close()
	apply(t, link, store.Add{Name: "through-the-link", Content: "x"}) // the store writes the target
	done := make(chan tea.Msg, 1)
	go func() { done <- waitEventCmd(w)() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("no event for a write through the symlink")
	}
}

func TestTinyTerminalsDoNotBreak(t *testing.T) {
	m := demoModel(t, 120, 40)
	press(m, "/")
	typeText(m, "roll")
	for _, size := range [][2]int{{1, 1}, {10, 3}, {20, 4}, {79, 5}, {80, 6}, {200, 2}} {
		drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: size[0], Height: size[1]} })
		press(m, "enter", "tab", "j", "x")
		lines := strings.Split(plainScreen(m), "\n")
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %q is %d wide", size[0], size[1], l, w)
			}
		}
		press(m, "tab", "x", "/")
	}
}

// A created_at beyond year 9999 has no age and its time is shown raw, as
// the CLI shows it.
func TestView_HugeTimestampShownRaw(t *testing.T) {
	m := openModel(t, copyFixture(t, "bad/ok-huge-timestamp.db"), 120, 30)
	const raw = "@1234605616436508552" // 0x1122334455667788
	for m.c.snap.entries[m.list.Rows()[m.list.Cursor()].Idx].CreatedAt != 0x1122334455667788 {
		before := m.list.Cursor()
		press(m, "j")
		if m.list.Cursor() == before {
			t.Fatal("no entry with the huge timestamp")
		}
	}
	screen := plainScreen(m)
	if !strings.Contains(screen, "created "+raw) {
		t.Errorf("card time not raw:\n%s", screen)
	}
	if row := `\s` + regexp.QuoteMeta(selectedName(m)) + `\s+-\s+\d+B\s`; !regexp.MustCompile(row).MatchString(screen) {
		t.Errorf("list age not -:\n%s", screen)
	}
	if !strings.Contains(screen, "after year 9999") || strings.Contains(screen, "April") {
		t.Errorf("date group of a time beyond year 9999:\n%s", screen)
	}
}

// TestWriteBetweenOpenAndWatch: the open reads the file before the watch
// exists (Run starts it ahead of the terminal's setup); a write in between
// raises no event, yet the screen shows it once the open is done.
func TestWriteBetweenOpenAndWatch(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
	drive(m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
	openThenWatch(t, m, path, func() { apply(t, path, store.Add{Name: "between", Content: "written before the watch began"}) })
	if !slices.Contains(listNames(m), "between") {
		t.Errorf("the write between the open and the watch is not shown: %v", listNames(m))
	}
}
