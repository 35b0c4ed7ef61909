package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelp_Topics: `crmem help TOPIC` and `--help` anywhere on the line
// show the named command's help; an unknown topic is a usage error with
// the closest command suggested.
func TestHelp_Topics(t *testing.T) {
	ls := inProcess("ls", "--help")
	if ls.code != 0 || !strings.Contains(ls.stdout, "crmem ls [--kind K]") {
		t.Fatalf("ls --help: exit %d, %.200q", ls.code, ls.stdout)
	}
	for _, args := range [][]string{{"--help", "ls"}, {"help", "ls"}, {"ls", "-h"}, {"--demo", "--help", "ls"}} {
		if r := inProcess(args...); r.code != 0 || r.stdout != ls.stdout {
			t.Errorf("%q: exit %d, not ls's help: %.200q", args, r.code, r.stdout)
		}
	}
	if r := inProcess("help", "completion", "bash"); r.code != 0 || !strings.Contains(r.stdout, "bash") || strings.Contains(r.stdout, "zsh") {
		t.Errorf("help completion bash: exit %d, %.200q", r.code, r.stdout)
	}
	if r := inProcess("help"); r.code != 0 || !strings.Contains(r.stdout, "Available Commands:") {
		t.Errorf("help: exit %d, %.200q", r.code, r.stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "serch"}, `crmem: help: no help topic "serch", did you mean "search"? (see 'crmem help --help')` + "\n"},
		{[]string{"help", "zzzzzz"}, `crmem: help: no help topic "zzzzzz" (see 'crmem help --help')` + "\n"},
		{[]string{"help", "ls", "extra"}, `crmem: help: no help topic "ls extra" (see 'crmem help --help')` + "\n"},
	} {
		if r := inProcess(c.args...); r.code != 2 || r.stdout != "" || r.stderr != c.want {
			t.Errorf("%q: exit %d, stdout %.80q, stderr %q; want 2 and %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
}

// TestHelp_BoolFlags: boolean flags read --demo, not --demo[=true|false],
// in every command's help, and still take an explicit value.
func TestHelp_BoolFlags(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"ls", "--help"}, {"version", "--help"}, {"help", "--help"}, {"completion", "bash", "--help"}} {
		r := inProcess(args...)
		if strings.Contains(r.stdout, "[=true|false]") || !strings.Contains(r.stdout, "  -h, --help ") {
			t.Errorf("%q:\n%s", args, r.stdout)
		}
	}
	if r := inProcess("--demo=false", "tokens", "x"); r.code != 0 {
		t.Errorf("--demo=false: exit %d, %s", r.code, r.stderr)
	}
	if r := inProcess("--demo=maybe", "tokens", "x"); r.code != 2 {
		t.Errorf("--demo=maybe: exit %d, %s", r.code, r.stderr)
	}
}

// TestHelp_NoHandBrokenLines: no help text has a line that ends a sentence
// fragment far short of the others around it, as version's "(devel)"), the
// git" did: each paragraph is wrapped once.
func TestHelp_NoHandBrokenLines(t *testing.T) {
	a := newApp(nil, nil, nil, func(string) string { return "" })
	root := a.rootCommand()
	for _, c := range append(root.Commands(), root) {
		lines := strings.Split(c.Long, "\n")
		for i := 0; i+1 < len(lines); i++ {
			cur, next := lines[i], lines[i+1]
			if strings.HasPrefix(cur, " ") || strings.HasPrefix(next, " ") || cur == "" || next == "" {
				continue
			}
			if first, _, _ := strings.Cut(next, " "); len(cur)+1+len(first) <= 60 {
				t.Errorf("%s: line %d %q is broken early (%q fits after it)", c.Name(), i+1, cur, first)
			}
		}
	}
}

// TestComplete_DemoNames: entry names complete from the sample memory with
// --demo, and its copy is gone afterwards.
func TestComplete_DemoNames(t *testing.T) {
	tmp := t.TempDir()
	for _, args := range [][]string{{"--demo", "show", "dep"}, {"show", "--demo", "dep"}} {
		cmd := exec.Command(crmemBin, append([]string{"__complete"}, args...)...)
		cmd.Env = append(testEnv(), "TMPDIR="+tmp)
		r := runCommand(t, cmd)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "deploy-steps\n") {
			t.Errorf("%q: exit %d, %q", args, r.code, r.stdout)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
}

// TestHelp_DBNamesEveryLayer: --db's help names every place the memory
// file comes from when the flag is not given, in the order crmem looks
// ($CRMEM_DB, which wins over the config file's db, then crabtalk's
// folder); it left out the config file.
func TestHelp_DBNamesEveryLayer(t *testing.T) {
	var line string
	for l := range strings.Lines(inProcess("ls", "--help").stdout) {
		if strings.Contains(l, "--db string") {
			line = l
		}
	}
	at := 0
	for _, want := range []string{"$CRMEM_DB", "the config file's db", "memory.db in $CRABTALK_HOME or ~/.crabtalk", "store.crmem"} {
		i := strings.Index(line[at:], want)
		if i < 0 {
			t.Fatalf("--db's help lacks %q after %q: %q", want, line[:at], line)
		}
		at += i + len(want)
	}
	// The order is the one crmem follows: the variable over the file.
	conf := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(conf, []byte(`db = "/from/the/file/memory.db"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env         []string
		value, from string
	}{
		{[]string{"CRMEM_DB=/from/the/variable/memory.db"}, `"/from/the/variable/memory.db"`, "$CRMEM_DB"},
		{nil, `"/from/the/file/memory.db"`, conf + ":1"},
	} {
		cmd := exec.Command(crmemBin, "config")
		cmd.Env = append(append(testEnv(), "CRMEM_CONFIG="+conf), c.env...)
		r := runCommand(t, cmd)
		var db []string
		for l := range strings.Lines(r.stdout) {
			if strings.HasPrefix(l, "db = ") {
				db = strings.Fields(l)
			}
		}
		if r.code != 0 || len(db) != 5 || db[2] != c.value || db[4] != c.from {
			t.Errorf("%q: crmem config: exit %d, db %q; want %s from %s", c.env, r.code, db, c.value, c.from)
		}
	}
}
