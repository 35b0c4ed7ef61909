package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoHome: with $HOME unset (and no $CRMEM_CONFIG, $XDG_CONFIG_HOME,
// $CRABTALK_HOME or $CRMEM_DB), crmem reads no config file — not
// .config/crmem/config.toml under the working folder, whose db could name
// any memory — and a command that needs the memory refuses as it does
// without one, writing nothing.
func TestNoHome(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	planted := filepath.Join(work, "planted.db")
	if err := os.MkdirAll(filepath.Join(work, ".config", "crmem"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".config", "crmem", "config.toml"), []byte("db = \""+planted+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{} // no HOME
	for _, args := range [][]string{{"add", "note", "text"}, {"ls"}} {
		_, errOut, code := runIn(env, "", args...)
		if code != 1 || !strings.Contains(errOut, "$HOME is not set") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line saying $HOME is not set", args, code, errOut)
		}
	}
	if _, err := os.Stat(planted); err == nil {
		t.Error("the config file under the working folder was read and its memory written")
	}
	out, _, code := runIn(env, "", "config")
	if code != 0 || !strings.Contains(out, "# config file: none ($HOME is not set: defaults)") {
		t.Errorf("config: exit %d, %q", code, out)
	}
	_, errOut, code := runIn(env, "", "config", "--path")
	if code != 1 || !strings.Contains(errOut, "no config file: $HOME is not set") {
		t.Errorf("config --path: exit %d, stderr %q", code, errOut)
	}
	// A path given still works without a home.
	db := filepath.Join(work, "given.db")
	if _, errOut, code := runIn(env, "", "add", "note", "text", "--db", db); code != 0 {
		t.Errorf("add --db without a home: exit %d %s", code, errOut)
	}
}
