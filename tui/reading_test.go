package tui

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// pressCollect presses a key and returns every message its commands
// produced (they are fed to the model as drive does).
func pressCollect(m *Model, name string) []tea.Msg {
	var seen []tea.Msg
	k := keyMsg(name)
	queue := []tea.Cmd{func() tea.Msg { return k }}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		seen = append(seen, msg)
		switch msg := msg.(type) {
		case nil, tea.QuitMsg, tea.SuspendMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
	return seen
}

// raws returns what the messages print raw to the terminal.
func raws(msgs []tea.Msg) []string {
	var out []string
	for _, msg := range msgs {
		if r, ok := msg.(tea.RawMsg); ok {
			out = append(out, r.Msg.(string))
		}
	}
	return out
}

// evilModel opens a memory whose entry carries terminal sequences.
func evilModel(t *testing.T) (*Model, store.Entry) {
	t.Helper()
	e := store.Entry{ID: 1, Name: "evil\x1b]0;title\x07-name", Kind: store.Note, CreatedAt: uint64(testNow.Unix()) - 60,
		Content: "line one\n\x1b]52;c;ZXZpbA==\x07hidden \x1b[31mred\x1b[0m\ttab\nend \u009b2J"}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{e})
	return openModel(t, path, 120, 30), e
}

// TestCopy_OSC52: y and Y emit exactly one OSC 52 sequence whose payload is
// the base64 of the name itself (issue 29 item 5: what `crmem show` finds
// it by, not its display form) / the content as shown; nothing goes out
// raw, and the status line says what was copied, its size, and how it
// differs from what the screen shows.
func TestCopy_OSC52(t *testing.T) {
	tests := []struct {
		key, want, status string
	}{
		{"y", "evil\x1b]0;title\x07-name", "copied the name evil⟨U+001B⟩]0;title⟨U+0007⟩-name (19 bytes: the name itself, without the ⟨…⟩ markers shown)"},
		{"Y", "line one\n⟨U+001B⟩]52;c;ZXZpbA==⟨U+0007⟩hidden ⟨U+001B⟩[31mred⟨U+001B⟩[0m\ttab\nend ⟨U+009B⟩2J",
			"copied the content of evil⟨U+001B⟩]0;title⟨U+0007⟩-name (111 bytes: as shown, invisible characters as ⟨U+…⟩ markers)"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			m, _ := evilModel(t)
			out := raws(pressCollect(m, tt.key))
			if len(out) != 1 {
				t.Fatalf("%d raw writes, want 1: %q", len(out), out)
			}
			want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(tt.want)) + "\x07"
			if out[0] != want {
				t.Errorf("emitted %q, want %q", out[0], want)
			}
			if strings.Count(out[0], "\x1b") != 1 || strings.Count(out[0], "\x07") != 1 || strings.ContainsAny(out[0], "\n\t\u009b") {
				t.Errorf("raw text leaked into %q", out[0])
			}
			if m.st.msg != tt.status {
				t.Errorf("status %q, want %q", m.st.msg, tt.status)
			}
		})
	}
}

// TestCopy_PlainNameSaysNothingMore: a name that shows as itself is copied
// without a word on how it differs.
func TestCopy_PlainNameSaysNothingMore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{{ID: 1, Name: "plain-name", Content: "x", CreatedAt: 1_700_000_000}})
	m := openModel(t, path, 120, 30)
	out := raws(pressCollect(m, "y"))
	if len(out) != 1 || out[0] != "\x1b]52;c;"+base64.StdEncoding.EncodeToString([]byte("plain-name"))+"\x07" {
		t.Errorf("emitted %q", out)
	}
	if m.st.msg != "copied the name plain-name (10 bytes)" {
		t.Errorf("status %q", m.st.msg)
	}
}

// TestCopy_NothingSelected says so and emits nothing.
func TestCopy_NothingSelected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, nil)
	m := openModel(t, path, 100, 20)
	if out := raws(pressCollect(m, "y")); len(out) != 0 || !strings.Contains(m.st.msg, "nothing selected") {
		t.Errorf("raw %q, status %q", out, m.st.msg)
	}
}

