package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/check"
)

func mustJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
}

func containsLine(out, s string) bool {
	for line := range strings.SplitSeq(out, "\n") {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// lsJSON lists the file through `crmem ls --json`.
func lsJSON(t *testing.T, db string) []jsonEntry {
	t.Helper()
	var es []jsonEntry
	mustJSON(t, mustRun(t, "", "ls", "--json", "--db", db), &es)
	return es
}

// byName finds an entry in a listing.
func byName(es []jsonEntry, name string) (jsonEntry, bool) {
	for _, e := range es {
		if e.Name == name {
			return e, true
		}
	}
	return jsonEntry{}, false
}

// TestWrite_Sequence adds, updates, writes, aliases, renames and removes
// entries, checking the listing after each step and re-reading the file with
// store.Open at the end.
func TestWrite_Sequence(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	steps := []struct {
		stdin string
		args  []string
		check func(t *testing.T, es []jsonEntry)
	}{
		{"", []string{"add", "deploy-steps", "tag, push, watch", "--alias", "ship", "--alias", "release"}, func(t *testing.T, es []jsonEntry) {
			want := jsonEntry{ID: 1, Name: "deploy-steps", Kind: "note", Aliases: []string{"ship", "release"}, Content: "tag, push, watch"}
			if len(es) != 1 || !sameEntry(es[0], want) {
				t.Fatalf("got %+v, want %+v", es, want)
			}
		}},
		{"from stdin\n", []string{"add", "--kind", "archive", "arch-1"}, func(t *testing.T, es []jsonEntry) {
			e, ok := byName(es, "arch-1")
			if !ok || e.ID != 2 || e.Kind != "archive" || e.Content != "from stdin\n" || len(e.Aliases) != 0 {
				t.Fatalf("arch-1: %+v", e)
			}
		}},
		{"dash stdin", []string{"add", "topic-1", "-", "--kind", "topic"}, func(t *testing.T, es []jsonEntry) {
			if e, _ := byName(es, "topic-1"); e.Kind != "topic" || e.Content != "dash stdin" {
				t.Fatalf("topic-1: %+v", e)
			}
		}},
		{"", []string{"write", "ship", "new body"}, func(t *testing.T, es []jsonEntry) {
			e, _ := byName(es, "deploy-steps")
			if e.Content != "new body" || !slices.Equal(e.Aliases, []string{"ship", "release"}) {
				t.Fatalf("write by alias: %+v", e)
			}
		}},
		{"", []string{"update", "deploy-steps", "updated", "--alias", "rollout"}, func(t *testing.T, es []jsonEntry) {
			e, _ := byName(es, "deploy-steps")
			if e.Content != "updated" || !slices.Equal(e.Aliases, []string{"rollout"}) || e.ID != 1 {
				t.Fatalf("update: %+v", e)
			}
		}},
		{"", []string{"alias", "deploy-steps", "a1", "a2"}, func(t *testing.T, es []jsonEntry) {
			if e, _ := byName(es, "deploy-steps"); !slices.Equal(e.Aliases, []string{"a1", "a2"}) {
				t.Fatalf("alias: %+v", e)
			}
		}},
		{"", []string{"alias", "deploy-steps"}, func(t *testing.T, es []jsonEntry) {
			if e, _ := byName(es, "deploy-steps"); e.Aliases == nil || len(e.Aliases) != 0 {
				t.Fatalf("alias clear: %+v", e)
			}
		}},
		{"", []string{"rename", "deploy-steps", "release-checklist"}, func(t *testing.T, es []jsonEntry) {
			if _, ok := byName(es, "deploy-steps"); ok {
				t.Fatal("old name still listed")
			}
			if e, ok := byName(es, "release-checklist"); !ok || e.ID != 1 || e.Content != "updated" {
				t.Fatalf("rename: %+v", e)
			}
		}},
		{"", []string{"rm", "arch-1", "topic-1"}, func(t *testing.T, es []jsonEntry) {
			if len(es) != 1 || es[0].Name != "release-checklist" {
				t.Fatalf("rm: %+v", es)
			}
		}},
		{"", []string{"add", "after-rm", "x"}, func(t *testing.T, es []jsonEntry) {
			if e, _ := byName(es, "after-rm"); e.ID != 4 {
				t.Fatalf("ids must not be reused: %+v", e)
			}
		}},
	}
	for _, s := range steps {
		mustRun(t, s.stdin, append(s.args, "--db", db)...)
		s.check(t, lsJSON(t, db))
	}
	fi, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v, want 0600", fi.Mode().Perm())
	}
	reopened, err := store.OpenWith(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := reopened.Memory().Entries()
	if len(got) != 2 || got[0].Name != "release-checklist" || got[1].Name != "after-rm" || reopened.Memory().NextID() != 5 {
		t.Fatalf("store.Open sees %+v (next id %d)", got, reopened.Memory().NextID())
	}
}

func sameEntry(a, b jsonEntry) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Kind == b.Kind && a.Content == b.Content && slices.Equal(a.Aliases, b.Aliases)
}

// TestRm_NameAndAlias removes one entry named twice (by name and by alias)
// together with another.
func TestRm_NameAndAlias(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	out := mustRun(t, "", "rm", "deploy-steps", "ship", "scratch", "--db", db)
	if strings.Count(out, "removed ") != 2 {
		t.Errorf("rm output: %q", out)
	}
	es := lsJSON(t, db)
	if len(es) != 24 {
		t.Fatalf("%d entries left, want 24", len(es))
	}
	for _, n := range []string{"deploy-steps", "scratch"} {
		if _, ok := byName(es, n); ok {
			t.Errorf("%s still there", n)
		}
	}
}

// TestWrite_Failures checks that failing writes exit 1 with one clear line
// and leave the file as it was.
func TestWrite_Failures(t *testing.T) {
	cases := []struct {
		args []string
		want string // substring of the stderr line after "crmem: "
	}{
		{[]string{"add", "deploy-steps", "dup"}, `name "deploy-steps" is already taken`},
		{[]string{"add", "bad/name", "x"}, `name "bad/name"`},
		{[]string{"add", "..", "x"}, `name ".."`},
		{[]string{"add", "x", "y", "--alias", ""}, "alias cannot be empty"},
		{[]string{"update", "nope", "x"}, `no such entry "nope"`},
		{[]string{"write", "nope", "x"}, `no such entry "nope"`},
		{[]string{"alias", "nope", "a"}, `no such entry "nope"`},
		{[]string{"rename", "nope", "other"}, `no such entry "nope"`},
		{[]string{"rename", "deploy-steps", "db-migrations"}, `name "db-migrations" is already taken`},
		{[]string{"rename", "deploy-steps", "a/b"}, `name "a/b"`},
		{[]string{"rm", "nope"}, `no such entry "nope"`},
		{[]string{"rm", "deploy-steps", "nope"}, `no such entry "nope"; nothing removed`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			db := copyFixture(t, "crmem/small.db")
			before := readFile(t, db)
			r := crmem(t, "", append(c.args, "--db", db)...)
			if r.code != 1 || !strings.HasPrefix(r.stderr, "crmem: ") || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want exit 1 and one line containing %q", r.code, r.stderr, c.want)
			}
			if !bytes.Equal(readFile(t, db), before) {
				t.Fatal("the file changed")
			}
		})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBadFiles checks every reject fixture against read and write
// subcommands: exit 1, the reference's reason on stderr, file unchanged. A
// read and a write subcommand run as processes; every subcommand also runs
// in-process (the same code path, without a process per case).
func TestBadFiles(t *testing.T) {
	var expected map[string]string
	mustJSON(t, string(readFile(t, filepath.Join("..", "testdata", "reference", "bad", "expected.json"))), &expected)
	if len(expected) == 0 {
		t.Fatal("no reject fixtures")
	}
	commands := [][]string{
		{"ls"}, {"ls", "--json"}, {"show", "x"}, {"search", "x"}, {"check"}, {"check", "--json"}, {"bench", "--iterations", "1"},
		{"add", "new", "c"}, {"update", "x", "c"}, {"write", "x", "c"}, {"alias", "x", "a"}, {"rename", "x", "y"}, {"rm", "x"},
		{"history", "x"}, {"history", "--deleted"}, {"diff", "x"}, {"restore", "x", "1"},
	}
	asProcess := map[string]bool{"check": true, "add": true}
	for name, reason := range expected {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			db := copyFixture(t, filepath.Join("bad", name))
			before := readFile(t, db)
			want := "crmem: " + db + ": " + reason + "\n"
			for _, args := range commands {
				args = append(args, "--db", db)
				r := inProcess(args...)
				if asProcess[args[0]] {
					r = crmemProcess(t, "", args...)
				}
				if r.code != 1 || r.stderr != want {
					t.Errorf("%v: exit %d, stderr %q; want exit 1, %q", args, r.code, r.stderr, want)
				}
				if !bytes.Equal(readFile(t, db), before) {
					t.Fatalf("%v changed the file", args)
				}
			}
		})
	}
}

