package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

// TestStats_PanelMasksSecretsInNames pins issue 30 item 2 for the screen's
// stats panel, a report like `crmem stats`: an entry whose name holds a
// token was listed whole among the biggest entries; it shows redacted.
func TestStats_PanelMasksSecretsInNames(t *testing.T) {
	const token = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "tok " + token, Kind: store.Note, CreatedAt: uint64(testNow.Unix()) - 86400, Content: strings.Repeat("a long note ", 400)},
		{ID: 2, Name: "small", Kind: store.Note, CreatedAt: uint64(testNow.Unix()) - 86400, Content: "small"},
	})
	m := openModel(t, path, 120, 40)
	press(m, "i")
	drive(m, m.sp.Refresh(m.ctx(), m.statsOfNow()))
	scr := plainScreen(m)
	if !strings.Contains(scr, "Memory stats") || !strings.Contains(scr, "tok ") {
		t.Fatalf("the panel does not list the entry:\n%s", scr)
	}
	if strings.Contains(scr, token) {
		t.Fatalf("the stats panel prints the token whole:\n%s", scr)
	}
}

// TestWhy_PanelMasksSecrets: the why panel, a report like `crmem search
// --why`, lists the recall's hits by name; a name holding a token shows
// it redacted.
func TestWhy_PanelMasksSecrets(t *testing.T) {
	const token = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "tok " + token, Kind: store.Note, CreatedAt: uint64(testNow.Unix()) - 86400, Content: "deploy the billing service"},
		{ID: 2, Name: "deploy-steps", Kind: store.Note, CreatedAt: uint64(testNow.Unix()) - 86400, Content: "how we deploy"},
	})
	m, f := openWhy(t, path, 140, 40, "deploy")
	askWhy(m, "deploy-steps")
	if !f.Open() {
		t.Fatalf("no why panel; status %q", statusText(m))
	}
	panel := ansi.Strip(f.View(m.ctx(), m.c.width, m.bodyHeight()))
	if !strings.Contains(panel, "tok ") {
		t.Fatalf("the panel does not list the hit:\n%s", panel)
	}
	if strings.Contains(panel, token) {
		t.Fatalf("the why panel prints the token whole:\n%s", panel)
	}
}
