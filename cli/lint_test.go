package cli

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
	"github.com/crmem/crmem/store/hygiene"
)

// TestLint_Demo checks that the demo memory shows every kind of finding,
// that lint exits 1 for them, and that the fake token is never printed in
// full.
func TestLint_Demo(t *testing.T) {
	const token = "ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2"
	r := crmem(t, "", "--demo", "lint", "--json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (findings); stderr %q", r.code, r.stderr)
	}
	var rep hygiene.Report
	mustJSON(t, r.stdout, &rep)
	for _, k := range hygiene.Kinds {
		if rep.Count(k) == 0 {
			t.Errorf("no %s finding in the demo", k)
		}
	}
	text := crmem(t, "", "--demo", "lint")
	for _, out := range []string{r.stdout, r.stderr, text.stdout, text.stderr} {
		if strings.Contains(out, token) {
			t.Errorf("the fake token is printed in full:\n%s", out)
		}
	}
	diff := crmem(t, "", "--demo", "lint", "--kind", "duplicate", "--diff")
	if !strings.Contains(diff.stdout, "- # Deploy checklist for the billing service") || !strings.Contains(diff.stdout, "+ # Deploying the billing service") {
		t.Errorf("--diff lacks the changed heading:\n%s", diff.stdout)
	}
	for _, want := range []string{"duplicate (1)", "ghp_…x9Q2", "release-checklist", "look-alike"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text report lacks %q:\n%s", want, text.stdout)
		}
	}
}

