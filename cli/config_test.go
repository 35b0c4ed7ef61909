package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runWithConfig runs crmem in-process with a private HOME and config file.
func runWithConfig(t *testing.T, home string, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		if k == "CRMEM_CONFIG" && env[k] == "" {
			return filepath.Join(home, "config.toml")
		}
		return env[k]
	}
	var out, errb strings.Builder
	code = run(args, strings.NewReader(""), &out, &errb, getenv)
	return code, out.String(), errb.String()
}

// writeConfig writes home/config.toml.
func writeConfigFile(t *testing.T, home, text string) string {
	t.Helper()
	p := filepath.Join(home, "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConfig_ShowsValueAndSource: `crmem config` lists every setting with
// its source, each layer overriding the one below.
func TestConfig_ShowsValueAndSource(t *testing.T) {
	home := t.TempDir()
	cfg := writeConfigFile(t, home, "db = \"~/file.db\"\nsort = \"name\"\nstyle = \"light\"\n[keys]\nquit = [\"Q\", \"ctrl+c\"]\n")
	code, out, errs := runWithConfig(t, home, map[string]string{"CRMEM_STYLE": "dark"}, "config", "--db", "/flag.db")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := map[string]string{
		"db":           `"/flag.db"  # --db`,
		"sort":         `"name"  # ` + cfg + ":2",
		"style":        `"dark"  # $CRMEM_STYLE`,
		"mouse":        `true  # default`,
		"keys.quit":    `["Q", "ctrl+c"]  # ` + cfg + ":5",
		"keys.help":    `["?"]  # default`,
		"recall_limit": `5  # default`,
	}
	for name, w := range want {
		found := false
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, name+" = ") {
				found = true
				if got := strings.Join(strings.Fields(strings.TrimPrefix(l, name+" = ")), " "); got != strings.Join(strings.Fields(w), " ") {
					t.Errorf("%s: %q, want %q", name, got, w)
				}
			}
		}
		if !found {
			t.Errorf("no line for %s in\n%s", name, out)
		}
	}
}

// TestConfig_ScreenFlagsAreSources: the flags that only the TUI reads
// are accepted by config too, and reported as the source of their values.
func TestConfig_ScreenFlagsAreSources(t *testing.T) {
	home := t.TempDir()
	writeConfigFile(t, home, "style = \"light\"\n")
	code, out, errs := runWithConfig(t, home, nil, "config", "--style", "notty", "--no-mouse", "--sessions", "/s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{`style = "notty"`, `# --style`, `mouse = false`, `# --no-mouse`, `sessions = "/s"`, `# --sessions`} {
		if !strings.Contains(out, want) {
			t.Errorf("config output lacks %q:\n%s", want, out)
		}
	}
	if code, _, errs := runWithConfig(t, home, nil, "config", "--style", "nosuch"); code != 2 {
		t.Errorf("config --style nosuch: exit %d, want 2 (%s)", code, errs)
	}
}

// TestConfig_DBAppliesToSubcommands: the file's db is used by ls (and the
// flag still wins).
func TestConfig_DBAppliesToSubcommands(t *testing.T) {
	home := t.TempDir()
	db := copyFixture(t, "crmem/small.db")
	writeConfigFile(t, home, "db = "+quoteTOML(db)+"\n")
	code, out, errs := runWithConfig(t, home, nil, "ls")
	if code != 0 || !strings.Contains(out, "deploy-steps") {
		t.Fatalf("ls with db from the config: exit %d, %q %q", code, out, errs)
	}
	sess := filepath.Join(home, "my-sessions")
	writeConfigFile(t, home, "db = "+quoteTOML(db)+"\nsessions = "+quoteTOML(sess)+"\n")
	code, out, errs = runWithConfig(t, home, nil, "check")
	if code != 0 || !strings.Contains(out, sess) {
		t.Fatalf("check with sessions from the config: exit %d, %q %q", code, out, errs)
	}
	code, _, errs = runWithConfig(t, home, nil, "ls", "--db", filepath.Join(home, "missing.db"))
	if code != 1 || !strings.Contains(errs, "missing.db") {
		t.Fatalf("--db did not win over the file: exit %d, %q", code, errs)
	}
}

func quoteTOML(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

// TestConfig_ErrorsStopEverything: a bad file is one line naming file and
// line, exit 2, and the command does not run (nothing written).
func TestConfig_ErrorsStopEverything(t *testing.T) {
	tests := []struct{ file, want string }{
		{"sort = \"random\"\n", ":1: sort must be one of newest, oldest, name, size, not \"random\""},
		{"\n\ncolour = \"red\"\n", ":3: unknown setting \"colour\""},
		{"[keys]\nsort = \"o\"\n", ":2: key \"o\" is bound to both sort and orphans in the list"},
		{"mouse = yes\n", ":1: not valid TOML"},
	}
	for _, tt := range tests {
		home := t.TempDir()
		cfg := writeConfigFile(t, home, tt.file)
		db := filepath.Join(home, "new.db")
		code, out, errs := runWithConfig(t, home, nil, "add", "x", "content", "--db", db)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "crmem: "+cfg+tt.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and crmem: %s%s", tt.file, code, out, errs, cfg, tt.want)
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("%q: the command ran despite the bad config", tt.file)
		}
	}
}

// TestConfig_PathAndDefault: --path prints the file's path even when the
// file is broken; --default prints a file that loads without error.
func TestConfig_PathAndDefault(t *testing.T) {
	home := t.TempDir()
	cfg := writeConfigFile(t, home, "broken = \n")
	code, out, _ := runWithConfig(t, home, nil, "config", "--path")
	if code != 0 || out != cfg+"\n" {
		t.Fatalf("--path: exit %d, %q", code, out)
	}
	code, def, _ := runWithConfig(t, home, nil, "config", "--default")
	if code != 0 || !strings.Contains(def, "[keys]") || !strings.Contains(def, "quit = [\"q\", \"ctrl+c\"]") {
		t.Fatalf("--default: exit %d\n%s", code, def)
	}
	writeConfigFile(t, home, def)
	if code, _, errs := runWithConfig(t, home, nil, "config"); code != 0 {
		t.Fatalf("the default file does not load: %s", errs)
	}
}
