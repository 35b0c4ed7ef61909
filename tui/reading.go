package tui

import (
	"fmt"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
)

// readingState is what the reading keys keep: the zoomed preview, the
// pager command, and the runner that hands the terminal over.
type readingState struct {
	zoom  bool
	from  focus                                     // the pane focused before zooming, focused again after
	pager string                                    // $PAGER; "" for less -R
	exec  func(*exec.Cmd, tea.ExecCallback) tea.Cmd // nil: execProcess; tests replace it
}

// pagerDoneMsg says the pager exited.
type pagerDoneMsg struct{ err error }

// osc52 is the sequence that sets the terminal's clipboard to text: the
// text is base64-encoded, so nothing in it reaches the terminal raw.
func osc52(text string) string { return ansi.SetSystemClipboard(text) }

// copyCmd copies text with OSC 52 (it works over ssh and in tmux). It is
// emitted as is, rather than through tea.SetClipboard, so its bytes are
// what the tests check.
func copyCmd(text string) tea.Cmd { return tea.Raw(osc52(text)) }

// maxOSC52 is the longest OSC 52 sequence sent, in bytes: terminals drop
// longer ones without a word (hterm and others stop at 100 kB; tmux and
// xterm have limits of their own), so a larger copy is refused and said
// to be, never reported as copied (issue 17: a 1 MB entry was "copied").
const maxOSC52 = 100_000

// copySelected copies the selected entry's name as it is (what `crmem
// show` and recall find it by), or its content as the screen shows it
// (invisible characters as ⟨U+…⟩ markers, never raw escape sequences), and
// says what was copied, that it differs from what the screen shows, or
// that it is too large for the terminal's clipboard and how else to get it.
func (m *Model) copySelected(content bool) tea.Cmd {
	e, ok := m.list.SelectedEntry(m.c.snap)
	if !ok {
		return m.setMessage("nothing selected to copy")
	}
	name := sanitize.Name(e.Name)
	what, text, differs := "the name "+name, e.Name, ""
	if name != e.Name {
		differs = ": the name itself, without the ⟨…⟩ markers shown"
	}
	if content {
		what, text, differs = "the content of "+name, sanitize.Text(e.Content), ""
		if text != e.Content {
			differs = ": as shown, invisible characters as ⟨U+…⟩ markers"
		}
	}
	if seq := osc52(text); len(seq) > maxOSC52 {
		return m.setMessage(fmt.Sprintf("not copied: %s is over the %d kB a terminal's clipboard takes (OSC 52); v pages it, or run: crmem show --db %s %s | pbcopy",
			humanize.Size(len(text)), maxOSC52/1000, shellPath(displayPath(m.path, m.home)), shellWord(e.Name)))
	}
	return tea.Batch(copyCmd(text), m.setMessage(fmt.Sprintf("copied %s (%s%s)", what, bytesText(len(text)), differs)))
}

// shellWord is s as one word of a POSIX shell: as is when it needs no
// quoting, else in single quotes.
func shellWord(s string) string {
	safe := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/+@%:,=", r))
	}) < 0
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellPath is a path shown with ~ for the home folder as one shell word
// that still expands the ~.
func shellPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return "~/" + shellWord(rest)
	}
	return shellWord(p)
}

// bytesText is "1 byte", "3,412 bytes".
func bytesText(n int) string { return humanize.Plural(n, "byte") }

// pagerArgv is $PAGER split into words, else less -R.
func pagerArgv(pager string) ([]string, error) {
	if strings.TrimSpace(pager) == "" {
		return []string{"less", "-R"}, nil
	}
	argv, err := editor.Split(pager)
	if err != nil || len(argv) == 0 {
		return nil, fmt.Errorf("$PAGER %q: cannot split it into a command", sanitize.Line(pager))
	}
	return argv, nil
}

// openPager shows the selected entry's content in the pager, the TUI
// suspended meanwhile and redrawn after, as after the editor. The pager
// reads the text on its standard input, escape sequences removed.
func (m *Model) openPager() tea.Cmd {
	e, ok := m.list.SelectedEntry(m.c.snap)
	if !ok {
		return m.setMessage("nothing selected to page")
	}
	argv, err := pagerArgv(m.read.pager)
	if err != nil {
		return m.setMessage(err.Error())
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(sanitize.Text(e.Content))
	run := m.read.exec
	if run == nil {
		run = execProcess // the editor's settled exec: the screen always comes back
	}
	return run(cmd, func(err error) tea.Msg { return pagerDoneMsg{err: err} })
}

// pagerDone reports a pager that failed; a clean exit says nothing.
func (m *Model) pagerDone(msg pagerDoneMsg) tea.Cmd {
	if msg.err == nil {
		return nil
	}
	return m.setMessage("pager: " + msg.err.Error())
}

// toggleZoom shows the preview alone at the full width, or both panes.
func (m *Model) toggleZoom() tea.Cmd {
	m.read.zoom = !m.read.zoom
	if m.read.zoom {
		m.read.from, m.focus = m.focus, focusPreview
	} else {
		m.focus = m.read.from
	}
	return m.showSelected()
}

// focusList focuses the list, ending the zoom that would keep it out of
// sight.
func (m *Model) focusList() {
	m.focus = focusList
	m.read.zoom = false
}

// jumpMatch scrolls the preview to the next (dir 1) or previous (dir -1)
// line with a highlighted match, and says where it went.
func (m *Model) jumpMatch(dir int) tea.Cmd {
	return m.do(m.pv.JumpMatch(m.ctx(), dir, m.result != nil))
}
