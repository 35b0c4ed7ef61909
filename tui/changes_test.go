package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// rowText is the plain text of the list row showing name.
func rowText(m *Model, name string) string {
	for _, l := range strings.Split(plainScreen(m), "\n") {
		left, _, _ := strings.Cut(l, "│")
		left, _, _ = strings.Cut(left, "┃") // the separator of a focused list
		if strings.Contains(left, " "+name+" ") {
			return left
		}
	}
	return ""
}

// TestChanges_StatusNamesWhatChanged: the status line names the entries a
// reload added, removed and changed; many changes give counts and the
// first names.
func TestChanges_StatusNamesWhatChanged(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	apply(t, path, store.Add{Name: "zz-new-archive", Kind: store.Archive, Content: "x"}, store.Write{Name: "deploy-steps", Content: "changed"})
	reload(m)
	if want := "reloaded: +1 zz-new-archive · ~1 deploy-steps"; m.st.msg != want {
		t.Errorf("status %q, want %q", m.st.msg, want)
	}
	var ops []store.Op
	for i := range 12 {
		ops = append(ops, store.Add{Name: fmt.Sprintf("bulk-%02d", i), Content: "x"})
	}
	ops = append(ops, store.Remove{Name: "scratch"}, store.Remove{Name: "empty-note"}, store.Remove{Name: "hindi-test"}, store.Write{Name: "rust-style", Content: "y"})
	apply(t, path, ops...)
	reload(m)
	if want := "reloaded: +12 −3 ~1: +bulk-11, +bulk-10, +bulk-09 …"; m.st.msg != want {
		t.Errorf("status %q, want %q", m.st.msg, want)
	}
}

// TestChanges_MarkedUntilSeen: added and changed entries carry + and ~ in
// the list until selected; `.` goes to the most recent unseen change.
func TestChanges_MarkedUntilSeen(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	sel := selectedName(m)
	apply(t, path, store.Add{Name: "zz-new-archive", Kind: store.Archive, Content: "x"})
	apply(t, path, store.Write{Name: "deploy-steps", Content: "changed"})
	reload(m)
	if got := selectedName(m); got != sel {
		t.Fatalf("reload moved the selection to %q", got)
	}
	if r := rowText(m, "zz-new-archive"); !strings.HasPrefix(r, "+") {
		t.Errorf("added row %q not marked +", r)
	}
	press(m, "G") // deploy-steps is the oldest: at the bottom of the newest-first list
	if selectedName(m) != "deploy-steps" {
		t.Fatalf("G selected %q", selectedName(m))
	}
	press(m, "k")
	if r := rowText(m, "deploy-steps"); strings.HasPrefix(r, "~") {
		t.Errorf("changed row %q still marked after being selected", r)
	}
	if r := rowText(m, "zz-new-archive"); !strings.HasPrefix(r, "+") {
		t.Errorf("unseen row %q lost its mark", r)
	}
	press(m, ".")
	if selectedName(m) != "zz-new-archive" {
		t.Errorf(". selected %q, want zz-new-archive", selectedName(m))
	}
	if r := rowText(m, "zz-new-archive"); strings.HasPrefix(r, "+") {
		t.Errorf("row %q still marked after .", r)
	}
}

// TestChanges_DotJumpsWhateverSortAndScroll: `.` reaches the latest change
// from the bottom of a list sorted by name, and says so when a filter hides
// it.
func TestChanges_DotJumpsWhateverSortAndScroll(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 100, 12)
	press(m, "s", "s") // name
	if m.list.Order != sortName {
		t.Fatalf("order %v", m.list.Order)
	}
	press(m, "G")
	apply(t, path, store.Write{Name: "commit-format", Content: "new format"})
	reload(m)
	press(m, ".")
	if selectedName(m) != "commit-format" {
		t.Fatalf(". selected %q", selectedName(m))
	}
	if c := m.list.Cursor(); c < m.list.Offset() || c >= m.list.Offset()+m.bodyHeight() {
		t.Errorf("cursor %d off screen (offset %d, height %d)", c, m.list.Offset(), m.bodyHeight())
	}
	apply(t, path, store.Add{Name: "agent-archive", Kind: store.Archive, Content: "x"})
	reload(m)
	press(m, "2") // notes only: the archive is hidden
	before := selectedName(m)
	press(m, ".")
	if selectedName(m) != before || !strings.Contains(m.st.msg, "agent-archive is not listed") {
		t.Errorf("hidden change: selected %q, status %q", selectedName(m), m.st.msg)
	}
}

