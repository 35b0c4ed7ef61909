package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/internal/histfixture"
	"github.com/crmem/crmem/store/history"
)

// copyWrites copies crabdb-writes' after.crmem (crabtalk's store after
// 19 ops crabtalk's own code applied) into a temporary folder.
func copyWrites(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "crabdb-writes", "after.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "store.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHistoryCLI_Store: history, diff, --deleted and restore on crabtalk's
// store: a rename read as one version on the new name, a forgotten entry
// brought back through the guarded write path (and its restore a version
// of its own), a deletion and the current version refused.
func TestHistoryCLI_Store(t *testing.T) {
	db := copyWrites(t)
	var h history.History
	mustJSON(t, mustIn(t, "--db", db, "history", "kubernetes upgrade notes", "--json"), &h)
	if n := len(h.Versions); n != 2 || h.Versions[1].Action != history.RenameIn || h.Versions[1].From != "k8s-upgrade" ||
		h.Versions[0].Name != "k8s-upgrade" || !h.Versions[1].Current || !h.Exists {
		t.Fatalf("history: %+v", h)
	}
	text := mustIn(t, "--db", db, "history", "kubernetes upgrade notes")
	for _, want := range []string{"2 versions, in memory now", "renamed k8s-upgrade → kubernetes upgrade notes   ● current", "store log: record at offset 127600", "unknown source"} {
		if !strings.Contains(text, want) {
			t.Errorf("history text lacks %q:\n%s", want, text)
		}
	}

	var d struct {
		Changes struct {
			AliasesRemoved []string `json:"aliases_removed"`
			AliasesAdded   []string `json:"aliases_added"`
		} `json:"changes"`
		Hunks []struct {
			Header string `json:"header"`
			Lines  []struct {
				Op      string   `json:"op"`
				Text    string   `json:"text"`
				Changed [][2]int `json:"changed"`
			} `json:"lines"`
		} `json:"hunks"`
	}
	mustJSON(t, mustIn(t, "--db", db, "diff", "oncall-rota", "--json"), &d)
	if len(d.Hunks) != 1 || d.Hunks[0].Header != "@@ -1 +1 @@" || len(d.Hunks[0].Lines) != 2 {
		t.Fatalf("diff hunks: %+v", d.Hunks)
	}
	for _, l := range d.Hunks[0].Lines {
		if len(l.Changed) == 0 {
			t.Errorf("line %q: no changed words", l.Text)
		}
	}
	if strings.Join(d.Changes.AliasesRemoved, ",") != "on call" || strings.Join(d.Changes.AliasesAdded, ",") != "oncall,handoff" {
		t.Errorf("alias changes: %+v", d.Changes)
	}
	plain := mustIn(t, "--db", db, "diff", "oncall-rota")
	if strings.Contains(plain, "\x1b") || !strings.Contains(plain, "\n-Primary on-call rotates every Monday at 10:00.") {
		t.Errorf("plain diff (not a terminal):\n%s", plain)
	}
	colour := mustIn(t, "--db", db, "diff", "oncall-rota", "--color", "always")
	if !strings.Contains(colour, "\x1b[7m09:00 (was \x1b[0m") {
		t.Errorf("coloured diff does not highlight the changed words:\n%q", colour)
	}

	var gone []history.Forgotten
	mustJSON(t, mustIn(t, "--db", db, "history", "--deleted", "--json"), &gone)
	var final *history.Forgotten
	for i := range gone {
		if gone[i].Name == "final-note" {
			final = &gone[i]
		}
		if gone[i].Name == "k8s-upgrade" || gone[i].Name == "螃蟹" {
			t.Errorf("%q was renamed, not forgotten", gone[i].Name)
		}
	}
	if final == nil || final.Removed == nil || final.Removed.Action != history.Delete || final.Last.Content == "" {
		t.Fatalf("final-note not listed as forgotten with its removal: %+v", gone)
	}
	if gone[0].Name != "stopwords-only" {
		t.Errorf("most recently removed first: got %q first", gone[0].Name)
	}

	// A deletion and the version memory holds are refused; the read-only
	// guard (crabtalk running) refuses the write.
	if _, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "restore", "final-note", itoa(final.Removed.N)); code == 0 || !strings.Contains(errs, "is a deletion") {
		t.Errorf("restoring a deletion: exit %d, %s", code, errs)
	}
	if out, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "restore", "oncall-rota", "2"); code != 0 || !strings.Contains(out, "unchanged") {
		t.Errorf("restoring the current version: exit %d, %s%s", code, out, errs)
	}
	if _, errs, code := runIn(nil, "", "--db", db, "restore", "final-note", itoa(final.Last.N)); code == 0 || !strings.Contains(errs, "daemon is running") {
		t.Errorf("restore while crabtalk runs: exit %d, %s", code, errs)
	}
	before, _ := os.ReadFile(db)
	out, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "restore", "final-note", itoa(final.Last.N))
	if code != 0 {
		t.Fatalf("restore: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "final-note") {
		t.Errorf("restore said %q", out)
	}
	after, _ := os.ReadFile(db)
	if !strings.HasPrefix(string(after), string(before)) || len(after) <= len(before) {
		t.Fatal("restore did not append")
	}
	shown := mustIn(t, "--db", db, "show", "final-note", "--json")
	if !strings.Contains(shown, jsonString(final.Last.Content)) {
		t.Errorf("restored entry: %s", shown)
	}
	mustJSON(t, mustIn(t, "--db", db, "history", "final-note", "--json"), &h)
	last := h.Versions[len(h.Versions)-1]
	if !h.Exists || last.Action != history.Write || last.Content != final.Last.Content || last.Origin != history.FromLog || !last.Current {
		t.Errorf("after restore, last version %+v", last)
	}

	if _, errs, code := runIn(nil, "", "--db", db, "history", "no-such-entry-anywhere"); code == 0 || !strings.Contains(errs, "no entry") {
		t.Errorf("unknown name: exit %d, %s", code, errs)
	}
	if _, errs, code := runIn(nil, "", "--db", db, "diff", "oncall-rota", "1", "9"); code == 0 || !strings.Contains(errs, "no version #9") {
		t.Errorf("diff of a missing version: exit %d, %s", code, errs)
	}
}

