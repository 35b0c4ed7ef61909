package cli

import (
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
