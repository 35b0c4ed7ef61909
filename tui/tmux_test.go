package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crmem/crmem/internal/testbin"
	"github.com/crmem/crmem/store"
)

// The tests in this file drive the real binary in tmux; they are skipped
// only when tmux is not installed.

// tmuxEnv is one isolated tmux server running crmem.
type tmuxEnv struct {
	t      *testing.T
	socket string
	home   string
}

// buildBinary returns crmem built for this package's tests: built the first
// time a test asks (a link of the whole binary, seconds of CPU, shared with
// ./cli's tests through the build cache: see internal/testbin), then the
// same file for every test. A test must not change the file.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin, err := sharedBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// binCleanup releases what sharedBinary built, called by TestMain when the
// tests end (nothing, when the binary is the build cache's).
var binCleanup = func() {}

// sharedBinary builds crmem once.
var sharedBinary = sync.OnceValues(func() (string, error) {
	bin, cleanup, err := testbin.Build("..")
	if err != nil {
		return "", err
	}
	binCleanup = cleanup
	return bin, nil
})

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

// testMain runs the tests, then releases buildBinary's binary. The collector runs at a fifth of its default rate: the
// tests' heap is small (some 30 MB) and churns fast: at the default, the
// overlay tests spent a fifth more CPU time (4.4 against 3.5 s; no test here
// bounds the live heap; render_bound_test counts allocated bytes, which
// this does not change).
func testMain(m *testing.M) int {
	debug.SetGCPercent(400)
	defer func() { binCleanup() }()
	return m.Run()
}

// requireTmux skips the test, saying why, when tmux is not installed:
// `go test -v ./tui` then lists each skipped terminal test with the reason.
func requireTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("skipped: tmux is not installed and this test drives crmem in a terminal through it (install tmux to run it)")
	}
}

// newTmux starts a private tmux server; it is killed when the test ends.
func newTmux(t *testing.T) *tmuxEnv {
	t.Helper()
	requireTmux(t)
	e := &tmuxEnv{t: t, socket: tmuxSocket(t), home: t.TempDir()}
	t.Cleanup(func() { exec.Command("tmux", "-S", e.socket, "kill-server").Run() })
	return e
}

// maxSocketPath keeps a socket path within every system's limit (104 bytes
// on macOS, 108 on Linux).
const maxSocketPath = 100