// TestHistoryCLI_BadStores: history, --deleted and diff on every bad store
// fixture end in exit 0 or 1 with "crmem: " lines, never a panic, and
// leave the file as it was; a log with an undecodable record says where,
// and its history stops there.
func TestHistoryCLI_BadStores(t *testing.T) {
	dir := filepath.Join(storeRef, "bad")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	stopped := 0
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".crmem") {
			continue
		}
		db := copyStore(t, filepath.Join("bad", e.Name()), "store.crmem")
		before, _ := os.ReadFile(db)
		for _, args := range [][]string{{"history", "deploy-steps"}, {"history", "--deleted"}, {"diff", "deploy-steps"}, {"history", "deploy-steps", "--json"}} {
			_, errs, code := runIn(nil, "", append([]string{"--db", db}, args...)...)
			if code > 1 || strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
				t.Errorf("%s %q: exit %d\n%s", e.Name(), args, code, errs)
			}
			for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
				if l != "" && !strings.HasPrefix(l, "crmem: ") {
					t.Errorf("%s %q: stderr line %q", e.Name(), args, l)
				}
			}
			if strings.Contains(errs, "does not decode at offset") {
				stopped++
			}
		}
		if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
			t.Errorf("%s: changed", e.Name())
		}
	}
	if stopped == 0 {
		t.Error("no bad store's history said where its log stops")
	}

	// A record crmem cannot decode at the end of a long log.
	db := copyWrites(t)
	data, _ := os.ReadFile(db)
	bad := append(append([]byte(nil), data...), 7, 2, 0, 0, 0, 0, 0, 0, 0, 0)
	if err := os.WriteFile(db, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runIn(nil, "", "--db", db, "history", "oncall-rota", "--json")
	if code != 0 || !strings.Contains(errs, "does not decode at offset "+itoa(len(data))) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var h history.History
	mustJSON(t, out, &h)
	if h.Stop == nil || h.Stop.Offset != int64(len(data)) || h.Stop.Reason != "unknown record op 7" || len(h.Versions) != 2 {
		t.Errorf("history past a bad record: stop %+v, %d versions", h.Stop, len(h.Versions))
	}
}

