package tui

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
)

// recallFixtureSessions copies testdata/recalls/sessions (crabtalk v0.0.22
// session folders with recalls) into a temporary folder.
func recallFixtureSessions(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.CopyFS(dir, os.DirFS("../testdata/recalls/sessions")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeRecallSession writes a session in which the agent recalled query
// and got names.
func writeRecallSession(t *testing.T, dir, name, query string, names ...string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, n := range names {
		blocks = append(blocks, "## "+n+`\nx`)
	}
	result := strings.Join(blocks, `\n---\n`)
	if result == "" {
		result = "no memories found"
	}
	steps := []string{
		fmt.Sprintf(`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"recall","input":{"query":%q}}]}}`, query),
		fmt.Sprintf(`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","name":"recall","content":"%s"}]}}`, result),
	}
	for i, s := range steps {
		if err := os.WriteFile(filepath.Join(p, fmt.Sprintf("step-%06d", i)), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRecalled_BadgesCardAndFilter(t *testing.T) {
	h := newEditHarnessIn(t, copyFixture(t, "crmem/small.db"), recallFixtureSessions(t))
	badges := map[string]string{}
	for _, e := range h.m.c.snap.entries {
		if b := ansi.Strip(h.m.sessionsBadge(e)); b != "" {
			badges[e.Name] = b
		}
	}
	want := map[string]string{
		"deploy-steps":                          " 1×",
		"archive-sess-0001-1767300000000000000": " 1×",
		"archive-sess-0004-1767600000000000000": " ↺1", // crab_alice_1's resume point, never recalled
		"rust-style":                            " 1×",
		"commit-format":                         " 1×",
	}
	if !maps.Equal(badges, want) {
		t.Errorf("badges %q, want %q", badges, want)
	}
	h.sel("deploy-steps")
	if s := plainScreen(h.m); !strings.Contains(s, "recalled 1× of 6 recorded recalls, last ") {
		t.Errorf("card of a recalled entry:\n%s", s)
	}
	h.sel("db-migrations")
	if s := plainScreen(h.m); !strings.Contains(s, "recalled never, by none of 6 recorded recalls") {
		t.Errorf("card of a never recalled entry:\n%s", s)
	}
	press(h.m, "N")
	names := listNames(h.m)
	if len(names) != 22 || slices.Contains(names, "deploy-steps") || slices.Contains(names, "rust-style") {
		t.Errorf("never recalled: %d listed %q, want the 22 no recall returned", len(names), names)
	}
	if !strings.Contains(statusText(h.m), "never recalled only (N)") {
		t.Errorf("status does not show the filter: %q", statusText(h.m))
	}
	press(h.m, "o") // with the orphan filter: orphan archives never recalled (0001 was recalled)
	if got := listNames(h.m); !slices.Equal(got, []string{"archive-sess-0005-1767700000000000000", "archive-sess-0002-1767400000000000000"}) {
		t.Errorf("orphans never recalled: %q", got)
	}
	press(h.m, "o", "N")
	if got := len(listNames(h.m)); got != 26 {
		t.Errorf("%d entries listed after both filters are off, want 26", got)
	}
}

// TestRecalled_MarkOlderKeepsToTheFilter: with "never recalled" on, O marks
// the old archives no recall returned, not the ones the agent uses.
func TestRecalled_MarkOlderKeepsToTheFilter(t *testing.T) {
	for _, tc := range []struct {
		never bool
		want  int
	}{{false, 7}, {true, 5}} {
		path, _ := agedMemory(t)
		sess := t.TempDir()
		writeRecallSession(t, sess, "crab_u_1", "old archives", "archive-05", "archive-09")
		h := newEditHarnessIn(t, path, sess)
		if tc.never {
			press(h.m, "N")
		}
		press(h.m, "O")
		typeText(h.m, "30d")
		press(h.m, "enter")
		marked := 0
		for _, e := range h.m.c.snap.entries {
			if h.m.marks.has(e.ID) {
				marked++
				if tc.never && (e.Name == "archive-05" || e.Name == "archive-09") {
					t.Errorf("never recalled: %s was marked though a recall returned it", e.Name)
				}
			}
		}
		if marked != tc.want {
			t.Errorf("never %v: %d marked, want %d", tc.never, marked, tc.want)
		}
	}
}

func TestRecalled_RereadOnReload(t *testing.T) {
	path, _ := agedMemory(t)
	sess := t.TempDir()
	h := newEditHarnessIn(t, path, sess)
	press(h.m, "N")
	if n := len(listNames(h.m)); n != 12 {
		t.Fatalf("%d never recalled before any session, want 12", n)
	}
	writeRecallSession(t, sess, "crab_u_1", "the notes", "note-a", "note-b")
	reload(h.m)
	if names := listNames(h.m); len(names) != 10 || slices.Contains(names, "note-a") {
		t.Fatalf("never recalled after a recall was recorded: %v", names)
	}
}

// TestTmux_NeverRecalled: in a real terminal, entries the agent's recalls
// returned carry N× in the list, the card says how often and when, and N
// lists only the entries no recall returned.
func TestTmux_NeverRecalled(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := copyFixture(t, "crmem/small.db")
	sess := filepath.Join(filepath.Dir(path), "sessions")
	if err := os.CopyFS(sess, os.DirFS("../testdata/recalls/sessions")); err != nil {
		t.Fatal(err)
	}
	e.start("s", bin+" "+path)
	e.waitFor("s", 5*time.Second, "recall badges", contains("final-note", "rust-style", "1×"))
	e.keys("s", "/")
	e.text("s", "conventional commits")
	e.keys("s", "Enter")
	e.waitFor("s", 5*time.Second, "card of a recalled entry", func(s string) bool {
		// "open preview" in the help: Enter has been read and the list has the focus.
		return cardTitle(s) == "commit-format" && strings.Contains(s, "recalled 1× of 6 recorded recalls") && strings.Contains(s, "open preview")
	})
	e.keys("s", "Escape")
	e.waitFor("s", 5*time.Second, "search cleared", searchCleared)
	e.keys("s", "N")
	e.waitFor("s", 5*time.Second, "never recalled filter", func(s string) bool {
		return strings.Contains(s, "never recalled only (N)") && !strings.Contains(s, "rust-style") && !strings.Contains(s, "commit-format") && strings.Contains(s, "final-note")
	})
}

// TestRecalled_Store: with crabtalk's store the recalls come from its
// sessions column, as the archive references do.
func TestRecalled_Store(t *testing.T) {
	path := copyStore(t, "small.crmem")
	put := func(k, v string) {
		crabdbtest.Append(t, path, crabdbtest.Record(crabdb.OpPut, crabdb.ColSession, k, v))
	}
	put("local/session/dana-1/meta", `{"agent":"00000000000000000000000000","created_by":"dana","created_at":"2026-01-06T10:00:00+00:00","title":"","updated_at":"2026-01-06T10:05:00+00:00","message_count":2}`)
	put("local/session/dana-1/msg/000000000000", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"recall","input":{"query":"deploy"}}]}}`)
	put("local/session/dana-1/msg/000000000001", `{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","name":"recall","content":"## deploy-steps\nx\n---\n## long-note\ny"}]}}`)
	h := newEditHarnessIn(t, path, t.TempDir())
	for _, e := range h.m.c.snap.entries {
		b := ansi.Strip(h.m.sessionsBadge(e))
		if recalled := e.Name == "deploy-steps" || e.Name == "long-note"; recalled != strings.Contains(b, "1×") {
			t.Errorf("%s: badge %q", e.Name, b)
		}
	}
	press(h.m, "N")
	if names := listNames(h.m); len(names) != 23 || slices.Contains(names, "deploy-steps") {
		t.Errorf("never recalled in the store: %d %q", len(names), names)
	}
}

// TestRecalled_NoInventedName: the recall column reads each recorded
// result against the entries as they are (recalls.NameSet of the
// snapshot), on open and again after a reload: an entry whose content
// holds the recall tool's block separator ("\n---\n## Feeding") is one
// returned name, so the entry named Feeding is never recalled. Without
// the snapshot at the open, or the new one at the reload (where pets is
// added), the result read by its shape alone names Feeding too.
func TestRecalled_NoInventedName(t *testing.T) {
	const pets = "The cat eats twice a day.\n---\n## Feeding\nAt 7 and at 19."
	result, err := json.Marshal("## pets\n" + pets)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		reload bool // pets is added after the open, then the file reloaded
	}{{"open", false}, {"reload", true}} {
		t.Run(tc.name, func(t *testing.T) {
			path := copyFixture(t, "crmem/small.db")
			sess := t.TempDir()
			p := filepath.Join(sess, "crab_eve_1")
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			steps := []string{
				`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":"cat feeding"}}]}}`,
				`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","name":"recall","content":` + string(result) + `}]}}`,
			}
			for i, s := range steps {
				if err := os.WriteFile(filepath.Join(p, fmt.Sprintf("step-%06d", i)), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			feeding := store.Add{Name: "Feeding", Content: "a real entry named Feeding, never recalled"}
			petsAdd := store.Add{Name: "pets", Content: pets}
			if tc.reload {
				apply(t, path, feeding)
			} else {
				apply(t, path, feeding, petsAdd)
			}
			h := newEditHarnessIn(t, path, sess)
			if tc.reload {
				apply(t, path, petsAdd)
				reload(h.m)
			}
			badges := map[string]string{}
			for _, e := range h.m.c.snap.entries {
				if e.Name == "pets" || e.Name == "Feeding" {
					badges[e.Name] = ansi.Strip(h.m.sessionsBadge(e))
				}
			}
			if want := map[string]string{"pets": " 1×", "Feeding": ""}; !maps.Equal(badges, want) {
				t.Errorf("badges %q, want %q", badges, want)
			}
		})
	}
}
