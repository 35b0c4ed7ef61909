//go:build unix

package cli

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeScreenIntro is the sentence the documentation (README.md or a page
// under docs/) puts before the screen as text.
const readmeScreenIntro = "at 100×30 after typing `/rollout` and `enter`:\n\n```text\n"

// What differs from run to run on the demo's screen, and is masked when
// the documentation's text is compared with it: the dates (the demo's entries are
// dated relative to the day it runs), the search's time, and the path of
// the demo's copy (shown as readers would see it in /tmp).
var (
	screenDate   = regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC`)
	screenTiming = regexp.MustCompile(` in [0-9.]+ ?(ns|µs|ms|s) │`)
	screenPath   = regexp.MustCompile(`│ \S*memory\.db\n`)
)

// readmeDemoPath is the demo copy's path the documentation's screen shows.
const readmeDemoPath = "│ /tmp/crmem-demo-2718281828/memory.db\n"

// maskScreen is s with what differs from run to run masked.
func maskScreen(s string) string {
	s = screenDate.ReplaceAllString(s, "YYYY-MM-DD hh:mm UTC")
	s = screenTiming.ReplaceAllString(s, " in TIME │")
	return screenPath.ReplaceAllString(s, "│ PATH\n")
}

// TestReadme_ScreenText: the screen as text that the documentation shows
// (README.md or a page under docs/) is what `crmem --demo` shows at 100×30
// after /rollout and enter, in a real terminal (tmux), but for the dates;
// -update-readme rewrites it from the screen.
func TestReadme_ScreenText(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: drives crmem in a terminal")
	}
	var page docPage
	for _, p := range docPages(t) {
		if strings.Contains(p.text, readmeScreenIntro) {
			if page.path != "" {
				t.Fatalf("%s and %s both show the screen as text", page.path, p.path)
			}
			page = p
		}
	}
	if page.path == "" {
		t.Fatalf("no page of README.md and docs/ has %q", readmeScreenIntro)
	}
	readme := page.text
	start := strings.Index(readme, readmeScreenIntro) + len(readmeScreenIntro)
	end := strings.Index(readme[start:], "```\n")
	if end < 0 {
		t.Fatalf("%s: the screen text has no end", page.path)
	}
	end += start
	screen := screenPath.ReplaceAllString(demoScreen(t, 100, 30), readmeDemoPath)
	if maskScreen(readme[start:end]) == maskScreen(screen) {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(page.path, []byte(readme[:start]+screen+readme[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the screen text differs from crmem --demo's screen (go test ./cli -run TestReadme_ScreenText -update-readme rewrites it); the screen:\n%s", page.path, screen)
}

// demoScreen is `crmem --demo`'s screen at w×h after /rollout and enter,
// each line with its trailing blanks cut.
func demoScreen(t *testing.T, w, h int) string {
	tm := newPrivateTmux(t)
	tm.run("new-session", "-d", "-s", "s", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h),
		"env", "HOME="+testHome, "TERM=xterm-256color", "TMPDIR="+t.TempDir(), "CRMEM_CONFIG=/nonexistent", crmemBin, "--demo")
	capture := func() string { return tm.run("capture-pane", "-p", "-t", "s") }
	waitFor(t, "the list", func() bool { return strings.Contains(capture(), "(press /)") })
	tm.run("send-keys", "-t", "s", "/")
	tm.run("send-keys", "-t", "s", "-l", "rollout")
	waitFor(t, "the hits", func() bool { return strings.Contains(capture(), "name matches (1)") })
	tm.run("send-keys", "-t", "s", "Enter")
	// The preview renders, and the sessions (recalled counts) are read, in
	// the background: wait until both show and the screen has stayed the
	// same for a while.
	var last string
	same := 0
	waitFor(t, "a settled screen", func() bool {
		s := capture()
		if s == last && strings.Contains(s, "Deploying the billing service") && strings.Contains(s, "recorded recalls") {
			same++
		} else {
			same = 0
		}
		last = s
		return same >= 6
	})
	var out strings.Builder
	for _, l := range strings.Split(strings.TrimRight(last, "\n"), "\n") {
		out.WriteString(strings.TrimRight(l, " ") + "\n")
	}
	return out.String()
}