// TestChanges_Log: c lists this session's reloads, newest first, with time
// and counts; enter jumps to an entry that exists and refuses a gone one.
func TestChanges_Log(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	press(m, "c")
	if m.chg.log.Open() || !strings.Contains(m.st.msg, "no reloads") {
		t.Fatalf("empty log opened (%q)", m.st.msg)
	}
	apply(t, path, store.Add{Name: "first-add", Content: "x"})
	reload(m)
	apply(t, path, store.Remove{Name: "scratch"}, store.Write{Name: "rust-style", Content: "y"})
	reload(m)
	press(m, "c")
	screen := plainScreen(m)
	for _, want := range []string{"Reloads this session", "12:00:00  +0 −1 ~1", "12:00:00  +1 −0 ~0", "~ rust-style", "− scratch  (gone)", "+ first-add"} {
		if !strings.Contains(screen, want) {
			t.Errorf("log lacks %q:\n%s", want, screen)
		}
	}
	if strings.Index(screen, "rust-style") > strings.Index(screen, "first-add") {
		t.Errorf("log not newest first")
	}
	press(m, "q") // closes the log, does not quit
	if m.chg.log.Open() {
		t.Fatal("q did not close the log")
	}
	press(m, "c", "j", "enter") // second row: scratch, gone
	if !m.chg.log.Open() || !strings.Contains(m.st.msg, "scratch no longer exists") {
		t.Errorf("enter on a gone entry: open %v, status %q", m.chg.log.Open(), m.st.msg)
	}
	press(m, "j", "enter")
	if m.chg.log.Open() || selectedName(m) != "first-add" {
		t.Errorf("enter on first-add: open %v, selected %q", m.chg.log.Open(), selectedName(m))
	}
}

// TestChanges_LogKeepsItsRowWhenAReloadArrives: a reload while the log is
// open puts its rows on top; the cursor stays on the entry it was on.
func TestChanges_LogKeepsItsRowWhenAReloadArrives(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	apply(t, path, store.Add{Name: "first-add", Content: "x"})
	reload(m)
	press(m, "c")
	apply(t, path, store.Add{Name: "second-add", Content: "x"}, store.Add{Name: "third-add", Content: "x"})
	reload(m)
	press(m, "enter")
	if selectedName(m) != "first-add" {
		t.Errorf("enter after a reload selected %q, want first-add", selectedName(m))
	}
}

// TestChanges_ShortHelpNamesUnseen: while changes are unseen the short
// help starts with ". N unseen changes"; it goes once they are seen.
func TestChanges_ShortHelpNamesUnseen(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	short := func() string { s := strings.Split(plainScreen(m), "\n"); return s[len(s)-1] }
	if strings.Contains(short(), "unseen") {
		t.Fatalf("hint before any reload: %q", short())
	}
	apply(t, path, store.Add{Name: "a-new", Content: "x"}, store.Add{Name: "b-new", Content: "x"})
	reload(m)
	if !strings.HasPrefix(short(), ". 2 unseen changes") {
		t.Errorf("short help %q", short())
	}
	press(m, ".", ".")
	if strings.Contains(short(), "unseen") {
		t.Errorf("hint after both were seen: %q", short())
	}
}

// TestChanges_LogLastKeyReachesTheOldest: G goes to the log's oldest entry
// and g to the newest, whatever the list's length, and the last page of
// the log fills the pane down to its last row. G moved the cursor by the
// list's length (6 rows with the archives listed), and the window stopped
// one row short of the end, leaving the pane's last row blank.
func TestChanges_LogLastKeyReachesTheOldest(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 100, 16)
	press(m, "3") // archives: a short list
	for i := range 12 {
		apply(t, path, store.Add{Name: fmt.Sprintf("added-%02d", i), Content: "x"})
		reload(m)
	}
	press(m, "c", "G")
	if last := m.chg.log.Rows() - 1; m.chg.log.Cursor() != last {
		t.Fatalf("G: cursor on row %d of %d, want the last (the list has %d rows)", m.chg.log.Cursor(), m.chg.log.Rows(), len(m.list.Rows()))
	}
	body := strings.Split(plainScreen(m), "\n")[bodyTop : bodyTop+m.bodyHeight()]
	if lastRow := strings.TrimSpace(body[len(body)-1]); !strings.Contains(lastRow, "added-00") {
		t.Fatalf("the pane's last row is %q, want the oldest entry, added-00:\n%s", lastRow, strings.Join(body, "\n"))
	}
	press(m, "g")
	if m.chg.log.Cursor() != 1 { // row 0 is the newest reload's heading
		t.Fatalf("g: cursor on row %d, want 1", m.chg.log.Cursor())
	}
}

// TestChanges_HintOnlyWhereDotWorks: the ". N unseen changes" hint is on
// the help line of the list and the preview, where `.` goes there, and
// not while a query is typed or the help is open (the hint moved from the
// root to the reload log's part; it reads whether `.` is live).
func TestChanges_HintOnlyWhereDotWorks(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	short := func() string { s := strings.Split(plainScreen(m), "\n"); return s[len(s)-1] }
	apply(t, path, store.Add{Name: "a-new", Content: "x"})
	reload(m)
	for _, s := range []struct {
		keys []string
		hint bool
	}{{nil, true}, {[]string{"tab"}, true}, {[]string{"/"}, false}, {[]string{"esc", "?"}, false}, {[]string{"esc", "i"}, false}} {
		press(m, s.keys...)
		if got := strings.HasPrefix(short(), ". 1 unseen change"); got != s.hint {
			t.Errorf("after %v (%v): hint %v, want %v: %q", s.keys, m.top(), got, s.hint, short())
		}
	}
}
