package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/export/exporttest"
	"github.com/crmem/crmem/store"
)

// xErrLine fails unless r failed with the given code and a single
// "crmem: " line on stderr containing every fragment.
func xErrLine(t *testing.T, r result, code int, fragments ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit %d, want %d (stderr %q)", r.code, code, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "crmem: ") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr is not one crmem: line: %q", r.stderr)
	}
	for _, f := range fragments {
		if !strings.Contains(r.stderr, f) {
			t.Errorf("stderr %q does not mention %q", r.stderr, f)
		}
	}
}

// xWriteDB writes entries as a memory file with store.Encode.
func xWriteDB(t *testing.T, entries ...store.Entry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, store.Encode(0, entries), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDumpCLI_MatchesReference(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	dir := filepath.Join(t.TempDir(), "brain")
	out := mustRun(t, "", "dump", dir, "--db", db)
	if out != "dumped 26 entries (22 notes, 4 archives) to "+dir+"\n" {
		t.Errorf("stdout %q", out)
	}
	exporttest.SameTree(t, exporttest.ReadTree(t, dir), exporttest.ReadTree(t, filepath.Join("..", "testdata", "reference", "dump", "small")))

	// A second dump after a removal leaves no stale file and keeps a custom book.toml.
	os.WriteFile(filepath.Join(dir, "book.toml"), []byte("[book]\ntitle = \"Mine\"\n"), 0o644)
	mustRun(t, "", "rm", "scratch", "--db", db)
	mustRun(t, "", "dump", dir, "--db", db)
	files := exporttest.ReadTree(t, dir)
	if _, ok := files["notes/scratch.md"]; ok {
		t.Error("stale notes/scratch.md kept")
	}
	if string(files["book.toml"]) != "[book]\ntitle = \"Mine\"\n" {
		t.Errorf("book.toml overwritten: %q", files["book.toml"])
	}
}

func TestDumpCLI_Errors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o644)
	db := copyFixture(t, "crmem/small.db")
	xErrLine(t, crmem(t, "", "dump", file, "--db", db), 1, file, "not a directory")
	missing := filepath.Join(t.TempDir(), "missing.db")
	xErrLine(t, crmem(t, "", "dump", t.TempDir(), "--db", missing), 1, missing, "no such file")
	xErrLine(t, crmem(t, "", "dump", "--db", db), 2, "missing arguments")

	bad := xWriteDB(t,
		store.Entry{ID: 1, Name: "a/b", Content: "x"},
		store.Entry{ID: 2, Name: "ok", Content: "y"},
		store.Entry{ID: 3, Name: ".hidden", Content: "z"})
	dir := filepath.Join(t.TempDir(), "out")
	xErrLine(t, crmem(t, "", "dump", dir, "--db", bad), 1, "cannot dump 2 entries", `"a/b"`, `".hidden"`, "nothing written")
	if _, err := os.Stat(dir); err == nil {
		t.Error("failed dump created its folder")
	}
}

// xExpected is a line of handwritten.expected.jsonl.
type xExpected struct {
	ID        uint64   `json:"id"`
	CreatedAt *uint64  `json:"created_at"`
	Kind      string   `json:"kind"`
	Name      string   `json:"name"`
	Content   string   `json:"content"`
	Aliases   []string `json:"aliases"`
}

func TestLoadCLI_Handwritten(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	out := mustRun(t, "", "load", filepath.Join("..", "testdata", "reference", "load", "handwritten"), "--db", db)
	if !strings.HasPrefix(out, "loaded 6 entries (4 notes, 2 archives) from ") {
		t.Errorf("stdout %q", out)
	}
	data, _ := os.ReadFile(filepath.Join("..", "testdata", "reference", "load", "handwritten.expected.jsonl"))
	var want []xExpected
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var w xExpected
		mustJSON(t, line, &w)
		want = append(want, w)
	}
	got := lsJSON(t, db)
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.ID || g.Name != w.Name || g.Kind != w.Kind || g.Content != w.Content || !slices.Equal(g.Aliases, w.Aliases) ||
			(w.CreatedAt != nil && g.CreatedAt != *w.CreatedAt) {
			t.Errorf("entry %d: got %+v, want %+v", i, g, w)
		}
	}
}

func TestLoadCLI_MergeKeepsIDs(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	dir := filepath.Join(t.TempDir(), "brain")
	mustRun(t, "", "dump", dir, "--db", db)
	os.WriteFile(filepath.Join(dir, "notes", "deploy-steps.md"), []byte("edited by hand\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes", "brand-new.md"), []byte("new note\n"), 0o644)
	os.Remove(filepath.Join(dir, "notes", "scratch.md"))
	out := mustRun(t, "", "load", "--merge", dir, "--db", db)
	if !strings.Contains(out, "1 replaced, 1 added, 24 unchanged") {
		t.Errorf("stdout %q", out)
	}
	es := lsJSON(t, db)
	if len(es) != 27 {
		t.Errorf("%d entries after merge, want 27", len(es))
	}
	if e, _ := byName(es, "deploy-steps"); e.ID != 1 || e.Content != "edited by hand" || e.CreatedAt != 1767265200 || len(e.Aliases) != 0 {
		t.Errorf("deploy-steps: %+v", e)
	}
	if e, ok := byName(es, "brand-new"); !ok || e.ID != 29 {
		t.Errorf("brand-new: %+v", e)
	}
	if _, ok := byName(es, "scratch"); !ok {
		t.Error("merge removed an entry that is not in the tree")
	}
}

