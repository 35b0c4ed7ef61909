package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
)

// fakeToken looks like a GitHub token to gitleaks' github-pat rule.
const fakeToken = "ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC2eF4hJ6"

// hygieneMemory writes a memory with one of each finding the view acts
// on: two exact duplicates, a token, and an ordinary note.
func hygieneMemory(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	at := uint64(testNow.Unix()) - 86400
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "deploy-steps", Kind: store.Note, CreatedAt: at, Aliases: []string{"ship"},
			Content: "Tag the release, run make release, promote after fifteen minutes of canary."},
		{ID: 2, Name: "deploy-checklist", Kind: store.Note, CreatedAt: at + 1, Aliases: []string{"release-list"},
			Content: "tag the release,  run make release, PROMOTE after fifteen minutes of canary."},
		{ID: 3, Name: "ci-token", Kind: store.Note, CreatedAt: at + 2, Aliases: []string{},
			Content: "The CI job reads\n" + fakeToken + "\nfrom the vault."},
		{ID: 4, Name: "user-preferences", Kind: store.Note, CreatedAt: at + 3, Aliases: []string{},
			Content: "Prefers small pull requests and dark mode."},
	})
	return path
}

// openFindings opens the view and checks its groups are shown.
func openFindingsView(t *testing.T, h *editHarness) {
	t.Helper()
	press(h.m, "L")
	scr := plainScreen(h.m)
	for _, want := range []string{"Findings", "duplicate (1)", "secret (1)", "#1 deploy-steps, #2 deploy-checklist", "#3 ci-token"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("findings view lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, fakeToken) {
		t.Fatalf("the view shows the secret in full:\n%s", scr)
	}
}

// TestFindings_MergeIsOneUndoableStep merges two duplicates from the side
// by side view: one kept with the other's name and aliases, the other
// deleted, in one write that one undo takes back; the finding disappears
// and comes back with it.
func TestFindings_MergeIsOneUndoableStep(t *testing.T) {
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	before := h.onDisk()
	openFindingsView(t, h)
	press(h.m, "enter")
	scr := plainScreen(h.m)
	for _, want := range []string{"Duplicates side by side", "✓ kept", "✗ merged into the other, deleted", "deploy-steps", "deploy-checklist", "minutes of canary"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("side by side view lacks %q:\n%s", want, scr)
		}
	}
	press(h.m, "tab", "m") // keep the right one, deploy-checklist
	h.wantOverlay("merge: keep deploy-checklist, give it 2 aliases, delete deploy-steps?")
	press(h.m, "y")
	h.wantStatus("merged deploy-steps into deploy-checklist")
	disk := h.onDisk()
	if _, ok := disk["deploy-steps"]; ok || len(disk) != 3 {
		t.Fatalf("after the merge: %v", disk)
	}
	kept := disk["deploy-checklist"]
	if want := []string{"release-list", "deploy-steps", "ship"}; !slices.Equal(kept.Aliases, want) || kept.Content != before["deploy-checklist"].Content || kept.ID != 2 {
		t.Errorf("kept entry %+v, want aliases %v and its content and id", kept, want)
	}
	scr = plainScreen(h.m)
	if strings.Contains(scr, "duplicate (") || !strings.Contains(scr, "secret (1)") {
		t.Errorf("the merged finding is still listed:\n%s", scr)
	}
	press(h.m, "u")
	h.wantStatus("undone: merge deploy-steps into deploy-checklist")
	after := h.onDisk()
	for name, e := range before {
		if !entriesEqual(after[name], e) {
			t.Errorf("after undo %s = %+v, want %+v", name, after[name], e)
		}
	}
	if !strings.Contains(plainScreen(h.m), "duplicate (1)") {
		t.Errorf("the finding did not come back with the undo:\n%s", plainScreen(h.m))
	}
}

