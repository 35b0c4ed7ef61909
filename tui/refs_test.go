package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

func TestRefs_BadgesAndCardOnFixture(t *testing.T) {
	h := newEditHarness(t, copyFixture(t, "crmem/small.db"))
	badges := map[string]string{}
	for _, e := range h.m.Entries() {
		if b := ansi.Strip(h.f.RowBadge(h.m, e)); b != "" {
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
	if b := ansi.Strip(h.f.RowBadge(h.m, e)); b != " ↺1" {
		t.Fatalf("badge %q: a marker naming an alias resolves to the entry", b)
	}
	press(h.m, "d")
	h.wantOverlay("1 session loses its resume point: chat")
	press(h.m, "esc", "r")
	h.wantOverlay("⚠ 1 session names it by this name")
}
