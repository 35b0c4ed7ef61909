package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/check"
)

// storeRef is the crabdb fixtures folder.
const storeRef = "../testdata/reference/crabdb"

// runIn runs crmem in-process with the given environment; it returns
// stdout, stderr and the exit status.
func runIn(env map[string]string, stdin string, args ...string) (string, string, int) {
	return runGuarded(daemonRunning, env, stdin, args...)
}

// errDaemonRunning is what daemonRunning answers.
var errDaemonRunning = errors.New("test: crabtalk's daemon is running (pid 4242); stop it first")

// daemonRunning is a guard that says crabtalk's daemon runs: runIn's, so
// that no test writes a store unless it asks to (runGuarded) whatever
// runs on the machine.
func daemonRunning(string) (string, error) { return "", errDaemonRunning }

// noDaemon is a guard that lets every write to a store through.
func noDaemon(string) (string, error) { return "test: no daemon", nil }

// runGuarded is runIn with guard as the check before a store write.
func runGuarded(guard store.Guard, env map[string]string, stdin string, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(stdin), &out, &errb, func(k string) string { return env[k] })
	a.opener.guard = guard
	code := a.execute(args)
	return out.String(), errb.String(), code
}

// copyStore copies a store fixture into a temp folder under name.
func copyStore(t *testing.T, fixture, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(storeRef, fixture))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// storeLines reads a fixture's lines.
func storeLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(storeRef, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}

// mustIn runs crmem in-process and fails unless it exits 0.
func mustIn(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := runIn(nil, "", args...)
	if code != 0 {
		t.Fatalf("crmem %q: exit %d: %s", args, code, errs)
	}
	return out
}

// sameStoreEntry compares a JSON entry printed by crmem with a stored value.
func sameStoreEntry(t *testing.T, got map[string]any, stored string) {
	t.Helper()
	var want map[string]any
	mustJSON(t, stored, &want)
	if _, ok := got["id"]; ok {
		t.Errorf("%v: a store entry has no id", got["name"])
	}
	if want["aliases"] == nil {
		want["aliases"] = []any{}
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("entry\n got %s\nwant %s", g, w)
	}
}

func TestStoreCLI_LsShowExport(t *testing.T) {
	for _, fixture := range []string{"small.crmem", "torn.crmem", "compacted.crmem"} {
		t.Run(fixture, func(t *testing.T) {
			db := filepath.Join(storeRef, fixture)
			want := storeLines(t, "small.entries.jsonl")
			var ls []map[string]any
			mustJSON(t, mustIn(t, "--db", db, "ls", "--json"), &ls)
			if len(ls) != len(want) {
				t.Fatalf("ls: %d entries, want %d", len(ls), len(want))
			}
			for i := range ls {
				sameStoreEntry(t, ls[i], want[i])
			}
			exported := strings.Split(strings.TrimRight(mustIn(t, "--db", db, "export"), "\n"), "\n")
			if len(exported) != len(want) {
				t.Fatalf("export: %d lines, want %d", len(exported), len(want))
			}
			for i, line := range exported {
				var e map[string]any
				mustJSON(t, line, &e)
				sameStoreEntry(t, e, want[i])
			}
			var pretty []map[string]any
			out := mustIn(t, "--db", db, "ls", "--pretty")
			mustJSON(t, out, &pretty)
			if len(pretty) != len(want) || !strings.Contains(out, "\n  {") {
				t.Errorf("ls --pretty: %d entries\n%.200s", len(pretty), out)
			}
			if c := mustIn(t, "--db", db, "__complete", "show", "deploy"); !strings.Contains(c, "deploy-steps\n") {
				t.Errorf("completion: %q", c)
			}
			var shown map[string]any
			mustJSON(t, mustIn(t, "--db", db, "show", "ship", "--json"), &shown) // an alias of deploy-steps
			if shown["name"] != "deploy-steps" || shown["created_at"] != "2026-01-01T11:00:00+00:00" {
				t.Errorf("show ship: %v", shown)
			}
			if out := mustIn(t, "--db", db, "ls", "--kind", "archive"); strings.Count(out, "archive-sess-") != 3 || strings.Contains(out, "deploy-steps") {
				t.Errorf("ls --kind archive:\n%s", out)
			}
			human := mustIn(t, "--db", db, "show", "deploy-steps")
			if strings.Contains(human, "\nid ") || !strings.Contains(human, "# Production deployment") {
				t.Errorf("show:\n%s", human)
			}
		})
	}
}