// inProcess runs the command line through run, with no environment.
func inProcess(args ...string) result {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	return result{out.String(), errb.String(), code}
}

// TestOddFiles checks the files the reader must accept and what check says.
func TestOddFiles(t *testing.T) {
	cases := []struct {
		file    string
		entries int
		anomaly string // an anomaly kind check must report ("" none)
		extra   func(t *testing.T, db string)
	}{
		{"ok-empty-db.db", 0, "", nil},
		{"ok-huge-timestamp.db", 1, "", func(t *testing.T, db string) {
			if out := mustRun(t, "", "show", "hey", "--db", db); !strings.Contains(out, "yo") {
				t.Errorf("show by alias: %q", out)
			}
		}},
		{"ok-duplicate-names.db", 2, "duplicate_name", func(t *testing.T, db string) {
			es := lsJSON(t, db)
			var e jsonEntry
			mustJSON(t, mustRun(t, "", "show", es[0].Name, "--json", "--db", db), &e)
			if e.ID != 2 {
				t.Errorf("lookup of a duplicate name found id %d, want 2", e.ID)
			}
		}},
		{"ok-stale-next-id.db", -1, "stale_next_id", func(t *testing.T, db string) {
			mustRun(t, "", "add", "fresh", "x", "--db", db)
			if e, _ := byName(lsJSON(t, db), "fresh"); e.ID != 10 {
				t.Errorf("added entry got id %d, want 10", e.ID)
			}
		}},
		{"ok-topic-kind.db", 2, "", func(t *testing.T, db string) {
			var es []jsonEntry
			mustJSON(t, mustRun(t, "", "ls", "--kind", "topic", "--json", "--db", db), &es)
			if len(es) != 1 || es[0].Kind != "topic" {
				t.Errorf("ls --kind topic: %+v", es)
			}
		}},
		{"ok-trailing-bytes.db", 2, "trailing_bytes", nil},
	}
	// Every file the fixtures' ok.json describes has its case here.
	var described map[string]string
	mustJSON(t, string(readFile(t, filepath.Join("..", "testdata", "reference", "bad", "ok.json"))), &described)
	opened := map[string]bool{}
	for _, c := range cases {
		opened[c.file] = true
	}
	for name := range described {
		if !opened[name] {
			t.Errorf("ok.json describes %s, which no case here opens", name)
		}
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			db := copyFixture(t, filepath.Join("bad", c.file))
			if es := lsJSON(t, db); c.entries >= 0 && len(es) != c.entries {
				t.Errorf("ls: %d entries, want %d", len(es), c.entries)
			}
			mustRun(t, "", "ls", "--db", db)
			var rep check.Report
			mustJSON(t, mustRun(t, "", "check", "--json", "--db", db), &rep)
			var kinds []string
			for _, a := range rep.Anomalies {
				kinds = append(kinds, a.Kind)
			}
			if !rep.Valid || (c.anomaly != "" && !slices.Contains(kinds, c.anomaly)) || (c.anomaly == "" && len(kinds) > 0) {
				t.Errorf("check: valid %v, anomalies %v, want %q", rep.Valid, kinds, c.anomaly)
			}
			if c.extra != nil {
				c.extra(t, db)
			}
		})
	}
}

