package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRedact checks --redact on show, ls, search and export: the token in
// a name, an alias and the content is masked, the rest printed as it is;
// without --redact the entry is printed as the user asked.
func TestRedact(t *testing.T) {
	const token = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "--db", db, "deploy", "Deploy the billing canary.\nGITHUB_TOKEN="+token+"\n")
	mustRun(t, "", "add", "--db", db, "tok "+token, "deploy notes under a token name")
	mustRun(t, "", "alias", "--db", db, "deploy", "alias "+token)
	for _, args := range [][]string{
		{"show", "deploy"}, {"show", "deploy", "--json"},
		{"ls"}, {"ls", "--json"}, {"ls", "--pretty"},
		{"search", "deploy"}, {"search", "deploy", "--json"},
		{"export"},
	} {
		plain := crmem(t, "", append(append([]string{}, args...), "--db", db)...)
		if plain.code != 0 || !strings.Contains(plain.stdout, token) {
			t.Errorf("%q without --redact: exit %d, token shown %v", args, plain.code, strings.Contains(plain.stdout, token))
		}
		r := crmem(t, "", append(append([]string{}, args...), "--db", db, "--redact")...)
		if r.code != 0 {
			t.Fatalf("%q --redact: exit %d; stderr %q", args, r.code, r.stderr)
		}
		if strings.Contains(r.stdout, token) || strings.Contains(r.stdout, token[4:]) {
			t.Errorf("%q --redact prints the token:\n%s", args, r.stdout)
		}
		if !strings.Contains(r.stdout, "ghp_…gU8a") || !strings.Contains(r.stdout, "deploy") {
			t.Errorf("%q --redact lacks the redacted token or the rest:\n%s", args, r.stdout)
		}
	}
}

// TestErrors_MaskSecrets checks that an error quoting a name that holds a
// secret masks it.
func TestErrors_MaskSecrets(t *testing.T) {
	const token = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "--db", db, "deploy", "Deploy the billing canary.")
	for _, args := range [][]string{{"show", "key " + token}, {"rm", "key " + token}, {"lint", "--not-duplicate", "deploy", "key " + token}} {
		r := crmem(t, "", append(args, "--db", db)...)
		if r.code == 0 || r.stderr == "" {
			t.Fatalf("%q: exit %d, stderr %q; want an error", args, r.code, r.stderr)
		}
		if strings.Contains(r.stderr, token) || !strings.Contains(r.stderr, "ghp_…gU8a") {
			t.Errorf("%q: the error does not mask the token: %q", args, r.stderr)
		}
	}
}

// TestReports_NoSecretPrinted runs every report over a memory whose entry
// names and whose agent's recall query hold a token: stats, recalls (the
// list, the report), search --why and check, as text and as JSON. None
// prints it whole; the JSON stays valid.
func TestReports_NoSecretPrinted(t *testing.T) {
	const token = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
	db := filepath.Join(t.TempDir(), "memory.db")
	name := "deploy " + token
	mustRun(t, "", "add", "--db", db, name, "Deploy the billing canary.\nGITHUB_TOKEN="+token+"\n")
	mustRun(t, "", "add", "--db", db, "notes", "Plain notes about the canary.")
	dir := filepath.Join(filepath.Dir(db), "sessions", "crab_eve_1")
	must(t, os.MkdirAll(dir, 0o755))
	q, _ := json.Marshal("canary " + token)
	res, _ := json.Marshal("## " + name + "\nDeploy the billing canary.")
	must(t, os.WriteFile(filepath.Join(dir, "step-000000"), []byte(`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":`+string(q)+`}}]}}`), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "step-000001"), []byte(`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":`+string(res)+`}]}}`), 0o644))
	for _, args := range [][]string{
		{"stats"}, {"stats", "--json"},
		{"recalls"}, {"recalls", "--json"}, {"recalls", "--report"}, {"recalls", "--report", "--json"},
		{"search", "canary", token, "--why", name}, {"search", "canary", token, "--why", name, "--json"},
		{"check"}, {"check", "--json"},
	} {
		r := crmem(t, "", append(append([]string{}, args...), "--db", db)...)
		if strings.Contains(r.stdout+r.stderr, token) {
			t.Errorf("%q prints the token:\n%s%s", args, r.stdout, r.stderr)
		}
		if args[len(args)-1] == "--json" && !json.Valid([]byte(r.stdout)) {
			t.Errorf("%q: not valid JSON:\n%s", args, r.stdout)
		}
		if !strings.Contains(r.stdout, "ghp_…gU8a") && args[0] != "check" {
			t.Errorf("%q does not show the redacted name:\n%s", args, r.stdout)
		}
	}
}

// TestLineMasker: a report streamed line by line is masked even when a
// secret reaches the writer in pieces, and each line is passed on once
// complete.
func TestLineMasker(t *testing.T) {
	const token = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
	var out strings.Builder
	lm := &lineMasker{out: &out}
	for _, piece := range []string{"first ", token[:10], token[10:] + " end\nsecond", " line"} {
		if _, err := lm.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	if got := out.String(); got != "first ghp_…gU8a end\n" {
		t.Errorf("after the first line: %q", got)
	}
	if err := lm.close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "first ghp_…gU8a end\nsecond line" {
		t.Errorf("at the end: %q", got)
	}
}

// TestRecallProblems_MaskSecrets: the line on stderr saying what reading
// the sessions skipped is masked as error lines are. The sessions hold a
// token in a recall with malformed arguments, in an unparsable step and in
// a result that cannot be read as names; with no sessions folder the line
// names the folder's path, here under a folder named with a token. recalls
// (list and report), stats and search --why (which reads no sessions)
// print the token in no form but its redacted one.
func TestRecallProblems_MaskSecrets(t *testing.T) {
	const token = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "--db", db, "deploy", "Deploy the billing canary.")
	dir := filepath.Join(filepath.Dir(db), "sessions", "crab_eve_1")
	must(t, os.MkdirAll(dir, 0o755))
	steps := []string{
		`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"recall","input":{"query":["canary ` + token + `"],"limit":"` + token + `"}}]}}`,
		`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"oops"}]}}`,
		`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"recall","input":{"query":"canary"}}]}}`,
		`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":"## nope ` + token + `\nDeploy the billing canary."}]}}`,
		`{"message": ` + token,
	}
	for i, s := range steps {
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("step-%06d", i)), []byte(s), 0o644))
	}
	// A memory in a folder named with a token, without sessions beside it.
	bare := filepath.Join(t.TempDir(), "key "+token, "memory.db")
	must(t, os.MkdirAll(filepath.Dir(bare), 0o755))
	mustRun(t, "", "add", "--db", bare, "deploy", "Deploy the billing canary.")
	for _, c := range []struct {
		db   string
		args []string
	}{
		{db, []string{"recalls"}}, {db, []string{"recalls", "--report"}}, {db, []string{"stats"}},
		{db, []string{"search", "canary", "--why", "deploy"}},
		{bare, []string{"recalls"}}, {bare, []string{"recalls", "--report"}},
		{bare, []string{"recalls", "--json"}}, {bare, []string{"stats"}}, {bare, []string{"stats", "--json"}},
	} {
		r := crmem(t, "", append(append([]string{}, c.args...), "--db", c.db)...)
		wantLine := c.args[0] == "recalls" || c.args[0] == "stats" && c.db == db // stats names no missing folder
		if wantLine && !strings.Contains(r.stderr, "crmem: recalls: ") {
			t.Errorf("%q: no problem line on stderr: %q", c.args, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, token) {
			t.Errorf("%q prints the token:\n%s%s", c.args, r.stdout, r.stderr)
		}
	}
}
