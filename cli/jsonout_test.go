package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSON_OneLineAndPretty pins the JSON output of every subcommand that
// has --json: one line (a single trailing newline), and --pretty is the
// same value indented over several lines.
func TestJSON_OneLineAndPretty(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "deploy-steps", "tag <v2> & push\x1b[31m\nthen deploy the canary", "--alias", "ship", "--db", db)
	mustRun(t, "", "add", "db-migrations", "run the migration job before deploy", "--kind", "archive", "--db", db)
	for _, args := range [][]string{
		{"ls"},
		{"ls", "--kind", "archive"},
		{"show", "ship"},
		{"search", "deploy"},
		{"search", "deploy", "--explain"},
		{"search", "nothing-matches"},
		{"tokens", "The Deploy-Steps of ΣΟΦΟΣ"},
		{"check"},
		{"bench", "--iterations", "1"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			line := mustRun(t, "", append(args, "--json", "--db", db)...)
			if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
				t.Fatalf("--json is not one line:\n%s", line)
			}
			if !json.Valid([]byte(line)) {
				t.Fatalf("--json is not JSON: %s", line)
			}
			pretty := mustRun(t, "", append(args, "--pretty", "--db", db)...)
			if strings.Count(pretty, "\n") < 2 && line != "[]\n" {
				t.Fatalf("--pretty is not indented:\n%s", pretty)
			}
			if args[0] == "bench" {
				return // timings differ between runs
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, []byte(pretty)); err != nil {
				t.Fatalf("--pretty is not JSON: %v\n%s", err, pretty)
			}
			if compact.String()+"\n" != line {
				t.Errorf("--pretty and --json differ:\n%s\n%s", compact.String(), line)
			}
			both := mustRun(t, "", append(args, "--json", "--pretty", "--db", db)...)
			if both != pretty {
				t.Errorf("--json --pretty differs from --pretty")
			}
		})
	}
}

// TestJSON_PrettyEscapes: indenting keeps the escapes of the one-line form
// (ESC as \u001b, < and & unescaped).
func TestJSON_PrettyEscapes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	mustRun(t, "", "add", "n", "a <b> & \x1b[31m c", "--db", db)
	for _, flag := range []string{"--json", "--pretty"} {
		out := mustRun(t, "", "show", "n", flag, "--db", db)
		if !strings.Contains(out, `"a <b> & \u001b[31m c"`) {
			t.Errorf("%s: content not escaped as expected:\n%s", flag, out)
		}
	}
}