// TestHistoryCLI_V1RestoreAndRedact: on a memory.db with the agent's
// sessions beside it, a version a session wrote is restored (the entry's
// new version is of unknown source: crmem wrote it), a forgotten entry
// comes back, and --redact masks a secret in every version and the diff.
func TestHistoryCLI_V1RestoreAndRedact(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "memory.db")
	sess := histfixture.Sessions(t)
	if err := os.Rename(sess, filepath.Join(dir, "sessions")); err != nil {
		t.Fatal(err)
	}
	want := histfixture.Load(t)
	ds := want.Versions["deploy-steps"]
	token := "ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2"
	mustIn(t, "--db", db, "add", "deploy-steps", ds[len(ds)-1].Content+"\ntoken "+token, "--alias", "ship")
	var h history.History
	mustJSON(t, mustIn(t, "--db", db, "history", "deploy-steps", "--json"), &h)
	n := len(h.Versions)
	if h.Log || n != len(ds)+1 || h.Versions[n-1].Origin != history.FromMemory || !h.Versions[n-1].Current {
		t.Fatalf("history: log %v, %d versions, last %+v", h.Log, n, h.Versions[n-1])
	}
	for _, args := range [][]string{{"history", "deploy-steps"}, {"history", "deploy-steps", "--json"}, {"diff", "deploy-steps"}, {"diff", "deploy-steps", "--json"}} {
		out := mustIn(t, append(append([]string{"--db", db}, args...), "--redact")...)
		if strings.Contains(out, token) {
			t.Errorf("%q --redact prints the token whole", args)
		}
	}
	// The entry was added now, after every call the sessions hold: they
	// were an earlier entry's of that name, not this one's.
	out, errs, code := runIn(nil, "", "--db", db, "restore", "deploy-steps", "1")
	if code == 0 || !strings.Contains(errs, `version #1 is of an earlier entry named "deploy-steps", removed or renamed away before this one was created`) {
		t.Fatalf("restore of an earlier entry's version: exit %d %s%s", code, out, errs)
	}
	if len(h.Lives) != 2 || h.Lives[0].Ended != history.LifeReplaced || h.Versions[0].Life != 1 || h.Versions[n-1].Life != 2 {
		t.Fatalf("lives %+v", h.Lives)
	}
	// Created when the first call made it (a dump's created_at, loaded):
	// one entry, every call its own.
	tree := filepath.Join(dir, "tree")
	meta := `<div id="meta"><dl><dt>Created</dt><dd><time datetime="2026-01-05T09:00:04Z">x</time></dd>` +
		`<dt>Aliases</dt><dd><ul><li>ship</li></ul></dd></dl></div>` + "\n"
	if err := os.MkdirAll(filepath.Join(tree, "notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tree, "notes", "deploy-steps.md"), []byte(meta+ds[len(ds)-1].Content+"\ntoken "+token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustIn(t, "--db", db, "load", tree)
	mustJSON(t, mustIn(t, "--db", db, "history", "deploy-steps", "--json"), &h)
	if len(h.Lives) != 1 {
		t.Fatalf("after load, lives %+v", h.Lives)
	}
	out, errs, code = runIn(nil, "", "--db", db, "restore", "deploy-steps", "1")
	if code != 0 || !strings.Contains(out, "restored version #1 of") {
		t.Fatalf("restore: exit %d %s%s", code, out, errs)
	}
	mustJSON(t, mustIn(t, "--db", db, "history", "deploy-steps", "--json"), &h)
	last := h.Versions[len(h.Versions)-1]
	if last.Content != ds[0].Content || last.Origin != history.FromMemory || last.Call != nil {
		t.Errorf("after restore: %+v", last)
	}
	var gone []history.Forgotten
	mustJSON(t, mustIn(t, "--db", db, "history", "--deleted", "--json"), &gone)
	if len(gone) == 0 {
		t.Fatal("nothing forgotten")
	}
	f := gone[0]
	if _, _, code := runIn(nil, "", "--db", db, "restore", f.Name, itoa(f.Last.N)); code != 0 {
		t.Fatalf("restore of forgotten %q failed", f.Name)
	}
	shown := mustIn(t, "--db", db, "show", f.Name, "--json")
	if !strings.Contains(shown, jsonString(f.Last.Content)) {
		t.Errorf("forgotten %q restored as %s", f.Name, shown)
	}
}

// TestHistoryCLI_Alias: a name nothing wrote but an entry has as an alias
// gives that entry's history, diff and restore, and says so.
func TestHistoryCLI_Alias(t *testing.T) {
	db := copyWrites(t)
	out, errs, code := runIn(nil, "", "--db", db, "history", "pager", "--short")
	if code != 0 || !strings.HasPrefix(out, "oncall-rota — 2 versions") || !strings.Contains(errs, "pager is an alias of oncall-rota") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runGuarded(noDaemon, nil, "", "--db", db, "restore", "pager", "1")
	if code != 0 || !strings.Contains(out, "oncall-rota") {
		t.Fatalf("restore by alias: exit %d\n%s%s", code, out, errs)
	}
	var h history.History
	mustJSON(t, mustIn(t, "--db", db, "history", "oncall-rota", "--json"), &h)
	if len(h.Versions) != 3 || h.Versions[2].Content != h.Versions[0].Content {
		t.Errorf("after restore by alias: %+v", h.Versions)
	}
}

// TestHistoryCLI_RenameAwayIsAnotherEntry: issue 38's sequence written by
// crmem itself on crabtalk's store (add, update, rename, update, rm, add):
// hist-a's history is the old hist-a up to its rename away, marked, then
// the new hist-a apart, never hist-b's later versions; restore refuses
// the old entry's versions and takes the new one's; the JSON says each
// version's life and how each life ended.
func TestHistoryCLI_RenameAwayIsAnotherEntry(t *testing.T) {
	db := copyWrites(t)
	for _, args := range [][]string{
		{"add", "hist-a", "first words of a"},
		{"update", "hist-a", "second words of a", "--alias", "ha"},
		{"rename", "hist-a", "hist-b"},
		{"update", "hist-b", "b wrote this"},
		{"rm", "hist-b"},
		{"add", "hist-a", "a new entry named hist-a"},
		{"update", "hist-a", "the new entry, edited"},
	} {
		if out, errs, code := runGuarded(noDaemon, nil, "", append([]string{"--db", db}, args...)...); code != 0 {
			t.Fatalf("%q: exit %d\n%s%s", args, code, out, errs)
		}
	}
	var h history.History
	mustJSON(t, mustIn(t, "--db", db, "history", "hist-a", "--json"), &h)
	var got []string
	for _, v := range h.Versions {
		got = append(got, fmt.Sprintf("%s %s>%s %d", v.Action, v.Name, v.To, v.Life))
	}
	if want := "[write hist-a> 1 write hist-a> 1 rename_away hist-a>hist-b 1 write hist-a> 2 write hist-a> 2]"; fmt.Sprint(got) != want {
		t.Fatalf("hist-a versions %v, want %s", got, want)
	}
	if len(h.Lives) != 2 || h.Lives[0].Ended != history.LifeRenamed || h.Lives[0].To != "hist-b" || !h.Exists {
		t.Fatalf("lives %+v", h.Lives)
	}
	text := mustIn(t, "--db", db, "history", "hist-a", "--short")
	for _, want := range []string{
		"hist-a — 5 versions, in memory now",
		"── an earlier entry named hist-a (#1–#3), renamed to hist-b: its story goes on in crmem history hist-b; not restorable under this name ──",
		"#3  renamed hist-a → hist-b (renamed away",
		"── a new entry named hist-a (#4–#5): this entry ──",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("history lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "b wrote this") || strings.Contains(text, "deleted hist-b") {
		t.Errorf("hist-a's history holds hist-b's later versions:\n%s", text)
	}
	for _, n := range []string{"1", "2", "3"} {
		out, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "restore", "hist-a", n)
		if code == 0 || !strings.Contains(errs, `is of an earlier entry named "hist-a", renamed to "hist-b" at #3`) ||
			!strings.Contains(errs, "restore takes only this entry's versions (#4–#5)") {
			t.Errorf("restore hist-a %s: exit %d\n%s%s", n, code, out, errs)
		}
	}
	if out, errs, code := runGuarded(noDaemon, nil, "", "--db", db, "restore", "hist-a", "4"); code != 0 || !strings.Contains(out, "restored version #4 of") {
		t.Fatalf("restore hist-a 4: exit %d\n%s%s", code, out, errs)
	}
	if shown := mustIn(t, "--db", db, "show", "hist-a", "--json"); !strings.Contains(shown, `"a new entry named hist-a"`) {
		t.Errorf("after restore: %s", shown)
	}
	// hist-b's history goes back through the rename into it.
	mustJSON(t, mustIn(t, "--db", db, "history", "hist-b", "--json"), &h)
	got = got[:0]
	for _, v := range h.Versions {
		got = append(got, fmt.Sprintf("%s %s %d", v.Action, v.Name, v.Life))
	}
	if want := "[write hist-a 1 write hist-a 1 rename hist-b 1 write hist-b 1 delete hist-b 1]"; fmt.Sprint(got) != want || h.Exists {
		t.Errorf("hist-b versions %v, want %s", got, want)
	}
}