// TestConcurrentAdds runs 50 `crmem add` processes on one file at once; every
// one must land.
func TestConcurrentAdds(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	const n = 50
	var wg sync.WaitGroup
	results := make([]result, n)
	for i := range n {
		wg.Go(func() {
			results[i] = crmemProcess(t, "", "add", fmt.Sprintf("note-%02d", i), fmt.Sprintf("content %d", i), "--db", db)
		})
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("add %d: exit %d, %q", i, r.code, r.stderr)
		}
	}
	es := lsJSON(t, db)
	if len(es) != n {
		t.Fatalf("%d entries after %d concurrent adds", len(es), n)
	}
	ids := map[uint64]bool{}
	for _, e := range es {
		ids[e.ID] = true
	}
	if len(ids) != n {
		t.Fatalf("ids not distinct: %v", ids)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "*"))
	for _, p := range left {
		if p != db && !strings.HasSuffix(p, ".lock") {
			t.Errorf("left behind: %s", p)
		}
	}
}

// TestUsageErrors checks exit status 2 and one hint line.
func TestUsageErrors(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	cases := [][]string{
		{"ls", "extra"}, {"ls", "--bogus"}, {"ls", "--kind", "bogus"}, {"show"}, {"show", "a", "b"},
		{"search"}, {"search", "x", "--limit", "-1"}, {"search", "x", "--limit", "many"}, {"search", "x", "--kind", "nope"},
		{"tokens"}, {"add"}, {"add", "a", "b", "c"}, {"add", "x", "y", "--kind", "bogus"}, {"update"}, {"write"},
		{"alias"}, {"rename", "a"}, {"rename", "a", "b", "c"}, {"rm"}, {"check", "x"}, {"bench", "--iterations", "0"},
		{"version", "x"}, {"--bogus"}, {"lss"}, {"--style", "neon"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := crmem(t, "", append(args, "--db", db)...)
			if r.code != 2 || !strings.HasPrefix(r.stderr, "crmem: ") || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "--help") {
				t.Fatalf("exit %d, stderr %q; want exit 2 and one line with a --help hint", r.code, r.stderr)
			}
		})
	}
}