// TestLint_ExitStatus checks 0 for a clean memory, 1 for findings, 2 for
// usage errors, as a linter's.
func TestLint_ExitStatus(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "--db", db, "alpha", "Alice prefers tea and short standups.")
	mustRun(t, "", "add", "--db", db, "beta", "The billing service deploys through a canary.")
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"clean", []string{"--json"}, 0},
		{"kind filter", []string{"--kind", "duplicate,secret"}, 0},
		{"unknown kind", []string{"--kind", "bogus"}, 2},
		{"threshold 0", []string{"--min-similarity", "0"}, 2},
		{"threshold above 1", []string{"--min-similarity", "1.5"}, 2},
		{"bad span", []string{"--older-than", "soon"}, 2},
		{"names without --not-duplicate", []string{"alpha", "beta"}, 2},
		{"--not-duplicate with one name", []string{"--not-duplicate", "alpha"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := crmem(t, "", append([]string{"lint", "--db", db}, tt.args...)...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d; stdout %q stderr %q", r.code, tt.code, r.stdout, r.stderr)
			}
			if tt.code == 0 && r.stderr != "" {
				t.Errorf("a clean memory without archives: stderr %q", r.stderr)
			}
			if tt.code == 0 && strings.HasPrefix(r.stdout, "{") && !strings.Contains(r.stdout, `"findings":[]`) {
				t.Errorf("a clean report's findings are not an empty array: %s", r.stdout)
			}
		})
	}
	mustRun(t, "", "add", "--db", db, "gamma", "the billing SERVICE   deploys through a canary.")
	if r := crmem(t, "", "lint", "--db", db); r.code != 1 || !strings.Contains(r.stdout, "exact") {
		t.Errorf("an exact duplicate: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestLint_NotDuplicate checks that a pair remembered as not duplicates is
// kept beside the memory and skipped from then on.
func TestLint_NotDuplicate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "--db", db, "steps", "Deploy billing: tag, push, canary 5 percent, smoke tests.")
	mustRun(t, "", "add", "--db", db, "checklist", "deploy billing: tag, push, canary 5 percent, smoke tests.")
	if r := crmem(t, "", "lint", "--db", db, "--kind", "duplicate"); r.code != 1 {
		t.Fatalf("before: exit %d, want 1", r.code)
	}
	out := mustRun(t, "", "lint", "--db", db, "--not-duplicate", "checklist", "steps")
	if !strings.Contains(out, "remembered") {
		t.Errorf("--not-duplicate said %q", out)
	}
	if _, err := os.Stat(hygiene.NotDuplicatesPath(db)); err != nil {
		t.Errorf("no file beside the memory: %v", err)
	}
	if r := crmem(t, "", "lint", "--db", db, "--kind", "duplicate"); r.code != 0 {
		t.Errorf("after: exit %d, want 0; stdout %q", r.code, r.stdout)
	}
	if r := crmem(t, "", "lint", "--db", db, "--not-duplicate", "steps", "nosuch"); r.code != 1 || !strings.Contains(r.stderr, "nosuch") {
		t.Errorf("unknown name: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestLint_Store checks that lint reads crabtalk's store too.
func TestLint_Store(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.crmem")
	data, err := os.ReadFile(filepath.Join(storeRef, "small.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r := crmem(t, "", "lint", "--db", db, "--json")
	if r.code != 0 && r.code != 1 {
		t.Fatalf("exit %d; stderr %q", r.code, r.stderr)
	}
	var rep hygiene.Report
	mustJSON(t, r.stdout, &rep)
	if rep.Entries == 0 {
		t.Errorf("no entries examined: %s", r.stdout)
	}
}

// TestLintNotDuplicateConcurrent runs twelve `lint --not-duplicate` at
// once, each its own process: all exit 0 and the file keeps all twelve
// pairs (they take the folder's lock and apply their pair to the file as
// it is then).
func TestLintNotDuplicateConcurrent(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	entries := []store.Entry{{ID: 1, Name: "hub", Kind: store.Note, CreatedAt: 1767225600, Content: "hub"}}
	for i := range 12 {
		entries = append(entries, store.Entry{ID: uint64(i + 2), Name: fmt.Sprintf("spoke-%02d", i), Kind: store.Note, CreatedAt: 1767225600, Content: "spoke"})
	}
	if err := os.WriteFile(db, store.Encode(uint64(len(entries)+1), entries), 0o600); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]result, 12)
	for i := range 12 {
		wg.Go(func() {
			results[i] = crmemProcess(t, "", "lint", "--db", db, "--not-duplicate", "hub", fmt.Sprintf("spoke-%02d", i))
		})
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("writer %d: exit %d %s", i, r.code, r.stderr)
		}
	}
	nd, err := hygiene.LoadNotDuplicates(hygiene.NotDuplicatesPath(db))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		if spoke := fmt.Sprintf("spoke-%02d", i); !nd.Has("hub", spoke) {
			t.Errorf("the pair hub, %s was lost", spoke)
		}
	}
}

// TestLint_NoSecretPrinted checks every form of the lint report (text,
// --diff, --json, --pretty) on a memory whose duplicates hold a rotated
// token and an AWS key id, and whose names hold a token.
func TestLint_NoSecretPrinted(t *testing.T) {
	const (
		old  = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
		new  = "ghp_Q3nV8kL2rT6yH9mW4sX1bF7jD5cP0zA3eK6u"
		awsA = "AKIAZ7QW3RT5YU2IO6PL"
	)
	db := filepath.Join(t.TempDir(), "memory.db")
	body := "Deploy the billing service through the canary, then run the smoke tests and watch the error budget.\n"
	mustRun(t, "", "add", "--db", db, "deploy", body+"GITHUB_TOKEN="+old+"\naws_access_key_id = "+awsA)
	mustRun(t, "", "add", "--db", db, "deploy-2", body+"GITHUB_TOKEN="+new+"\naws_access_key_id = "+awsA)
	mustRun(t, "", "add", "--db", db, "keys-a", "GITHUB_TOKEN="+old+" aws_access_key_id = "+awsA)
	mustRun(t, "", "add", "--db", db, "keys-b", "github_token: "+old+" and "+awsA+" as aws_access_key_id")
	mustRun(t, "", "add", "--db", db, "tok "+new, "a name that is a token")
	for _, args := range [][]string{{}, {"--diff"}, {"--json"}, {"--pretty"}, {"--min-similarity", "0.5", "--diff"}} {
		r := crmem(t, "", append([]string{"lint", "--db", db}, args...)...)
		if r.code != 1 {
			t.Fatalf("lint %q: exit %d; stderr %q", args, r.code, r.stderr)
		}
		out := strings.ToLower(r.stdout + r.stderr)
		for _, s := range []string{old, new, awsA, old[4:], new[4:]} {
			if strings.Contains(out, strings.ToLower(s)) {
				t.Errorf("lint %q prints %q:\n%s", args, s, r.stdout)
			}
		}
	}
}

// TestLint_NotDuplicateNamesTheFile checks that --not-duplicate with a name
// the memory lacks says which memory, as show does.
func TestLint_NotDuplicateNamesTheFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "--db", db, "alpha", "Alice prefers tea.")
	r := crmem(t, "", "lint", "--db", db, "--not-duplicate", "alpha", "nope")
	if r.code != 1 || !strings.Contains(r.stderr, "memory.db") || !strings.Contains(r.stderr, `no such entry "nope"`) {
		t.Errorf("exit %d, stderr %q; want the file and the name", r.code, r.stderr)
	}
}