// TestFindings_AgentFixesMeanwhile: a finding another writer fixes while
// the view is open disappears at the reload.
func TestFindings_AgentFixesMeanwhile(t *testing.T) {
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	openFindingsView(t, h)
	apply(t, h.path, store.Remove{Name: "deploy-checklist"}, store.Write{Name: "ci-token", Content: "read from the vault"})
	reload(h.m)
	scr := plainScreen(h.m)
	if strings.Contains(scr, "duplicate (") || strings.Contains(scr, "secret (") || !strings.Contains(scr, "nothing found") {
		t.Errorf("findings the agent fixed are still listed:\n%s", scr)
	}
}

// TestFindings_RedactThroughTheEditor redacts the token with $EDITOR:
// the write is the editor's usual save, and the finding disappears.
func TestFindings_RedactThroughTheEditor(t *testing.T) {
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	openFindingsView(t, h)
	press(h.m, "j") // the secret
	h.editor = `sed -i -e 's/ghp_[A-Za-z0-9]*/<redacted>/'`
	press(h.m, "e")
	h.wantStatus("saved ci-token")
	if got := h.onDisk()["ci-token"].Content; strings.Contains(got, "ghp_") || !strings.Contains(got, "reads\n<redacted>\n") {
		t.Errorf("after the edit: %q", got)
	}
	if scr := plainScreen(h.m); strings.Contains(scr, "secret (") || !strings.Contains(scr, "duplicate (1)") {
		t.Errorf("the redacted secret is still listed:\n%s", scr)
	}
}

// TestFindings_DeleteWithUndo deletes the finding's entry after y, and
// undo puts it back.
func TestFindings_DeleteWithUndo(t *testing.T) {
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	before := h.onDisk()["ci-token"]
	openFindingsView(t, h)
	press(h.m, "j", "d")
	h.wantOverlay("delete note ci-token")
	press(h.m, "y")
	if _, ok := h.onDisk()["ci-token"]; ok || strings.Contains(plainScreen(h.m), "secret (") {
		t.Fatalf("ci-token not deleted or still listed:\n%s", plainScreen(h.m))
	}
	press(h.m, "u")
	if got := h.onDisk()["ci-token"]; !entriesEqual(got, before) || !strings.Contains(plainScreen(h.m), "secret (1)") {
		t.Errorf("after undo %+v, want %+v; screen:\n%s", got, before, plainScreen(h.m))
	}
	// A duplicate group is about two entries: d asks to open it first.
	press(h.m, "k", "d")
	h.wantStatus("this finding is about 2 entries: enter to act on one")
}