func TestStoreCLI_SubSecondCreatedAt(t *testing.T) {
	// created_at keeps the stored string, sub-second part included.
	path := filepath.Join(t.TempDir(), "store.crmem")
	value := `{"name":"n1","kind":"note","content":"hello deploy","aliases":["a1"],"created_at":"2026-08-20T10:11:12.123456789+02:00"}`
	writeTestStore(t, path, []testRecord{{op: 0, col: 2, key: "local/memory/n1", value: value}})
	var ls []map[string]any
	mustJSON(t, mustIn(t, "--db", path, "ls", "--json"), &ls)
	if len(ls) != 1 || ls[0]["created_at"] != "2026-08-20T10:11:12.123456789+02:00" {
		t.Errorf("ls: %v", ls)
	}
}

func TestStoreCLI_SearchFixtures(t *testing.T) {
	for _, tc := range []struct{ store, searches string }{
		{"small.crmem", "small.search.jsonl"},
		{"torn.crmem", "torn.search.jsonl"},
	} {
		t.Run(tc.store, func(t *testing.T) {
			db := filepath.Join(storeRef, tc.store)
			for i, line := range storeLines(t, tc.searches) {
				var want struct {
					Query string
					Limit int
					Hits  []struct {
						Name  string
						Score float64
					}
				}
				mustJSON(t, line, &want)
				if strings.TrimSpace(want.Query) == "" || want.Limit == 0 || strings.HasPrefix(want.Query, "-") {
					continue // the command line needs a query; --limit 0 means all there
				}
				var got []struct {
					Name  string  `json:"name"`
					Score float64 `json:"score"`
				}
				out, errs, code := runIn(nil, "", "--db", db, "search", "--json", "--limit", itoa(want.Limit), "--", want.Query)
				if code != 0 {
					t.Fatalf("line %d: exit %d %s", i+1, code, errs)
				}
				mustJSON(t, out, &got)
				if len(got) != len(want.Hits) {
					t.Errorf("line %d %q: %d hits, want %d", i+1, want.Query, len(got), len(want.Hits))
					continue
				}
				for j := range got {
					w := want.Hits[j]
					if got[j].Name != w.Name || math.Abs(got[j].Score-w.Score) > 1e-9*math.Abs(w.Score) {
						t.Errorf("line %d %q hit %d: %s %v, want %s %v", i+1, want.Query, j, got[j].Name, got[j].Score, w.Name, w.Score)
					}
				}
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestStoreCLI_SearchExplainKindAll(t *testing.T) {
	db := filepath.Join(storeRef, "small.crmem")
	out := mustIn(t, "--db", db, "search", "depl*", "--explain", "--limit", "1")
	for _, want := range []string{"deploy-steps", "depl* → deployment: tf 2, df 6 of 23", "length 28 tokens", "stored stats 23 docs, 876 tokens"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	var hits []storeHit
	mustJSON(t, mustIn(t, "--db", db, "search", "deploy", "--kind", "archive", "--json", "--explain"), &hits)
	if len(hits) != 1 || hits[0].Name != "archive-sess-0001-1767300000000000000" || hits[0].Explain == nil ||
		hits[0].Explain.N != 23 || hits[0].Explain.Terms[0].DF != 3 {
		t.Errorf("search --kind archive: %+v", hits)
	}
	mustJSON(t, mustIn(t, "--db", db, "search", "a*", "--limit", "0", "--json"), &hits)
	if len(hits) <= 10 {
		t.Errorf("--limit 0 (all): %d hits", len(hits))
	}
}

// TestStoreCLI_WritesRefused runs every write subcommand on a store while
// the guard says crabtalk's daemon runs: each fails with the guard's
// message and exit 1, and the file's bytes and time are unchanged.
func TestStoreCLI_WritesRefused(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	os.MkdirAll(filepath.Join(tree, "notes"), 0o700)
	os.WriteFile(filepath.Join(tree, "notes", "x.md"), []byte("x"), 0o600)
	jsonl := filepath.Join(dir, "in.jsonl")
	os.WriteFile(jsonl, []byte(`{"id":1,"name":"x","kind":"note","created_at":1,"aliases":[],"content":"x"}`+"\n"), 0o600)
	for _, args := range [][]string{
		{"add", "new-note", "body"},
		{"update", "deploy-steps", "body"},
		{"write", "deploy-steps", "body"},
		{"alias", "deploy-steps", "a"},
		{"rename", "deploy-steps", "other"},
		{"rm", "deploy-steps"},
		{"edit", "--no-terminal", "deploy-steps"},
		{"load", tree},
		{"import", jsonl},
		{"import", "--from", "crabdb", filepath.Join(storeRef, "small.crmem")},
	} {
		for _, name := range []string{"store.crmem", "memory.db"} {
			db := copyStore(t, "small.crmem", name)
			before, _ := os.ReadFile(db)
			old := time.Unix(1_700_000_000, 0)
			os.Chtimes(db, old, old)
			env := map[string]string{"EDITOR": "false", "VISUAL": "false"}
			_, errs, code := runIn(env, "stdin body", append([]string{"--db", db}, args...)...)
			if code != 1 || !strings.Contains(errs, db+": "+errDaemonRunning.Error()) {
				t.Errorf("%s %q: exit %d, stderr %q", name, args, code, errs)
			}
			after, _ := os.ReadFile(db)
			fi, _ := os.Stat(db)
			if !bytes.Equal(before, after) || !fi.ModTime().Equal(old) {
				t.Errorf("%s %q changed the store", name, args)
			}
			if ents, _ := os.ReadDir(filepath.Dir(db)); len(ents) != 1 {
				t.Errorf("%s %q left files beside the store: %v", name, args, ents)
			}
		}
	}
}

func TestStoreCLI_CheckNamesFormat(t *testing.T) {
	for _, tc := range []struct {
		fixture, name string
		want          []string
	}{
		{"crabdb/small.crmem", "store.crmem", []string{"valid crabtalk store (crabdb)", "anomalies  none", "sessions   4 in the store, 3 compact markers, 2 naming missing archives", `missing archive "archive-sess-0003-1767500000000000000" referenced by session carol-frontend`}},
		{"crabdb/small.crmem", "memory.db", []string{"valid crabtalk store (crabdb)", `misleading_name: the name "memory.db" suggests a CRMEM v1 memory file`}},
		{"crabdb/torn.crmem", "store.crmem", []string{"warning    torn record at offset 110690"}},
		{"crmem/small.db", "store.crmem", []string{"valid CRMEM v1 file", `misleading_name: the name "store.crmem" suggests a crabtalk store (crabdb), but this is a CRMEM v1 memory file`}},
		{"crmem/small.db", "memory.db", []string{"valid CRMEM v1 file", "anomalies  none"}},
	} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", tc.fixture))
		if err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(t.TempDir(), tc.name)
		os.WriteFile(db, data, 0o600)
		out := mustIn(t, "--db", db, "check")
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s as %s: check lacks %q:\n%s", tc.fixture, tc.name, w, out)
			}
		}
	}
	var r check.Report
	mustJSON(t, mustIn(t, "--db", filepath.Join(storeRef, "small.crmem"), "check", "--json"), &r)
	if r.Format != "crabdb" || !r.Valid || r.Entries != 25 || r.Index == nil || r.Index.Docs != 23 || len(r.Sessions.Missing) != 2 {
		t.Errorf("check --json: %+v", r)
	}
	_, errs, code := runIn(nil, "", "--db", filepath.Join(storeRef, "bad", "snapshot-wrong-key.crmem"), "check")
	if code != 1 || !strings.Contains(errs, `crabtalk store (crabdb): crabdb: snapshot entry (column 2, key "local/memory/alpha") points at offset 1298`) {
		t.Errorf("check on a bad store: %d %q", code, errs)
	}
}

func TestStoreCLI_BadStores(t *testing.T) {
	for name, want := range map[string]string{
		"unknown-op.crmem":       "crabdb: unknown record op 2 at offset 2359",
		"version-2.crmem":        "crabdb: unsupported format version 2",
		"big-index-len.crmem":    "runs past the end of the file",
		"bad-magic.crmem":        "crabdb: not a CRMEM file",
		"legacy-memory-db.crmem": "", // a v1 memory file: read as one
		"short-header.crmem":     "crabdb: file shorter than its header (nor a CRMEM v1 memory file: bad memory file format: truncated body)",
		"zero-length.crmem":      "crabdb: file shorter than its header (nor a CRMEM v1 memory file: bad memory file format: file shorter than header)",
		"index-len-short.crmem":  "crabdb: snapshot cut short",
		"torn-op-only.crmem":     "",
	} {
		out, errs, code := runIn(nil, "", "--db", filepath.Join(storeRef, "bad", name), "ls")
		if want == "" {
			if code != 0 || !strings.Contains(out, "deploy-steps") && !strings.Contains(out, "alpha") {
				t.Errorf("%s: %d %q %q", name, code, out, errs)
			}
			continue
		}
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", name, code, errs, want)
		}
	}
}

func TestStoreCLI_ImportDumpBench(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "memory.db")
	src := filepath.Join(storeRef, "small.crmem")
	out := mustIn(t, "--db", db, "import", "--from", "crabdb", "--replace", src)
	if !strings.Contains(out, "imported 25 entries (22 notes, 3 archives)") {
		t.Errorf("import: %s", out)
	}
	es := lsJSONIn(t, db)
	want := storeLines(t, "small.entries.jsonl")
	if len(es) != len(want) {
		t.Fatalf("%d imported, want %d", len(es), len(want))
	}
	for i, e := range es {
		var w storeJSONEntry
		mustJSON(t, want[i], &w)
		created, _ := time.Parse(time.RFC3339, w.CreatedAt)
		if e.ID != uint64(i+1) || e.Name != w.Name || e.Kind != w.Kind || e.Content != w.Content ||
			e.CreatedAt != uint64(created.Unix()) || strings.Join(e.Aliases, ",") != strings.Join(w.Aliases, ",") {
			t.Errorf("imported %+v, want %+v", e, w)
		}
	}
	// Guessed from the file, and merged: nothing changes the second time.
	if out := mustIn(t, "--db", db, "import", "--merge", src); !strings.Contains(out, "0 replaced, 0 added, 25 unchanged") {
		t.Errorf("import --merge again: %s", out)
	}
	tree := filepath.Join(dir, "book")
	if out := mustIn(t, "--db", src, "dump", tree); !strings.Contains(out, "dumped 25 entries") {
		t.Errorf("dump: %s", out)
	}
	md, err := os.ReadFile(filepath.Join(tree, "notes", "deploy-steps.md"))
	if err != nil || !strings.Contains(string(md), `<time datetime="2026-01-01T11:00:00Z">`) || !strings.Contains(string(md), "<li>ship</li>") {
		t.Errorf("dumped deploy-steps: %v\n%s", err, md)
	}
	var b benchResult
	mustJSON(t, mustIn(t, "--db", src, "bench", "--json", "--iterations", "2"), &b)
	if b.Entries != 25 || b.Hits == 0 {
		t.Errorf("bench: %+v", b)
	}
	if tok := mustIn(t, "--db", src, "tokens", "Deploy the build"); tok != "deploy\nbuild\n" {
		t.Errorf("tokens: %q", tok)
	}
}

// lsJSONIn lists a v1 file in-process.
func lsJSONIn(t *testing.T, db string) []jsonEntry {
	t.Helper()
	var es []jsonEntry
	mustJSON(t, mustIn(t, "--db", db, "ls", "--json"), &es)
	return es
}

func TestStoreCLI_DefaultPathFallsBackToStore(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"CRABTALK_HOME": home}
	data, _ := os.ReadFile(filepath.Join(storeRef, "small.crmem"))
	os.WriteFile(filepath.Join(home, "store.crmem"), data, 0o600)
	out, errs, code := runIn(env, "", "ls")
	if code != 0 || !strings.Contains(out, "release-checklist") {
		t.Fatalf("ls with only store.crmem: %d %s %s", code, out, errs)
	}
	// import with the default path goes to the store (here refused: the
	// guard says crabtalk's daemon runs), never to a memory.db beside it
	// that would shadow it in every later run…
	if _, errs, code := runIn(env, "", "import", filepath.Join(home, "store.crmem")); code != 1 || !strings.Contains(errs, errDaemonRunning.Error()) {
		t.Fatalf("import without --db: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(home, "memory.db")); err == nil {
		t.Fatal("import without --db created memory.db")
	}
	// …and made with --db, memory.db is then the default.
	mem := filepath.Join(home, "memory.db")
	if _, errs, code := runIn(env, "", "--db", mem, "import", filepath.Join(home, "store.crmem")); code != 0 {
		t.Fatalf("import --db: %s", errs)
	}
	out, _, _ = runIn(env, "", "check")
	if !strings.Contains(out, "valid CRMEM v1 file") || !strings.Contains(out, mem) {
		t.Errorf("check after import:\n%s", out)
	}
	if after, _ := os.ReadFile(filepath.Join(home, "store.crmem")); !bytes.Equal(after, data) {
		t.Error("the store changed")
	}
}

// TestStoreCLI_DefaultWritesNeverShadowTheStore (issue 17, item 8): with
// store.crmem and no memory.db in crabtalk's home and no path given, every
// subcommand the command table marks as a write is refused (exit 1, the
// read-only message) whatever store.crmem holds, and no subcommand leaves
// anything beside the store or changes it. The subcommands come from the
// command table: a new one without a role, or without arguments here,
// fails this test.
func TestStoreCLI_DefaultWritesNeverShadowTheStore(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	must(t, os.MkdirAll(filepath.Join(tree, "notes"), 0o700))
	must(t, os.WriteFile(filepath.Join(tree, "notes", "x.md"), []byte("x"), 0o600))
	jsonl := filepath.Join(dir, "in.jsonl")
	must(t, os.WriteFile(jsonl, []byte(`{"id":1,"name":"x","kind":"note","created_at":1,"aliases":[],"content":"x"}`+"\n"), 0o600))
	args := map[string][][]string{
		"add":        {{"new-note", "body"}},
		"update":     {{"deploy-steps", "body"}},
		"write":      {{"deploy-steps", "body"}},
		"alias":      {{"deploy-steps", "a"}},
		"rename":     {{"deploy-steps", "other"}},
		"rm":         {{"deploy-steps"}},
		"edit":       {{"--no-terminal", "deploy-steps"}},
		"load":       {{tree}},
		"import":     {{jsonl}, {"--from", "crabdb", filepath.Join(storeRef, "small.crmem")}},
		"ls":         {{}},
		"show":       {{"deploy-steps"}},
		"search":     {{"deploy"}},
		"tokens":     {{"deploy"}},
		"dump":       {{filepath.Join(dir, "dumped")}},
		"export":     {{}},
		"check":      {{}},
		"stats":      {{}, {"--json"}},
		"lint":       {{"--kind", "name"}},
		"bench":      {{"--iterations", "1"}},
		"config":     {{}},
		"version":    {{}},
		"man":        {{filepath.Join(dir, "man")}},
		"completion": {{"bash"}},
		"recalls":    {{}, {"--report"}},
		"history":    {{"deploy-steps"}, {"--deleted"}},
		"diff":       {{"deploy-steps"}},
		"restore":    {{"deploy-steps", "1"}},
	}
	stores := map[string][]byte{"a store": mustRead(t, filepath.Join(storeRef, "small.crmem")), "an empty file": {}}
	root := newApp(nil, nil, nil, func(string) string { return "" }).rootCommand()
	for _, c := range root.Commands() {
		name, role := c.Name(), storeRole(c)
		if role == "" {
			t.Errorf("%s: no role in the command table (rootCommand)", name)
			continue
		}
		if _, ok := args[name]; !ok {
			t.Errorf("%s: no arguments in this test; add them", name)
		}
		for what, data := range stores {
			if role != storeWrites && what != "a store" {
				continue
			}
			for _, a := range args[name] {
				home := t.TempDir()
				st := filepath.Join(home, config.StoreFileName)
				must(t, os.WriteFile(st, data, 0o600))
				env := map[string]string{"CRABTALK_HOME": home, "EDITOR": "false", "VISUAL": "false"}
				_, errs, code := runIn(env, "stdin body", append([]string{name}, a...)...)
				want := st + ": " + errDaemonRunning.Error()
				if what != "a store" {
					want = st + ": " + store.ErrCrabdb.Error() + "; a write without --db"
				}
				if role == storeWrites && (code != 1 || !strings.Contains(errs, want)) {
					t.Errorf("%s %q on %s: exit %d, stderr %q; want 1 and %q", name, a, what, code, errs, want)
				}
				if ents, _ := os.ReadDir(home); len(ents) != 1 {
					t.Errorf("%s %q on %s left files beside the store: %v", name, a, what, ents)
				}
				if after := mustRead(t, st); !bytes.Equal(after, data) {
					t.Errorf("%s %q on %s changed the store", name, a, what)
				}
			}
		}
	}
}

// testRecord is one crabdb record for writeTestStore.
type testRecord struct {
	op, col    byte
	key, value string
}

// writeTestStore writes a log-only store (no snapshot) of records, the way
// crabdb appends them.
func writeTestStore(t *testing.T, path string, recs []testRecord) {
	t.Helper()
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	w.WriteString("CRMEM\x00\x01\x00\x00\x00")
	w.Write(make([]byte, 22))
	for _, r := range recs {
		w.WriteByte(r.op)
		w.WriteByte(r.col)
		w.Write(le32(len(r.key)))
		w.WriteString(r.key)
		w.Write(le32(len(r.value)))
		w.WriteString(r.value)
	}
	w.Flush()
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func le32(n int) []byte { return []byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)} }