func TestLoadCLI_BadTreeLeavesMemory(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	before, _ := os.ReadFile(db)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "notes"), 0o755)
	os.MkdirAll(filepath.Join(dir, "archives"), 0o755)
	os.WriteFile(filepath.Join(dir, "notes", "dup.md"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(dir, "archives", "dup.md"), []byte("b"), 0o644)
	xErrLine(t, crmem(t, "", "load", dir, "--db", db), 1, `name "dup" already used`)
	xErrLine(t, crmem(t, "", "load", t.TempDir(), "--db", db), 1, "not a dump tree")
	after, _ := os.ReadFile(db)
	if !bytes.Equal(before, after) {
		t.Error("failed load changed the memory file")
	}
}

func TestExportImportCLI_Lossless(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	exported := mustRun(t, "", "export", "--db", db)
	lines := strings.Split(strings.TrimSuffix(exported, "\n"), "\n")
	if len(lines) != 26 {
		t.Fatalf("%d lines, want 26", len(lines))
	}
	var first map[string]any
	mustJSON(t, lines[10], &first)
	if aliases, ok := first["aliases"].([]any); !ok || len(aliases) != 0 || first["name"] != "empty-note" {
		t.Errorf("empty-note line: %s", lines[10])
	}
	file := filepath.Join(t.TempDir(), "backup.jsonl")
	os.WriteFile(file, []byte(exported), 0o644)

	fresh := filepath.Join(t.TempDir(), "fresh.db")
	mustRun(t, "", "import", file, "--db", fresh)
	if again := mustRun(t, "", "export", "--db", fresh); again != exported {
		t.Errorf("export after import differs")
	}
	a, _ := os.ReadFile(db)
	b, _ := os.ReadFile(fresh)
	if !bytes.Equal(a, b) {
		t.Error("imported memory file differs from the original")
	}

	// Replacing an existing memory drops what is not in the file.
	other := copyFixture(t, "crmem/small.db")
	mustRun(t, "", "rm", "scratch", "--db", other)
	mustRun(t, "", "add", "extra", "x", "--db", other)
	mustRun(t, "", "import", file, "--from", "jsonl", "--replace", "--db", other)
	if got := mustRun(t, "", "export", "--db", other); got != exported {
		t.Errorf("import did not replace the memory exactly")
	}
}

func TestImportCLI_JSONLMerge(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	in := `{"id":1,"name":"deploy-steps","kind":"archive","created_at":5,"aliases":["x"],"content":"replaced"}` + "\n" +
		`{"id":23,"name":"gap-filler","kind":"topic","created_at":6,"aliases":[],"content":"free id"}` + "\n" +
		`{"id":2,"name":"newcomer","kind":"note","created_at":7,"aliases":[],"content":"id taken"}` + "\n"
	out := mustRun(t, in, "import", "-", "--merge", "--db", db)
	if !strings.Contains(out, "1 replaced, 2 added, 0 unchanged") {
		t.Errorf("stdout %q", out)
	}
	es := lsJSON(t, db)
	if e, _ := byName(es, "deploy-steps"); e.ID != 1 || e.Kind != "archive" || e.CreatedAt != 5 || e.Content != "replaced" {
		t.Errorf("deploy-steps: %+v", e)
	}
	if e, _ := byName(es, "gap-filler"); e.ID != 23 || e.Kind != "topic" || e.CreatedAt != 6 {
		t.Errorf("gap-filler: %+v", e)
	}
	if e, _ := byName(es, "newcomer"); e.ID != 29 || e.CreatedAt != 7 {
		t.Errorf("newcomer: %+v", e)
	}
	if e, _ := byName(es, "rust-style"); e.ID != 2 {
		t.Errorf("rust-style: %+v", e)
	}
}

