package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// TestTmux_FindingsView drives the findings view in a real terminal:
// open it, compare two duplicates, merge them, see an agent's fix remove
// the last finding, close it.
func TestTmux_FindingsView(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := hygieneMemory(t)
	e.start("s", bin+" "+path)
	e.waitFor("s", 5*time.Second, "first screen", contains("user-preferences"))
	e.keys("s", "L")
	e.waitFor("s", 5*time.Second, "findings", contains("Findings", "duplicate (1)", "secret (1)", "enter open"))
	if strings.Contains(e.screen("s"), fakeToken) {
		t.Fatalf("the secret is shown in full:\n%s", e.screen("s"))
	}
	e.keys("s", "Enter")
	e.waitFor("s", 5*time.Second, "side by side", contains("Duplicates side by side", "✓ kept", "deploy-checklist"))
	e.keys("s", "m")
	e.waitFor("s", 5*time.Second, "merge question", contains("merge: keep deploy-steps", "[y/n]"))
	e.keys("s", "y")
	e.waitFor("s", 5*time.Second, "merged", func(s string) bool {
		return strings.Contains(s, "merged deploy-checklist into deploy-steps") && !strings.Contains(s, "duplicate (")
	})
	apply(t, path, store.Write{Name: "ci-token", Content: "read from the vault"})
	e.waitFor("s", 5*time.Second, "the agent's fix", contains("nothing found"))
	e.keys("s", "Escape")
	e.waitFor("s", 5*time.Second, "view closed", func(s string) bool { return !strings.Contains(s, "Findings") })
}