// TestStoreCLI_ExportThenImport: a store's own export (created_at as RFC
// 3339 strings, no ids) imports into a v1 file as it is, giving what
// import --from crabdb gives.
func TestStoreCLI_ExportThenImport(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(storeRef, "small.crmem")
	jsonl := filepath.Join(dir, "small.jsonl")
	if err := os.WriteFile(jsonl, []byte(mustIn(t, "--db", src, "export")), 0o600); err != nil {
		t.Fatal(err)
	}
	viaExport, viaStore := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	if out := mustIn(t, "--db", viaExport, "import", jsonl); !strings.Contains(out, "25 added") {
		t.Errorf("import of the export: %s", out)
	}
	mustIn(t, "--db", viaStore, "import", "--from", "crabdb", src)
	got, want := lsJSONIn(t, viaExport), lsJSONIn(t, viaStore)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("import of the export gives\n%+v\nwant (import --from crabdb)\n%+v", got, want)
	}
}

// TestStoreCLI_ImportUnreadableCreatedAt: an entry whose created_at cannot
// be read is imported with created_at 0 (unknown), the one rule the TUI
// shares, not with the time of the import; stderr says so.
func TestStoreCLI_ImportUnreadableCreatedAt(t *testing.T) {
	for _, tc := range []struct{ name, created string }{
		{"garbage", `"created_at":"yesterday",`},
		{"missing", ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, db := filepath.Join(dir, "store.crmem"), filepath.Join(dir, "memory.db")
			value := `{"name":"n1","kind":"note","content":"hello",` + tc.created + `"aliases":[]}`
			writeTestStore(t, src, []testRecord{{op: 0, col: 2, key: "local/memory/n1", value: value}})
			_, errs, code := runIn(nil, "", "--db", db, "import", "--from", "crabdb", "--replace", src)
			if code != 0 || !strings.Contains(errs, "kept as unknown (0)") {
				t.Fatalf("import: exit %d, stderr %q", code, errs)
			}
			if es := lsJSONIn(t, db); len(es) != 1 || es[0].CreatedAt != 0 {
				t.Errorf("imported %+v, want created_at 0", es)
			}
		})
	}
}