// tmuxSocket returns the path of a private tmux server's socket: in the
// test's temp folder, or, when TMPDIR makes that path too long for a
// socket, in a short folder of its own under /tmp; either is removed when
// the test ends (the server is killed first, as cleanups run last-in
// first-out).
func tmuxSocket(t *testing.T) string {
	t.Helper()
	if p := filepath.Join(t.TempDir(), "tmux.sock"); len(p) <= maxSocketPath {
		return p
	}
	dir, err := os.MkdirTemp("/tmp", "crmem-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "sock")
}

// tmux runs a tmux command on the private server.
func (e *tmuxEnv) tmux(args ...string) string {
	e.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", e.socket}, args...)...).CombinedOutput()
	if err != nil {
		e.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// start runs command in a new 120×40 session named s.
func (e *tmuxEnv) start(s, command string) {
	e.t.Helper()
	e.tmux("-f", "/dev/null", "new-session", "-d", "-s", s, "-x", "120", "-y", "40",
		"env", "HOME="+e.home, "TERM=xterm-256color", "sh", "-c", command+"; sleep 60")
}

// screen captures the pane's text.
func (e *tmuxEnv) screen(s string) string { return e.tmux("capture-pane", "-p", "-t", s) }

// keys sends tmux key names (or literal text with -l semantics when lit).
func (e *tmuxEnv) keys(s string, keys ...string) {
	e.tmux(append([]string{"send-keys", "-t", s}, keys...)...)
}

// text types literal text.
func (e *tmuxEnv) text(s, text string) { e.tmux("send-keys", "-t", s, "-l", text) }

// waitFor polls the screen until ok holds or the deadline passes.
func (e *tmuxEnv) waitFor(s string, within time.Duration, what string, ok func(string) bool) time.Duration {
	e.t.Helper()
	start := time.Now()
	var last string
	for time.Since(start) < within {
		if last = e.screen(s); ok(last) {
			return time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("%s: not seen within %v; screen:\n%s", what, within, last)
	return 0
}

// contains is a waitFor predicate; white space is ignored, so a message
// the status line wrapped over two lines still matches.
func contains(subs ...string) func(string) bool {
	return func(screen string) bool {
		for _, s := range subs {
			if !strings.Contains(squeeze(screen), squeeze(s)) {
				return false
			}
		}
		return true
	}
}

// searchCleared holds once the search is gone from the screen: the header
// invites a search again and the status counts no hits. The wait has to be
// for that, not for the absence of a word: an intermediate frame drawn while
// the query was still being typed lacks it too, and a key sent right after an
// Escape the program has not read yet arrives as alt+key.
func searchCleared(screen string) bool {
	return strings.Contains(screen, "search (press /)") && !strings.Contains(screen, " hit")
}

// cardTitle returns the name in the preview card's first line.
func cardTitle(screen string) string {
	lines := strings.Split(screen, "\n")
	if len(lines) < 3 {
		return ""
	}
	_, after, ok := strings.Cut(lines[2], "││ ") // the preview has the focus
	if !ok {
		if _, after, ok = strings.Cut(lines[2], "┃│ "); !ok { // the list has it
			return ""
		}
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(after), "│"))
}

func TestTmux_SearchFollowsAndSanitizes(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	e.start("s", bin+" "+path)
	e.waitFor("s", 5*time.Second, "first screen", contains("final-note", "22 notes"))

	// Search: the reference's top hit for "pool timeout" is long-note.
	e.keys("s", "/")
	e.text("s", "pool timeout ")
	e.keys("s", "Enter")
	e.waitFor("s", 5*time.Second, "top hit", func(s string) bool {
		return cardTitle(s) == "long-note" && strings.Contains(s, "hits") && strings.Contains(s, "open preview")
	})

	// External writes: the list follows, the selection stays on long-note.
	e.keys("s", "Escape")
	e.waitFor("s", 5*time.Second, "search cleared", searchCleared)
	apply(t, path,
		store.Add{Name: "external-note", Content: "written by the agent"},
		store.Remove{Name: "scratch"},
		store.Write{Name: "final-note", Content: "changed"},
	)
	took := e.waitFor("s", time.Second, "reload", contains("external-note", "reloaded: +1 external-note · −1 scratch · ~1 final-note"))
	t.Logf("external write to updated screen: %v (including polling granularity)", took)
	if got := cardTitle(e.screen("s")); got != "long-note" {
		t.Errorf("selection after reload: %q, want long-note", got)
	}

	// A corrupt file: warning, old entries kept.
	bad, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "bad", "truncated-mid-entry.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	e.waitFor("s", 5*time.Second, "corrupt-file warning", contains("truncated body", "external-note", "final-note"))
}

func TestTmux_TitleSequenceIsNotPassedThrough(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "title\x1b]2;pwned-name\x07", CreatedAt: 1767265200, Aliases: []string{},
		Content: "before \x1b]2;pwned\x07 after &#27;]2;pwned-entity&#7; end"}})

	// Control: tmux does take titles from OSC 2 in this setup.
	e.start("probe", `printf '\033]2;probe-title\007'`)
	e.waitFor("probe", 5*time.Second, "probe title", func(string) bool {
		return strings.TrimSpace(e.tmux("display", "-p", "-t", "probe", "#{pane_title}")) == "probe-title"
	})

	e.start("s", bin+" "+path)
	e.tmux("select-pane", "-t", "s", "-T", "original")
	// The preview's rendering is the last output: the search line counts
	// its lines ("preview lines 1-…") only once it replaced the plain text
	// shown meanwhile, so by then tmux has read every sequence drawn.
	e.waitFor("s", 5*time.Second, "entry rendered", contains("before", "after", "end", "preview lines"))
	if title := strings.TrimSpace(e.tmux("display", "-p", "-t", "s", "#{pane_title}")); title != "original" {
		t.Errorf("pane title changed to %q", title)
	}
}