// TestHelp checks --help on every subcommand, with an example.
func TestHelp(t *testing.T) {
	for _, sub := range []string{"ls", "show", "search", "tokens", "add", "update", "write", "alias", "rename", "rm", "check", "bench", "version"} {
		t.Run(sub, func(t *testing.T) {
			out := mustRun(t, "", sub, "--help")
			if !strings.Contains(out, "Usage:") || !strings.Contains(out, "Examples:") || !strings.Contains(out, "crmem "+sub) {
				t.Fatalf("help lacks usage or examples:\n%s", out)
			}
		})
	}
	if out := mustRun(t, "", "--help"); !strings.Contains(out, "Available Commands:") {
		t.Fatalf("root help:\n%s", out)
	}
	if out := mustRun(t, "", "completion", "bash"); !strings.Contains(out, "bash completion") {
		t.Fatalf("completion bash:\n%.200s", out)
	}
}

// TestMissingFile checks read-only subcommands fail on a missing file and
// write subcommands create it, but not a folder that is missing too.
func TestMissingFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "sub", "memory.db")
	for _, args := range [][]string{{"ls"}, {"show", "x"}, {"search", "x"}, {"check"}, {"bench"}} {
		r := crmem(t, "", append(args, "--db", db)...)
		if want := "crmem: " + db + ": no such file\n"; r.code != 1 || r.stderr != want {
			t.Errorf("%v: exit %d, stderr %q, want 1, %q", args, r.code, r.stderr, want)
		}
	}
	if r := crmem(t, "", "rm", "x", "--db", filepath.Join(dir, "memory.db")); r.code != 1 || !strings.Contains(r.stderr, `no such entry "x"`) {
		t.Errorf("rm on a missing file: exit %d, %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "memory.db")); !os.IsNotExist(err) {
		t.Fatalf("a failing command created the file (%v)", err)
	}
	// A folder that does not exist is a typo more often than a wish: the
	// write is refused and creates nothing, until the folder is made.
	for _, args := range [][]string{{"add", "first", "hello"}, {"add", "-"}, {"import", "-"}, {"rm", "x"}} {
		r := crmem(t, "", append(args, "--db", db)...)
		if want := "crmem: " + db + ": no folder " + filepath.Join(dir, "sub") + " (a typo?)"; r.code != 1 || !strings.HasPrefix(r.stderr, want) {
			t.Errorf("%v into a missing folder: exit %d, stderr %q, want 1, %q…", args, r.code, r.stderr, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); !os.IsNotExist(err) {
		t.Fatalf("a refused write created the folder (%v)", err)
	}
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	mustRun(t, "", "add", "first", "hello", "--db", db)
	if es := lsJSON(t, db); len(es) != 1 || es[0].Name != "first" {
		t.Fatalf("after add: %+v", es)
	}
}

// TestDBSelection checks --db over $CRMEM_DB over ~/.crabtalk/memory.db.
func TestDBSelection(t *testing.T) {
	envDB := copyFixture(t, "bad/ok-topic-kind.db")
	flagDB := copyFixture(t, "crmem/small.db")
	t.Setenv("CRMEM_DB", envDB)
	// crmem() drops CRMEM_DB from the environment, so run through run().
	var out, errb bytes.Buffer
	if code := run([]string{"ls", "--json"}, strings.NewReader(""), &out, &errb, os.Getenv); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var es []jsonEntry
	mustJSON(t, out.String(), &es)
	if len(es) != 2 {
		t.Fatalf("$CRMEM_DB: %d entries, want 2", len(es))
	}
	if es := lsJSON(t, flagDB); len(es) != 26 {
		t.Fatalf("--db: %d entries, want 26", len(es))
	}
	home := crmem(t, "", "ls")
	if want := filepath.Join(testHome, ".crabtalk", "memory.db") + ": no such file"; home.code != 1 || !strings.Contains(home.stderr, want) {
		t.Fatalf("default path: exit %d, %q, want %q", home.code, home.stderr, want)
	}
}

// TestEscapesNeverReachTheTerminal writes a file whose names, aliases and
// content carry control sequences and checks human output drops them while
// JSON keeps them, escaped.
func TestEscapesNeverReachTheTerminal(t *testing.T) {
	evil := "evil\x1b]0;pwned\x07\x1b[2J\u009b31m\u202e\rname"
	entries := []store.Entry{
		{ID: 1, Name: evil, Kind: store.Note, CreatedAt: 1767265200, Aliases: []string{"al\x1b]52;c;SGVsbG8=\x07ias"}, Content: "deploy \x1b[31mred\x1b[0m\x1bP+q\x1b\\ text\x07"},
	}
	db := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(db, store.Encode(2, entries), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"ls"}, {"show", evil}, {"search", "deploy"}, {"check"}, {"stats"}, {"rm", "nope"}, {"lint", "--diff"}, {"lint", "--json"}, {"recalls"}} {
		r := crmem(t, "", append(args, "--db", db)...)
		for _, s := range []string{r.stdout, r.stderr} {
			if strings.ContainsAny(s, "\x1b\x07\r\u009b\u202e") {
				t.Errorf("%v: control characters reach the terminal: %q", args[0], s)
			}
		}
	}
	out := mustRun(t, "", "show", evil, "--json", "--db", db)
	if !strings.Contains(out, `\u001b]0;pwned`) || strings.Contains(out, "\x1b") {
		t.Errorf("JSON must escape ESC as \\u001b: %q", out)
	}
	var e jsonEntry
	mustJSON(t, out, &e)
	if e.Name != evil {
		t.Errorf("JSON name %q, want %q", e.Name, evil)
	}
}

// TestShowAndLs checks the human forms and show --json.
func TestShowAndLs(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	out := mustRun(t, "", "ls", "--db", db)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 27 || !strings.HasPrefix(strings.TrimSpace(lines[0]), "ID") {
		t.Fatalf("ls: %d lines, header %q", len(lines), lines[0])
	}
	var arch []jsonEntry
	mustJSON(t, mustRun(t, "", "ls", "--db", db, "--json", "--kind", "archive"), &arch)
	if len(arch) != 4 {
		t.Fatalf("ls --kind archive: %d entries", len(arch))
	}
	all := lsJSON(t, db)
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].ID < all[j].ID }) {
		t.Fatal("ls --json not in ascending id order")
	}
	var e jsonEntry
	mustJSON(t, mustRun(t, "", "show", "--json", "deploy-steps", "--db", db), &e)
	if e.Name != "deploy-steps" || e.Kind != "note" || e.Content == "" {
		t.Fatalf("show --json: %+v", e)
	}
	human := mustRun(t, "", "show", "deploy-steps", "--db", db)
	if !strings.Contains(human, "deploy-steps") || !strings.Contains(human, e.Content) {
		t.Fatalf("show:\n%s", human)
	}
	if r := crmem(t, "", "show", "nope", "--db", db); r.code != 1 || r.stderr != "crmem: "+db+": no such entry \"nope\"\n" {
		t.Fatalf("show nope: %d %q", r.code, r.stderr)
	}
}

