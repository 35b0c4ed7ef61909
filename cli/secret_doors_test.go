package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecrets_NoDoor plants secrets of every form issue 39 found printed
// whole (a Stripe key the hits table cut short, names holding secrets, an
// AWS key id the --why terms lowercased, a Google key before "&",
// admin_password: and DB_PASSWORD=, an AWS secret key in prose, and a
// credential no rule knows, found by its shape alone) in contents, names
// and the query, and runs every report that shows them: lint (text, JSON,
// --diff), search --why (text, JSON) and --redact on show, ls, search and
// export. None prints a secret whole; what is no secret (a commit id, a
// UUID) stays readable where it is printed.
func TestSecrets_NoDoor(t *testing.T) {
	const (
		stripe  = "sk_live_4eC39HqLyjWDarjtT1zdp7dcXy12AbCd"
		akia    = "AKIAZ7Q4LMNB3XK2PQ6R"
		google  = "AIzaSyB7x2Lq9ZrT4mW8vN3pK6cF1dH5jS0gE2u"
		adminPw = "Zq7hunter2x"
		dbPw    = "s3cr3tPw9"
		awsSec  = "q8Vt2RmZ7xK4pLw9Nb3Jc6Hd1Fg5Sy0Ae+Tu/Xo2"
		shape   = "Zx9qL2vB7nM4kP8wR3tY6uJ1hG5fD0sA"
		ghp     = "ghp_R8fK2mQ9xT4vL7wN1pZ5sJ3hB6cY0dE2gU8a"
		commit  = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
		uuid    = "550e8400-e29b-41d4-a716-446655440000"
	)
	secrets := []string{stripe, akia, google, adminPw, dbPw, awsSec, shape, ghp}
	db := filepath.Join(t.TempDir(), "memory.db")
	shared := "Billing runbook for the payments service.\nDeploy from commit " + commit + " with request " + uuid + ".\nRestart the workers after the deploy.\nCheck the dashboards for errors.\n"
	mustRun(t, "", "add", "--db", db, "billing-runbook", shared+"Charge with "+stripe+" then retry.\nGET https://maps.googleapis.com/maps/api/geocode/json?key="+google+"&address=Paris\n")
	mustRun(t, "", "add", "--db", db, "billing-runbook-copy", shared+"admin_password: "+adminPw+"\nexport DB_PASSWORD="+dbPw+"\nthe AWS secret is "+awsSec+" for the backup bucket\nthe session cookie was "+shape+" yesterday\n")
	names := []string{"stripe " + stripe, "key " + akia + " billing", "token " + ghp}
	for _, n := range names {
		mustRun(t, "", "add", "--db", db, n, "billing notes for "+akia+" and the payments service")
	}
	query := []string{"billing", akia, stripe}
	runs := [][]string{
		{"lint"}, {"lint", "--json"}, {"lint", "--diff"},
		{"show", "billing-runbook", "--redact"}, {"show", "billing-runbook-copy", "--redact"},
		{"ls", "--redact"}, {"ls", "--json", "--redact"}, {"export", "--redact"},
		{"search", "billing", "--redact"}, {"search", "billing", "--json", "--redact"},
	}
	for _, n := range append(names, "billing-runbook", "billing-runbook-copy") {
		runs = append(runs, append(append([]string{"search"}, query...), "--why", n),
			append(append([]string{"search"}, query...), "--why", n, "--json"))
	}
	for _, args := range runs {
		r := crmem(t, "", append(append([]string{}, args...), "--db", db)...)
		if r.code > 1 {
			t.Fatalf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
		out := r.stdout + r.stderr
		for _, s := range secrets {
			if strings.Contains(out, s) || strings.Contains(strings.ToLower(out), strings.ToLower(s)) {
				t.Errorf("%q prints %q whole:\n%s", args, s, out)
			}
		}
		if strings.Contains(strings.Join(args, " "), "--json") && !json.Valid([]byte(strings.TrimSpace(r.stdout))) && !strings.Contains(strings.Join(args, " "), "export") {
			t.Errorf("%q: invalid JSON:\n%s", args, r.stdout)
		}
		if args[0] == "show" && args[1] == "billing-runbook" && (!strings.Contains(r.stdout, commit) || !strings.Contains(r.stdout, uuid)) {
			t.Errorf("%q: the commit id or the UUID was masked:\n%s", args, r.stdout)
		}
	}
}
