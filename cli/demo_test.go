package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo_EverySubcommand: --demo gives every subcommand the sample
// memory, a fresh copy each run that is gone when crmem ends, so a write
// changes nothing the next run sees.
func TestDemo_EverySubcommand(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	env := map[string]string{"CRABTALK_HOME": t.TempDir()} // no memory of its own
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--demo", "ls"}, "deploy-steps"},
		{[]string{"show", "ship", "--demo"}, "Deploying the billing service"},
		{[]string{"--demo", "search", "deploy", "rollback", "--limit", "3"}, "deploy-steps"},
		{[]string{"--demo", "check"}, "valid CRMEM v1 file"},
		{[]string{"--demo", "recalls"}, `"VAT rounding rules"`},
		{[]string{"--demo", "recalls", "--report"}, "never recalled: "},
		{[]string{"--demo", "export"}, `"name":"deploy-steps"`},
		{[]string{"--demo", "add", "scratch-note", "hello"}, "added scratch-note"},
		{[]string{"--demo", "show", "scratch-note"}, ""}, // the add above was on another copy
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errOut, code := runIn(env, "", c.args...)
			if c.want == "" {
				if code != 1 || !strings.Contains(errOut, `no such entry "scratch-note"`) {
					t.Errorf("exit %d, stderr %q: a demo write was kept", code, errOut)
				}
			} else if code != 0 || !strings.Contains(out, c.want) {
				t.Errorf("exit %d, stdout %.200q, stderr %q; want %q", code, out, errOut, c.want)
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "crmem-demo-*")); len(left) != 0 {
				t.Errorf("demo folder left behind: %v", left)
			}
		})
	}
	if _, errOut, code := runIn(env, "", "--demo", "--db", "x.db", "ls"); code != 2 || !strings.Contains(errOut, "--demo and --db exclude each other") {
		t.Errorf("--demo --db: exit %d, %q", code, errOut)
	}
}

// TestMissingDefaultMemory_SaysWhatToDo: a missing default memory file
// names the ways to choose one and --demo; a missing file named on purpose
// stays a plain "no such file".
func TestMissingDefaultMemory_SaysWhatToDo(t *testing.T) {
	home := t.TempDir()
	want := filepath.Join(home, "memory.db") + ": no such file; point crmem at a memory with --db PATH, $CRMEM_DB or db in the config file (crmem config --path), or try the sample memory: crmem --demo ls\n"
	for _, args := range [][]string{{"show", "deploy-steps"}, {"ls"}, {"search", "x"}, {"check"}, {"edit", "x", "--no-terminal"}} {
		_, errOut, code := runIn(map[string]string{"CRABTALK_HOME": home}, "", args...)
		if code != 1 || errOut != "crmem: "+want {
			t.Errorf("%v: exit %d, stderr %q\nwant %q", args, code, errOut, want)
		}
	}
	named := filepath.Join(home, "other.db")
	for _, env := range []map[string]string{{"CRMEM_DB": named}, {}} {
		args := []string{"ls"}
		if len(env) == 0 {
			args = append(args, "--db", named)
		}
		if _, errOut, _ := runIn(env, "", args...); errOut != "crmem: "+named+": no such file\n" {
			t.Errorf("%v %v: stderr %q", env, args, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "memory.db")); err == nil {
		t.Error("a read created the memory file")
	}
}