// TestPager: v runs $PAGER (with arguments) on the sanitized content (the
// text of escape sequences shown, their ESC and BEL as markers)
// through its standard input; a failing pager is reported; no $PAGER means
// less -R.
func TestPager(t *testing.T) {
	m, _ := evilModel(t)
	dir := t.TempDir()
	got := filepath.Join(dir, "paged")
	m.read.pager = "sh -c 'cat > \"$0\"' " + got
	var ran *exec.Cmd
	m.read.exec = func(c *exec.Cmd, done tea.ExecCallback) tea.Cmd {
		ran = c
		err := c.Run()
		return func() tea.Msg { return done(err) }
	}
	press(m, "v")
	if ran == nil || ran.Args[0] != "sh" {
		t.Fatalf("pager not run: %v", ran)
	}
	data, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	// issue 29 item 4: what the escapes held is shown, neutralised
	if string(data) != "line one\n⟨U+001B⟩]52;c;ZXZpbA==⟨U+0007⟩hidden ⟨U+001B⟩[31mred⟨U+001B⟩[0m\ttab\nend ⟨U+009B⟩2J" {
		t.Errorf("pager read %q", data)
	}
	m.read.pager = "sh -c 'exit 3'"
	press(m, "v")
	if !strings.Contains(m.st.msg, "pager: exit status 3") {
		t.Errorf("failing pager: status %q", m.st.msg)
	}
	if argv, _ := pagerArgv(""); !slices.Equal(argv, []string{"less", "-R"}) {
		t.Errorf("default pager %v", argv)
	}
	if _, err := pagerArgv("less 'unclosed"); err == nil {
		t.Error("an unsplittable $PAGER was accepted")
	}
}

// TestZoom: z gives the preview the full width and back.
func TestZoom(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 30)
	listW := m.c.listWidth()
	press(m, "z")
	if !m.read.zoom || m.previewWidth() != 120 || strings.Contains(strings.Split(plainScreen(m), "\n")[2], "│╭") {
		t.Fatalf("zoom: %v, preview width %d", m.read.zoom, m.previewWidth())
	}
	if m.focus != focusPreview {
		t.Error("zoom did not focus the preview")
	}
	press(m, "z")
	if m.read.zoom || m.previewWidth() != 120-listW-1 || m.focus != focusList {
		t.Errorf("unzoom: preview width %d, focus %v", m.previewWidth(), m.focus)
	}
}

// TestZoom_ListKeysLeaveIt: a key that focuses the list (esc, tab, /)
// while zoomed ends the zoom, so the focused list is on screen rather than
// moved out of sight behind the full-width preview.
func TestZoom_ListKeysLeaveIt(t *testing.T) {
	for _, k := range []string{"esc", "tab", "/"} {
		m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 30)
		listW := m.c.listWidth()
		press(m, "z")
		press(m, k)
		if m.focus != focusList || m.read.zoom || m.previewWidth() != 120-listW-1 {
			t.Errorf("z then %s: focus %v, zoom %v, preview width %d", k, m.focus, m.read.zoom, m.previewWidth())
		}
		if rowText(m, selectedName(m)) == "" {
			t.Errorf("z then %s: the selected row %q is not on screen", k, selectedName(m))
		}
	}
}

// TestMatchJumps: ] and [ move the preview between lines with highlighted
// matches.
func TestMatchJumps(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 20)
	press(m, "/")
	typeText(m, "long-note")
	press(m, "enter")
	if selectedName(m) != "long-note" {
		t.Fatalf("selected %q", selectedName(m))
	}
	press(m, "esc", "/")
	typeText(m, "pool ")
	press(m, "enter")
	for selectedName(m) != "long-note" {
		press(m, "j")
	}
	var lines []int // the preview's lines holding a highlighted match
	for i, l := range strings.Split(m.pv.Content(), "\n") {
		if strings.Contains(l, m.c.styles.highlight) {
			lines = append(lines, i)
		}
	}
	if len(lines) < 3 {
		t.Fatalf("only %d match lines", len(lines))
	}
	var ys []int
	for range 3 {
		press(m, "]")
		ys = append(ys, m.pv.Offset())
	}
	for i, y := range ys {
		if !slices.Contains(lines, y) || i > 0 && y <= ys[i-1] {
			t.Errorf("] offsets %v, match lines %v", ys, lines)
			break
		}
	}
	press(m, "[")
	if m.pv.Offset() != ys[1] {
		t.Errorf("[ went to %d, want %d", m.pv.Offset(), ys[1])
	}
}