// TestStoreCLI_NamesPrintAlikeInBothFormats: ls and show print a name the
// same way whatever the format holds it (issue 19: the store's twins used
// another sanitizer, which showed a bidi override as an escape inside the
// text where the v1 verbs quote the whole name).
func TestStoreCLI_NamesPrintAlikeInBothFormats(t *testing.T) {
	dir := t.TempDir()
	name := "evil\u202egnp.exe"
	st := filepath.Join(dir, "store.crmem")
	value := `{"name":"evil\u202egnp.exe","kind":"note","content":"hello deploy","aliases":[],"created_at":"2026-08-20T10:11:12Z"}`
	writeTestStore(t, st, []testRecord{{op: 0, col: 2, key: "local/memory/" + name, value: value}})
	v1 := filepath.Join(dir, "memory.db")
	must(t, os.WriteFile(v1, store.Encode(2, []store.Entry{{ID: 1, Name: name, Aliases: []string{}, Content: "hello deploy"}}), 0o600)) // add refuses the name
	want := nameText(name)
	for _, db := range []string{st, v1} {
		for _, args := range [][]string{{"ls"}, {"show", name}} {
			out := mustIn(t, append([]string{"--db", db}, args...)...)
			if !strings.Contains(out, want) {
				t.Errorf("%s %v: name not shown as %s:\n%s", filepath.Base(db), args, want, out)
			}
			if strings.Contains(out, "\u202e") {
				t.Errorf("%s %v: the bidi override reached the terminal", filepath.Base(db), args)
			}
		}
	}
}