// TestTokens checks tokens as a process, and in-process against every line
// of the reference tokenizer fixture.
func TestTokens(t *testing.T) {
	if out := mustRunProcess(t, "", "tokens", "The", "Deploy-Steps of ΣΟΦΟΣ"); out != "deploy\nsteps\nσοφος\n" {
		t.Fatalf("tokens: %q", out)
	}
	if out := mustRunProcess(t, "a b", "tokens", "--json", "-"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("tokens of stopwords: %q", out)
	}
	lines := strings.Split(strings.TrimSpace(string(readFile(t, filepath.Join("..", "testdata", "reference", "tokenize.jsonl")))), "\n")
	for i, line := range lines {
		var c struct {
			Text   string   `json:"text"`
			Tokens []string `json:"tokens"`
		}
		mustJSON(t, line, &c)
		if c.Text == "" || c.Text == "-" {
			continue
		}
		var got []string
		r := inProcess("tokens", "--json", "--", c.Text)
		if r.code != 0 {
			t.Fatalf("tokens %q: exit %d, %s", c.Text, r.code, r.stderr)
		}
		mustJSON(t, r.stdout, &got)
		if !slices.Equal(got, c.Tokens) && !(len(got) == 0 && len(c.Tokens) == 0) {
			t.Errorf("line %d %q: got %q, want %q", i, c.Text, got, c.Tokens)
		}
	}
}