// TestLint_StoreNamesAsLs checks that on crabtalk's store the findings name
// entries as ls does, without crmem's internal ids.
func TestLint_StoreNamesAsLs(t *testing.T) {
	db := copyStore(t, "small.crmem", "store.crmem")
	r := crmem(t, "", "lint", "--db", db)
	if r.code != 1 || !strings.Contains(r.stdout, "empty-note") {
		t.Fatalf("exit %d, stdout %q", r.code, r.stdout)
	}
	if strings.Contains(r.stdout, "#4611686") {
		t.Errorf("the report shows internal ids:\n%s", r.stdout)
	}
}

// TestLint_StoreJSONNamesAsLs: on crabtalk's store, whose entries have no ids
// of their own (Features.ShowsIDs), lint --json names entries as ls --json
// does, by name alone: no "id" of a finding's entries and no internal id
// (crabdb.IDBase and up) anywhere, a near pair's "a" and "b" being names.
func TestLint_StoreJSONNamesAsLs(t *testing.T) {
	db := copyStore(t, "small.crmem", "store.crmem")
	note := "the release train leaves on thursday; cut the branch, tag it, run the canary for an hour, then promote to every region and watch the error budget"
	for _, e := range []struct{ name, content string }{
		{"train-a", note},
		{"train-b", note + " closely"},
	} {
		v, _ := json.Marshal(map[string]any{"name": e.name, "kind": "note", "content": e.content, "aliases": []string{}, "created_at": "2026-08-21T10:00:00+00:00"})
		crabdbtest.Append(t, db, crabdbtest.Record(crabdb.OpPut, crabdb.ColMemory, "local/memory/"+e.name, string(v)))
	}
	r := crmem(t, "", "lint", "--db", db, "--json")
	if r.code != 1 {
		t.Fatalf("exit %d; stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, fmt.Sprint(uint64(crabdb.IDBase))[:10]) || strings.Contains(r.stdout, `"id"`) {
		t.Errorf("lint --json shows internal ids:\n%s", r.stdout)
	}
	var rep struct {
		Findings []struct {
			Check     string
			Entries   []map[string]any
			Duplicate *struct {
				Pairs []struct {
					A, B       string
					Similarity float64
				}
			}
		}
	}
	mustJSON(t, r.stdout, &rep)
	near := 0
	for _, f := range rep.Findings {
		for _, e := range f.Entries {
			if len(e) != 1 || e["name"] == nil {
				t.Errorf("%s finding's entry %v: want only a name", f.Check, e)
			}
		}
		if f.Check == "near" {
			near++
			if p := f.Duplicate.Pairs; len(p) != 1 || p[0].A != "train-a" || p[0].B != "train-b" || p[0].Similarity < 0.9 {
				t.Errorf("near pair %+v, want train-a and train-b", p)
			}
		}
	}
	if near != 1 {
		t.Errorf("%d near findings, want 1:\n%s", near, r.stdout)
	}
	// A v1 file's entries keep their ids, as its ls shows them.
	if v1 := crmem(t, "", "--demo", "lint", "--json"); !strings.Contains(v1.stdout, `"id":`) {
		t.Errorf("v1 lint --json without ids:\n%s", v1.stdout)
	}
}

// TestLint_DenseMemoryKeepsTheDefault: on a memory of 2,000 notes written
// in 30 words (over a million pairs at a tf-idf cosine of 0.65, which the
// former check answered by raising its threshold), lint searches at the
// threshold asked, by wording: no note of a raised threshold or a partial
// search, in text or --json. --exhaustive, which lifted the cosine
// search's work bounds, is accepted and says it is no longer needed.
func TestLint_DenseMemoryKeepsTheDefault(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	rng := rand.New(rand.NewPCG(30, 9))
	var entries []store.Entry
	words := make([]string, 40)
	for i := range 2000 {
		for k := range words {
			words[k] = fmt.Sprintf("w%d", rng.IntN(30))
		}
		entries = append(entries, store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), Kind: store.Note, CreatedAt: 1767225600, Content: strings.Join(words, " ")})
	}
	if err := os.WriteFile(db, store.Encode(uint64(len(entries)+1), entries), 0o600); err != nil {
		t.Fatal(err)
	}
	text := crmem(t, "", "lint", "--db", db, "--kind", "duplicate")
	if strings.Contains(text.stdout, "searched at similarity") || strings.Contains(text.stdout, "note: near-duplicates") {
		t.Errorf("text report notes a raised threshold or a bound:\n%s", text.stdout)
	}
	js := crmem(t, "", "lint", "--db", db, "--kind", "duplicate", "--json")
	if strings.Contains(js.stdout, "near_threshold_raised") || strings.Contains(js.stdout, "near_search_partial") {
		t.Errorf("--json: %s", js.stdout)
	}
	ex := crmem(t, "", "lint", "--db", db, "--kind", "duplicate", "--exhaustive")
	if ex.code == 2 || !strings.Contains(ex.stderr, "exhaustive has been deprecated") {
		t.Errorf("--exhaustive: exit %d, stderr %q: want it accepted, with a note", ex.code, ex.stderr)
	}
	// The note is not in the report: lint --json --exhaustive prints JSON
	// alone (cobra's note for a deprecated flag went before it).
	exj := crmem(t, "", "lint", "--db", db, "--kind", "duplicate", "--exhaustive", "--json")
	var rep hygiene.Report
	if err := json.Unmarshal([]byte(exj.stdout), &rep); err != nil || !strings.Contains(exj.stderr, "costs nothing more") {
		t.Errorf("--exhaustive --json: %v, stdout %.200q, stderr %q", err, exj.stdout, exj.stderr)
	}
}

