package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

func TestRefs_BadgesAndCardOnFixture(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	badges := map[string]string{}
	for _, e := range h.m.c.snap.entries {
		if b := ansi.Strip(h.m.sessionsBadge(e)); b != "" {
			badges[e.Name] = b
		}
	}
	want := map[string]string{
		"archive-sess-0001-1767300000000000000": " ↺1",
		"archive-sess-0002-1767400000000000000": " ∘1",
		"archive-sess-0004-1767600000000000000": " ↺1",
	}
	if len(badges) != len(want) {
		t.Fatalf("badges %q, want %q", badges, want)
	}
	for k, v := range want {
		if badges[k] != v {
			t.Errorf("badge of %s = %q, want %q", k, badges[k], v)
		}
	}
	h.sel("archive-sess-0001-1767300000000000000")
	if s := plainScreen(h.m); !strings.Contains(s, "sessions referenced by alice-deploy") || !strings.Contains(s, "resume point of alice-deploy") {
		t.Fatalf("card of a resume point:\n%s", s)
	}
	h.sel("archive-sess-0005-1767700000000000000")
	if s := plainScreen(h.m); !strings.Contains(s, "sessions none (orphan") {
		t.Fatalf("card of an orphan:\n%s", s)
	}
	if s := plainScreen(h.m); !strings.Contains(s, "↺1") {
		t.Fatalf("list shows no resume marker:\n%s", s)
	}
}

func TestRefs_OrphanFilter(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	press(h.m, "o")
	if got := listNames(h.m); !slices.Equal(got, []string{"archive-sess-0005-1767700000000000000"}) {
		t.Fatalf("orphan archives %v", got)
	}
	if !strings.Contains(statusText(h.m), "orphan archives only") {
		t.Fatalf("status does not show the filter: %q", statusText(h.m))
	}
	press(h.m, "o")
	if got := len(listNames(h.m)); got != 26 {
		t.Fatalf("%d entries listed after the filter is off, want 26", got)
	}
}

func TestRefs_RereadOnReload(t *testing.T) {
	path, _ := agedMemory(t)
	sess := t.TempDir()
	h := newEditHarnessIn(t, path, sess)
	press(h.m, "o")
	if n := len(listNames(h.m)); n != 10 {
		t.Fatalf("%d orphans before any session, want 10", n)
	}
	writeSession(t, sess, "chat", "archive-03")
	reload(h.m)
	if names := listNames(h.m); len(names) != 9 || slices.Contains(names, "archive-03") {
		t.Fatalf("orphans after the sessions folder changed: %v", names)
	}
}

func TestRefs_MarkerResolvesThroughAlias(t *testing.T) {
	path, _ := agedMemory(t)
	apply(t, path, store.SetAliases{Name: "archive-06", Aliases: []string{"sess-summary-6"}})
	sess := t.TempDir()
	writeSession(t, sess, "chat", "sess-summary-6")
	h := newEditHarnessIn(t, path, sess)
	e := h.sel("archive-06")
	if b := ansi.Strip(h.m.sessionsBadge(e)); b != " ↺1" {
		t.Fatalf("badge %q: a marker naming an alias resolves to the entry", b)
	}
	press(h.m, "d")
	h.wantOverlay("1 session loses its resume point: chat")
	press(h.m, "esc", "r")
	h.wantOverlay("⚠ 1 session names it by this name")
}

// TestRefs_DeleteWarnsWhileSessionsUnknown pins issue 27 item 4: when the
// sessions could not be read (one session folder unreadable fails the
// read), the delete dialog of a resume-point archive said nothing, as if
// no session resumed from it. It must say the sessions are not readable,
// and while they are still being read, that they are.
func TestRefs_DeleteWarnsWhileSessionsUnknown(t *testing.T) {
	path, _ := agedMemory(t)
	sess := t.TempDir()
	writeSession(t, sess, "chat", "archive-03")
	h := newEditHarnessIn(t, path, sess)
	h.m.refs.reader = failingSessions{errors.New("read session broken: permission denied")}
	drive(h.m, h.m.refs.read())
	h.sel("archive-03")
	press(h.m, "d")
	h.wantOverlay("cannot read the sessions in")
	h.wantOverlay("permission denied): a session may lose its resume point")
	press(h.m, "esc")

	h.m.refs.loaded = false // as before the first read comes back
	press(h.m, "d")
	h.wantOverlay("are still being read: a session may lose its resume point")
	press(h.m, "esc")

	h.sel("note-b")
	press(h.m, "d")
	if strings.Contains(plainOverlay(h.m), "resume point") {
		t.Fatalf("a note's delete warns of resume points:\n%s", plainOverlay(h.m))
	}
}

// failingSessions is a sessions reader whose every read fails.
type failingSessions struct{ err error }

func (f failingSessions) Read() ([]sessions.Session, error) { return nil, f.err }

func (f failingSessions) Recalls(sessions.RecallOptions, func(sessions.SessionRecalls) error) (sessions.RecallProblems, error) {
	return sessions.RecallProblems{}, f.err
}