// TestFindings_ReadOnlyStore shows the view on a crabtalk store crmem
// cannot write (its tail is torn) without write actions: they are refused
// and the store is untouched.
func TestFindings_ReadOnlyStore(t *testing.T) {
	path := copyStore(t, "torn.crmem")
	before, _ := os.ReadFile(path)
	h := newEditHarnessIn(t, path, t.TempDir())
	press(h.m, "L")
	if scr := plainScreen(h.m); !strings.Contains(scr, "Findings") || !strings.Contains(ansi.Strip(h.overlay()), "read-only") {
		t.Fatalf("view on a store:\n%s\nhelp line %q", scr, h.overlay())
	}
	for _, hint := range []string{"delete", "edit", "undo"} {
		if strings.Contains(ansi.Strip(h.overlay()), hint) {
			t.Errorf("help line offers %q on a read-only store: %q", hint, h.overlay())
		}
	}
	for _, k := range []string{"e", "d", "u"} {
		h.m.st.msg = ""
		press(h.m, k)
		if h.m.st.msg != h.m.readOnlyMessage() {
			t.Errorf("%s: status %q", k, h.m.st.msg)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the store changed")
	}
}

// TestFindings_FitsEveryWidth draws the list and the side by side view at
// widths 20–250: no line is wider than the terminal.
func TestFindings_FitsEveryWidth(t *testing.T) {
	t.Parallel() // every width on a model of its own: beside the other long tests
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	openFindingsView(t, h)
	for _, view := range []string{"list", "side by side"} {
		if view == "side by side" {
			press(h.m, "g", "enter")
		}
		for w := 20; w <= 250; w++ {
			for _, ht := range []int{4, 12, 40} {
				drive(h.m, resizeCmd(w, ht))
				checkScreenFits(t, h.m, w, fmt.Sprintf("findings %s at %dx%d", view, w, ht))
			}
		}
	}
}

// TestFindings_KeepsItsPlace: when a finding above the selected one is
// fixed meanwhile, the selection stays on the same finding.
func TestFindings_KeepsItsPlace(t *testing.T) {
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	openFindingsView(t, h)
	press(h.m, "j") // the secret, below the duplicates
	apply(t, h.path, store.Remove{Name: "deploy-checklist"})
	reload(h.m)
	fd, ok := h.m.selectedFinding()
	if !ok || fd.Kind != "secret" {
		t.Errorf("selected after the duplicate was fixed: %+v, want the secret", fd)
	}
}

// TestFindings_NotDuplicatesRemembered: X in the side by side view
// remembers the pair in crmem lint's file beside the memory, and the
// finding leaves the view (and crmem lint's report).
func TestFindings_NotDuplicatesRemembered(t *testing.T) {
	h := newEditHarnessIn(t, hygieneMemory(t), t.TempDir())
	openFindingsView(t, h)
	press(h.m, "enter", "X")
	h.wantStatus("deploy-steps and deploy-checklist are not duplicates: remembered in")
	if scr := plainScreen(h.m); strings.Contains(scr, "duplicate (") || !strings.Contains(scr, "secret (1)") {
		t.Errorf("the pair is still listed:\n%s", scr)
	}
	nd, err := hygiene.LoadNotDuplicates(hygiene.NotDuplicatesPath(h.path))
	if err != nil || !nd.Has("deploy-checklist", "deploy-steps") {
		t.Errorf("the pair is not in %s: %v", hygiene.NotDuplicatesPath(h.path), err)
	}
	if len(h.onDisk()) != 4 {
		t.Errorf("the memory changed")
	}
}

// TestFindings_CompareMasksSecrets: two duplicates holding a token (and a
// name holding one) are shown side by side with the secrets masked in
// names and content and in the reason line; S shows them, S again masks
// them, and a merge keeps the entries as they are.
func TestFindings_CompareMasksSecrets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	at := uint64(testNow.Unix()) - 86400
	body := "Tag the release, run make release, promote after fifteen minutes of canary.\nGITHUB_TOKEN="
	writeEntries(t, path, []store.Entry{
		{ID: 1, Name: "deploy-steps", Kind: store.Note, CreatedAt: at, Aliases: []string{}, Content: body + fakeToken},
		{ID: 2, Name: "deploy " + fakeToken, Kind: store.Note, CreatedAt: at + 1, Aliases: []string{}, Content: body + fakeToken},
	})
	h := newEditHarnessIn(t, path, t.TempDir())
	press(h.m, "L")
	if scr := plainScreen(h.m); strings.Contains(scr, fakeToken) || !strings.Contains(scr, "duplicate (1)") {
		t.Fatalf("the list shows the secret or lacks the duplicate:\n%s", scr)
	}
	press(h.m, "enter")
	scr := plainScreen(h.m)
	if strings.Contains(scr, fakeToken) || !strings.Contains(scr, "GITHUB_TOKEN=ghp_…4hJ6") || !strings.Contains(scr, "secrets masked") {
		t.Fatalf("the side by side view does not mask the token:\n%s", scr)
	}
	press(h.m, "S")
	if scr := plainScreen(h.m); !strings.Contains(scr, fakeToken) || !strings.Contains(scr, "secrets shown") {
		t.Fatalf("S does not show the token:\n%s", scr)
	}
	press(h.m, "S")
	if scr := plainScreen(h.m); strings.Contains(scr, fakeToken) {
		t.Fatalf("S again does not mask the token:\n%s", scr)
	}
	press(h.m, "m")
	press(h.m, "y")
	disk := h.onDisk()
	if kept, ok := disk["deploy-steps"]; !ok || kept.Content != body+fakeToken || !slices.Contains(kept.Aliases, "deploy "+fakeToken) {
		t.Errorf("the merge did not keep the entries as they are: %+v", disk)
	}
}