// TestLint_EntriesByIDAsTheMemoryGivesThem checks that lint, which reads
// the file's entries without building a memory, takes them in the order
// store.Memory.Entries gives them (ascending id, an id's entries in file
// order) and finds an id's content (--diff) as Memory.Get does (the later
// in file order), on files with ids out of order and held twice.
func TestLint_EntriesByIDAsTheMemoryGivesThem(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 2))
	for n := range 40 {
		f := &store.File{}
		for i := range n {
			id := uint64(1 + rng.IntN(max(1, n/2)))
			if n%3 == 0 {
				id = uint64(i + 1) // ascending: returned as they are
			}
			f.Entries = append(f.Entries, store.Entry{ID: id, Name: fmt.Sprintf("e%d", i), Content: fmt.Sprintf("content %d", i), Aliases: []string{}})
		}
		got := entriesByID(f.Entries)
		m := store.NewMemoryWith(&store.File{Entries: slices.Clone(f.Entries), NextID: uint64(n + 1)}, store.IndexOnDemand)
		want := m.Entries()
		if len(got) != len(want) {
			t.Fatalf("n %d: %d entries, want %d", n, len(got), len(want))
		}
		for i := range want {
			if got[i].ID != want[i].ID || got[i].Name != want[i].Name {
				t.Fatalf("n %d: entry %d is #%d %s, want #%d %s", n, i, got[i].ID, got[i].Name, want[i].ID, want[i].Name)
			}
		}
		for id := uint64(0); id <= uint64(n+1); id++ {
			e, _ := m.Get(id)
			if c := contentOf(got, id); c != e.Content {
				t.Fatalf("n %d: content of #%d %q, want %q", n, id, c, e.Content)
			}
		}
	}
}