// TestPositionAndScroll: the header shows the list position and the
// preview's scroll state.
func TestPositionAndScroll(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 20)
	head := func() string { return strings.Split(plainScreen(m), "\n")[0] }
	if !strings.Contains(head(), "1/26") {
		t.Errorf("header %q lacks 1/26", head())
	}
	press(m, "j", "j")
	if !strings.Contains(head(), "3/26") {
		t.Errorf("header %q lacks 3/26", head())
	}
	for selectedName(m) != "long-note" {
		press(m, "j")
	}
	lines := func() (first, last, total int) {
		t.Helper()
		h := head()
		i := strings.Index(h, "preview lines ")
		if i < 0 {
			t.Fatalf("header %q has no preview lines", h)
		}
		if _, err := fmt.Sscanf(h[i:], "preview lines %d-%d/%d", &first, &last, &total); err != nil {
			t.Fatalf("header %q: %v", h, err)
		}
		return first, last, total
	}
	if first, last, total := lines(); first != 1 || last >= total {
		t.Errorf("long-note at the top: lines %d-%d/%d", first, last, total)
	}
	press(m, "tab", "pgdown")
	if first, _, _ := lines(); first <= 1 {
		t.Errorf("after pgdown the header %q still starts at line 1", head())
	}
	press(m, "G")
	if _, last, total := lines(); last != total {
		t.Errorf("at the end: header %q", head())
	}
}

// TestSuspend: ctrl+z suspends from the list, the search line, the help,
// the date prompt and the reload log.
func TestSuspend(t *testing.T) {
	for _, setup := range [][]string{nil, {"/"}, {"?"}, {"f"}, {"tab"}} {
		m := openModel(t, copyFixture(t, "crmem/small.db"), 100, 20)
		m.setEditing(newEditingPart(Options{Path: m.path}))
		press(m, setup...)
		_, cmd := m.Update(keyMsg("ctrl+z"))
		if !suspends(cmd) {
			t.Errorf("after %v: ctrl+z did not suspend", setup)
		}
	}
}

// suspends reports whether cmd hands the terminal over to suspendCmd's
// stop-until-continued (a tea.Exec of a settledCommand), or is tea.Suspend
// where signals are not available.
func suspends(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	msg := cmd()
	if _, ok := msg.(tea.SuspendMsg); ok {
		return true
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Struct || v.Type().String() != "tea.execMsg" {
		return false
	}
	c := v.FieldByName("cmd")
	return c.IsValid() && !c.IsNil() && c.Elem().Type() == reflect.TypeFor[*settledCommand]()
}

// TestCopy_TooLargeForOSC52 pins issue 17 item 12: Y said "copied" for a
// 1 MB entry that never reached the clipboard (terminals drop OSC 52
// sequences over about 100 kB). Above the limit nothing is sent and the
// status says it is too large, with the limit, the pager and a command
// that copies it; at the limit the copy goes out.
func TestCopy_TooLargeForOSC52(t *testing.T) {
	fits := strings.Repeat("x", base64.StdEncoding.DecodedLen(maxOSC52-len(osc52(""))))
	tests := []struct {
		name, content string
		copied        bool
	}{
		{"big note", strings.Repeat("0123456789abcdef", 1<<16), false}, // 1 MiB
		{"fits", fits, true},
		{"one-more", fits + "xyz", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "memory.db")
			writeEntries(t, path, []store.Entry{{ID: 1, Name: tt.name, CreatedAt: uint64(testNow.Unix()), Content: tt.content}})
			m := openModel(t, path, 120, 30)
			out := raws(pressCollect(m, "Y"))
			if tt.copied {
				if len(out) != 1 || len(out[0]) > maxOSC52 || !strings.HasPrefix(m.st.msg, "copied the content") {
					t.Fatalf("%d raw writes (%d bytes), status %q; want the copy", len(out), len(strings.Join(out, "")), m.st.msg)
				}
				return
			}
			if len(out) != 0 {
				t.Fatalf("sent %d bytes of OSC 52 for a copy too large", len(strings.Join(out, "")))
			}
			for _, want := range []string{"not copied: " + humanize.Size(len(tt.content)) + " is over the 100 kB", "OSC 52", "v pages it",
				"crmem show --db " + shellPath(path) + " " + shellWord(tt.name) + " | pbcopy"} {
				if !strings.Contains(m.st.msg, want) {
					t.Errorf("status %q, want it to say %q", m.st.msg, want)
				}
			}
		})
	}
}

// TestShellWord quotes what a shell would split or expand.
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"deploy-steps": "deploy-steps", "big note": "'big note'", "it's": `'it'\''s'`,
		"$HOME": "'$HOME'", "": "''", "a/b.db": "a/b.db",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
	if got := shellPath("~/my notes/memory.db"); got != "~/'my notes/memory.db'" {
		t.Errorf("shellPath = %s", got)
	}
}