// TestSearch_ExplainOneShape: search --explain --json explains a hit in
// one shape whatever the format, the documented one (README: "terms"
// [{"term", "tf", "df", "idf", "contrib"}], "doc_len", "avg_doc_len",
// "n"); crabtalk's store adds what its recall ranks by (each term's
// "query", the stored "weight" and "total_len").
func TestSearch_ExplainOneShape(t *testing.T) {
	for _, tc := range []struct {
		db    string
		extra []string
	}{
		{copyFixture(t, "crmem/small.db"), nil},
		{filepath.Join(storeRef, "small.crmem"), []string{"weight", "total_len"}},
	} {
		var hits []map[string]any
		mustJSON(t, mustIn(t, "--db", tc.db, "search", "deploy", "--json", "--explain", "--limit", "2"), &hits)
		if len(hits) != 2 {
			t.Fatalf("%s: %d hits", tc.db, len(hits))
		}
		for _, h := range hits {
			ex, _ := h["explain"].(map[string]any)
			for _, k := range append([]string{"terms", "doc_len", "avg_doc_len", "n"}, tc.extra...) {
				if _, ok := ex[k]; !ok {
					t.Errorf("%s: explain lacks %q: %v", tc.db, k, ex)
				}
			}
			if len(ex) != 4+len(tc.extra) {
				t.Errorf("%s: explain has keys beyond the shape: %v", tc.db, ex)
			}
			terms, _ := ex["terms"].([]any)
			for _, tm := range terms {
				for _, k := range []string{"term", "tf", "df", "idf", "contrib"} {
					if _, ok := tm.(map[string]any)[k]; !ok {
						t.Errorf("%s: term lacks %q: %v", tc.db, k, tm)
					}
				}
			}
		}
	}
}

// TestStoreCLI_ImportFromCrabdbNamesWhatItIs: `import --from crabdb` of a
// file that is not crabtalk's store says what it is and the --from that
// reads it, from what store/open detected, not from a format name compared
// in cli (issue 41 §2); a file no reader takes is only "not a store".
func TestStoreCLI_ImportFromCrabdbNamesWhatItIs(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join(dir, "other.db")
	must(t, os.WriteFile(v1, store.Encode(2, []store.Entry{{ID: 1, Name: "n1", Aliases: []string{}, Content: "hello"}}), 0o600))
	junk := filepath.Join(dir, "junk.bin")
	must(t, os.WriteFile(junk, []byte("not a memory at all\n"), 0o600))
	for _, tc := range []struct{ src, want string }{
		{v1, "--from crabdb: not a crabtalk store but a CRMEM v1 memory file (--from crmem)"},
		{junk, "--from crabdb: not a crabtalk store\n"},
	} {
		_, errs, code := runIn(nil, "", "--db", filepath.Join(dir, "memory.db"), "import", "--from", "crabdb", tc.src)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("import --from crabdb %s: exit %d, stderr %q, want it to hold %q", filepath.Base(tc.src), code, errs, tc.want)
		}
	}
}