// TestCheck_Sessions checks the report on small.db with its sessions folder.
func TestCheck_Sessions(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	var rep check.Report
	mustJSON(t, mustRun(t, "", "check", "--json", "--db", db, "--sessions", filepath.Join("..", "testdata", "reference", "sessions")), &rep)
	if !rep.Valid || rep.Entries != 26 || rep.Kinds["archive"] != 4 || rep.NextID != 29 || rep.Largest == nil {
		t.Fatalf("check: %+v", rep)
	}
	if rep.Sessions == nil || len(rep.Sessions.Missing) != 1 {
		t.Fatalf("sessions: %+v", rep.Sessions)
	}
	m := rep.Sessions.Missing[0]
	if m.Session != "carol-frontend" || m.Archive != "archive-sess-0003-1767500000000000000" || !m.Resume {
		t.Fatalf("missing marker: %+v", m)
	}
	human := mustRun(t, "", "check", "--db", db, "--sessions", filepath.Join("..", "testdata", "reference", "sessions"))
	if !strings.Contains(human, "archive-sess-0003-1767500000000000000") || !strings.Contains(human, "carol-frontend") {
		t.Fatalf("check:\n%s", human)
	}
}

// TestBench checks bench --json's exact shape on a small file.
func TestBench(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	var raw map[string]any
	mustJSON(t, mustRun(t, "", "bench", "--json", "--iterations", "2", "--db", db), &raw)
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"entries", "hits", "index_ms", "open_ms", "peak_rss_mb", "search_mean_us", "search_p50_us", "search_p99_us"}
	if !slices.Equal(keys, want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	if raw["entries"].(float64) != 26 || raw["hits"].(float64) <= 0 || raw["peak_rss_mb"].(float64) <= 0 {
		t.Fatalf("bench: %v", raw)
	}
	queries := filepath.Join(t.TempDir(), "q.txt")
	if err := os.WriteFile(queries, []byte("deploy\n\nrelease\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, "", "bench", "--queries", queries, "--iterations", "1", "--db", db); !strings.Contains(out, "2 queries") {
		t.Fatalf("bench --queries:\n%s", out)
	}
}

// TestVersion checks the binary's version and --version agree.
func TestVersion(t *testing.T) {
	v := mustRunProcess(t, "", "version")
	if !strings.HasPrefix(v, "crmem ") || !strings.Contains(v, "go1.") {
		t.Fatalf("version: %q", v)
	}
	if v2 := mustRunProcess(t, "", "--version"); v2 != v {
		t.Fatalf("--version %q != version %q", v2, v)
	}
}

// TestScreen_RefusesTypedPathsAsTheCommandLine: the screen agrees with
// the command line on a memory file the user named (issue 42 item 7):
// one whose folder does not exist is refused as a write refuses it ("no
// folder … (a typo?)"), before the screen starts and without creating
// anything, and a folder is said to be one. Before, the screen said "the
// first write creates both" and created the whole chain, and on a folder
// waited for a good write that could never come.
func TestScreen_RefusesTypedPathsAsTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "nonexistent", "dir", "memory.db")
	for _, args := range [][]string{{"--db", db}, {db}} {
		r := crmem(t, "", args...)
		if want := "crmem: " + db + ": no folder " + filepath.Dir(db) + " (a typo?)"; r.code != 1 || !strings.HasPrefix(r.stderr, want) {
			t.Errorf("crmem %q: exit %d, stderr %q, want 1, %q…", args, r.code, r.stderr, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nonexistent")); !os.IsNotExist(err) {
		t.Fatalf("the refused screen created the folder (%v)", err)
	}
	for _, args := range [][]string{{"--db", dir}, {dir}} {
		r := crmem(t, "", args...)
		if want := "crmem: " + dir + ": is a folder, not a memory file: name the file in it (" + filepath.Join(dir, "memory.db"); r.code != 1 || !strings.HasPrefix(r.stderr, want) {
			t.Errorf("crmem %q: exit %d, stderr %q, want 1, %q…", args, r.code, r.stderr, want)
		}
	}
}
