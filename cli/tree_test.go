package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandFor_Table: every row of the command table names the command
// it builds, and the whole tree holds every row.
func TestCommandFor_Table(t *testing.T) {
	a := newApp(nil, nil, nil, func(string) string { return "" })
	root := a.rootCommand()
	for _, sc := range a.subcommands() {
		if got := sc.build().Name(); got != sc.name {
			t.Errorf("the row %q builds the command %q", sc.name, got)
		}
		if c, _, err := root.Find([]string{sc.name}); err != nil || c.Name() != sc.name {
			t.Errorf("the whole tree has no %q: %v", sc.name, err)
		}
		if one := a.commandTree(sc.name); len(one.Commands()) != 1 || one.Commands()[0].Name() != sc.name {
			t.Errorf("commandTree(%q) holds %d commands", sc.name, len(one.Commands()))
		}
	}
}

// TestCommandFor_PlainSubcommand: only a line of --demo and --db, then a
// subcommand's name and no help flag after it, names the subcommand to
// build alone; anything else builds the whole tree.
func TestCommandFor_PlainSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"version"}, "version"},
		{[]string{"search", "--json", "deploy"}, "search"},
		{[]string{"--db", "m.db", "search", "deploy"}, "search"},
		{[]string{"--db=m.db", "--demo", "ls", "-n", "3"}, "ls"},
		{[]string{"--demo=false", "tokens", "x"}, "tokens"},
		{[]string{"--db", "search", "ls"}, "ls"}, // search is --db's value
		{[]string{"search", "--", "deploy"}, "search"},
		{nil, ""},
		{[]string{"--db"}, ""},
		{[]string{"--db", "m.db"}, ""},
		{[]string{"--style", "dark", "ls"}, ""},
		{[]string{"--help", "ls"}, ""},
		{[]string{"-h"}, ""},
		{[]string{"--", "ls"}, ""},
		{[]string{"ls", "--help"}, ""},
		{[]string{"ls", "--help=true"}, ""},
		{[]string{"ls", "-h"}, ""},
		{[]string{"ls", "-nh"}, ""},
		{[]string{"search", "--", "-h"}, ""},
	} {
		if got := plainSubcommand(c.args); got != c.want {
			t.Errorf("plainSubcommand(%q) = %q, want %q", c.args, got, c.want)
		}
	}
	a := newApp(nil, nil, nil, func(string) string { return "" })
	for _, args := range [][]string{{"man", "/tmp/x"}, {"audit"}, {"completion", "bash"}, {"help", "ls"}, {"__complete", "l"}, {"nosuch"}} {
		if n := len(a.commandFor(args).Commands()); n < len(a.subcommands()) {
			t.Errorf("%q runs in a tree of %d commands, not the whole tree", args, n)
		}
	}
}

// TestCommandFor_SameAsWholeTree: a command line run in the tree of its one
// subcommand (commandFor) prints and exits exactly as it does in the whole
// tree, for every subcommand of the table: its plain runs, its JSON, its
// errors (unknown flag, bad value, extra arguments, a missing file) and
// the persistent flags before it.
func TestCommandFor_SameAsWholeTree(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "memory.db")
	fixture := mustRead(t, filepath.Join("..", "testdata", "reference", "crmem", "small.db"))
	tree := filepath.Join(dir, "tree")
	must(t, os.MkdirAll(filepath.Join(tree, "notes"), 0o700))
	must(t, os.WriteFile(filepath.Join(tree, "notes", "x.md"), []byte("x"), 0o600))
	jsonl := filepath.Join(dir, "in.jsonl")
	must(t, os.WriteFile(jsonl, []byte(`{"id":1,"name":"x","kind":"note","created_at":1,"aliases":[],"content":"x"}`+"\n"), 0o600))
	perCommand := map[string][][]string{
		"ls":      {{}, {"--json"}, {"--kind", "note", "-n", "2"}, {"--kind", "nope"}},
		"show":    {{"deploy-steps"}, {"ship", "--json"}, {"nope"}},
		"search":  {{"deploy"}, {"--json", "deploy", "canary", "rollback"}, {"-n", "1", "rust"}, {"--limit", "x", "deploy"}, {}},
		"tokens":  {{"Deploy the canary"}, {}},
		"add":     {{"new-note", "body"}, {"deploy-steps", "body"}},
		"update":  {{"deploy-steps", "body"}, {"nope", "body"}},
		"write":   {{"deploy-steps", "body"}, {"fresh", "body"}},
		"alias":   {{"deploy-steps", "a"}},
		"rename":  {{"deploy-steps", "other"}},
		"rm":      {{"deploy-steps"}, {"nope"}},
		"edit":    {{"--no-terminal", "nope"}}, // an editor run here reads stdin or not: SIGPIPE, or not
		"dump":    {{filepath.Join(dir, "dumped")}},
		"load":    {{tree}},
		"export":  {{}, {"--format", "jsonl"}},
		"import":  {{jsonl}},
		"check":   {{}, {"--json"}},
		"stats":   {{}, {"--json"}},
		"bench":   {{"--iterations", "x"}},
		"config":  {{}, {"--path"}, {"--default"}},
		"version": {{}},
		"lint":    {{}, {"--json"}},
		"recalls": {{}, {"--report"}},
		"history": {{"deploy-steps"}, {"--deleted"}},
		"diff":    {{"deploy-steps"}},
		"restore": {{"deploy-steps", "1"}},
	}
	for _, sc := range newApp(nil, nil, nil, nil).subcommands() {
		if wholeTree[sc.name] {
			continue
		}
		lines := append(perCommand[sc.name], []string{"--no-such-flag"}, []string{"x", "y", "z", "w", "v", "u"})
		if _, ok := perCommand[sc.name]; !ok {
			t.Errorf("%s: no arguments in this test; add them", sc.name)
		}
		for _, rest := range lines {
			for _, before := range [][]string{{"--db", db}, {"--db=" + db, "--demo=false"}, {"--db", filepath.Join(dir, "missing", "m.db")}} {
				args := append(append(append([]string{}, before...), sc.name), rest...)
				var got [2]string
				var codes [2]int
				for i, whole := range []bool{false, true} {
					must(t, os.WriteFile(db, fixture, 0o600))
					must(t, os.RemoveAll(filepath.Join(dir, "dumped")))
					home := filepath.Join(dir, "home")
					must(t, os.RemoveAll(home))
					must(t, os.MkdirAll(home, 0o700))
					env := map[string]string{"HOME": home, "CRABTALK_HOME": home, "EDITOR": "true", "VISUAL": "true"}
					var out, errb bytes.Buffer
					a := newApp(strings.NewReader("stdin body"), &out, &errb, func(k string) string { return env[k] })
					a.opener.guard, a.whole = daemonRunning, whole
					codes[i] = a.execute(args)
					got[i] = "stdout:\n" + out.String() + "\nstderr:\n" + errb.String()
				}
				if got[0] != got[1] || codes[0] != codes[1] {
					t.Errorf("crmem %q: in the tree of %s alone, exit %d and\n%s\nin the whole tree, exit %d and\n%s", args, sc.name, codes[0], got[0], codes[1], got[1])
				}
			}
		}
	}
}