func TestImportCLI_MalformedImportsNothing(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	before, _ := os.ReadFile(db)
	file := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(file, []byte(`{"id":40,"name":"a","kind":"note","content":"x"}`+"\n"+
		`{"id":41,"name":"b","kind":"note","content":"y"}`+"\n"+
		`{"id":42,"name":"c","kind":"note","content":}`+"\n"), 0o644)
	for _, extra := range [][]string{nil, {"--merge"}} {
		r := crmem(t, "", append([]string{"import", file, "--db", db}, extra...)...)
		xErrLine(t, r, 1, file+":3: ")
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	xErrLine(t, crmem(t, "", "import", file, "--db", missing), 1, file+":3: ")
	if _, err := os.Stat(missing); err == nil {
		t.Error("failed import created the memory file")
	}
	after, _ := os.ReadFile(db)
	if !bytes.Equal(before, after) {
		t.Error("failed import changed the memory file")
	}
}

func TestImportCLI_LegacyFormats(t *testing.T) {
	tests := []struct {
		dir, from string
		count     int
		stderr    []string
	}{
		{filepath.Join("..", "export", "testdata", "crabtalk", "basic"), "", 10, []string{"MEMORY.md: skipped", `renamed "bad..name" to "bad.name-2"`}},
		{filepath.Join("..", "export", "testdata", "drover", "basic"), "drover", 7, []string{`unknown kind "weird"`, `"user-prefers-tabs-over-spaces-2"`}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(filepath.Dir(tt.dir)), func(t *testing.T) {
			db := copyFixture(t, "crmem/small.db")
			args := []string{"import", tt.dir, "--db", db}
			if tt.from != "" {
				args = append(args, "--from", tt.from)
			}
			r := crmem(t, "", append(args, "--replace")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr %q does not mention %q", r.stderr, s)
				}
			}
			if n := len(lsJSON(t, db)); n != tt.count {
				t.Errorf("%d entries after import, want %d", n, tt.count)
			}
			// Merging the same tree again changes nothing.
			merged := mustRun(t, "", append(args, "--merge")...)
			if !strings.Contains(merged, "0 replaced, 0 added") {
				t.Errorf("re-merge: %q", merged)
			}
		})
	}
}

func TestImportCLI_Errors(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	xErrLine(t, crmem(t, "", "import", filepath.Join("..", "testdata", "reference", "dump", "small"), "--db", db), 1, "use `crmem load")
	xErrLine(t, crmem(t, "", "import", db, "--from", "csv", "--db", db), 2, "--from", "unknown format")
	xErrLine(t, crmem(t, "", "import", filepath.Join("..", "export", "testdata", "drover", "malformed"), "--db", db), 1, "01HZZZ.md:5: ")
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	xErrLine(t, crmem(t, "", "import", empty, "--from", "jsonl", "--replace", "--db", db), 1, "no entries to import")
	xErrLine(t, crmem(t, "", "import", empty, "--merge", "--replace", "--db", db), 2, "exclude each other")
}

func TestExportCLI_MissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	xErrLine(t, crmem(t, "", "export", "--db", missing), 1, missing, "no such file")
}

func TestExportCLI_Help(t *testing.T) {
	for _, cmd := range []string{"dump", "load", "export", "import"} {
		out := mustRun(t, "", cmd, "--help")
		if !strings.Contains(out, "Examples:") || !strings.Contains(out, "crmem "+cmd) {
			t.Errorf("%s --help lacks an example:\n%s", cmd, out)
		}
	}
}

func TestImportCLI_ReplaceNeverLowersNextID(t *testing.T) {
	db := copyFixture(t, "crmem/small.db") // next_id 29
	in := `{"id":1,"name":"only","kind":"note","created_at":5,"aliases":[],"content":"x"}` + "\n"
	mustRun(t, in, "import", "-", "--replace", "--db", db)
	mustRun(t, "", "add", "after", "y", "--db", db)
	if e, _ := byName(lsJSON(t, db), "after"); e.ID != 29 {
		t.Errorf("entry added after the import got id %d, want 29 (ids are never reused)", e.ID)
	}
}

// TestImportCLI_AddsByDefault: importing one entry into a memory of many
// adds it (a same-named entry is replaced, keeping its id) and keeps every
// other entry; --merge means the same.
func TestImportCLI_AddsByDefault(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	before := lsJSON(t, db)
	kept, _ := byName(before, "deploy-steps")
	in := `{"id":900,"name":"one-more","kind":"note","created_at":5,"aliases":[],"content":"new"}` + "\n" +
		`{"id":901,"name":"deploy-steps","kind":"note","created_at":6,"aliases":[],"content":"replaced"}` + "\n"
	mustRun(t, in, "import", "-", "--db", db)
	after := lsJSON(t, db)
	if len(after) != len(before)+1 {
		t.Fatalf("%d entries after importing 2 (1 new) into %d", len(after), len(before))
	}
	if e, ok := byName(after, "deploy-steps"); !ok || e.ID != kept.ID || e.Content != "replaced" {
		t.Errorf("deploy-steps after import: %+v, want id %d kept and the new content", e, kept.ID)
	}
	for _, b := range before {
		if _, ok := byName(after, b.Name); !ok {
			t.Errorf("%s lost by import", b.Name)
		}
	}
	mustRun(t, in, "import", "-", "--merge", "--db", db)
	if again := lsJSON(t, db); len(again) != len(after) {
		t.Errorf("--merge of the same lines: %d entries, want %d", len(again), len(after))
	}
}
