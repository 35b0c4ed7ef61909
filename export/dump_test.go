package export_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/export/exporttest"
	"github.com/crmem/crmem/store"
)

const refDir = "../testdata/reference"

// fixedNow is the "now" of every test that loads or imports.
var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// smallEntries decodes the reference's small.db.
func smallEntries(t *testing.T) []store.Entry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(refDir, "crmem/small.db"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return f.Entries
}

func TestDump_SmallMatchesReference(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "brain")
	if err := export.Dump(dir, smallEntries(t)); err != nil {
		t.Fatal(err)
	}
	want := exporttest.ReadTree(t, filepath.Join(refDir, "dump/small"))
	if len(want) != 28 {
		t.Fatalf("reference tree has %d files, want 28", len(want))
	}
	exporttest.SameTree(t, exporttest.ReadTree(t, dir), want)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("staging leftover %s", e.Name())
		}
	}
}

func TestDump_ThenLoadThenDumpIsStable(t *testing.T) {
	orig := smallEntries(t)
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	if err := export.Dump(a, orig); err != nil {
		t.Fatal(err)
	}
	loaded, _, err := export.Load(a, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded) != len(orig) {
		t.Fatalf("loaded %d entries, want %d", len(loaded), len(orig))
	}
	byName := map[string]store.Entry{}
	for _, e := range orig {
		byName[e.Name] = e
	}
	for i, e := range loaded {
		if e.ID != uint64(i+1) {
			t.Errorf("%s: id %d, want %d", e.Name, e.ID, i+1)
		}
		o := byName[e.Name]
		if e.Content != o.Content || e.Kind != o.Kind || e.CreatedAt != o.CreatedAt || !slices.Equal(e.Aliases, o.Aliases) {
			t.Errorf("%s: loaded %+v, dumped %+v", e.Name, e, o)
		}
	}
	if err := export.Dump(b, loaded); err != nil {
		t.Fatal(err)
	}
	exporttest.SameTree(t, exporttest.ReadTree(t, b), exporttest.ReadTree(t, a))
}

func TestDump_InvalidNamesReportedAllAtOnce(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("x"), 0o644)
	entries := []store.Entry{
		{ID: 1, Name: "fine"},
		{ID: 2, Name: "a/b"},
		{ID: 3, Name: ".hidden"},
		{ID: 4, Name: "dup"},
		{ID: 5, Name: "dup", Kind: store.Archive},
		{ID: 6, Name: "trailing "},
	}
	err := export.Dump(dir, entries)
	if err == nil {
		t.Fatal("dump succeeded")
	}
	for _, want := range []string{"4 entries", "id 2", `"a/b"`, "id 3", `".hidden"`, "ids 4 and 5", "id 6", "nothing written"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	exporttest.SameTree(t, exporttest.ReadTree(t, dir), map[string][]byte{"keep.txt": []byte("x")})

	missing := filepath.Join(t.TempDir(), "new")
	if err := export.Dump(missing, entries); err == nil {
		t.Fatal("dump succeeded")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("failed dump created the folder")
	}
}

func TestDump_LeavesForeignFilesAndRemovesStale(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"book.toml":                      "[book]\ntitle = \"Mine\"\n",
		"theme/custom.css":               "body{}",
		"notes/stale.md":                 "old",
		"notes/deep/x.md":                "old",
		"topics/gone.md":                 "old",
		"README.md":                      "hello",
		"archives/ignore.md":             "old",
		".crmem-dump-123/old-notes/x.md": "left by a killed dump",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	e := store.Entry{ID: 1, Name: "fresh", CreatedAt: 1767265200, Content: "new"}
	if err := export.Dump(dir, []store.Entry{e}); err != nil {
		t.Fatal(err)
	}
	exporttest.SameTree(t, exporttest.ReadTree(t, dir), map[string][]byte{
		"book.toml":        []byte(files["book.toml"]),
		"theme/custom.css": []byte("body{}"),
		"README.md":        []byte("hello"),
		"notes/fresh.md":   export.FormatEntry(e),
		"SUMMARY.md":       []byte("# Summary\n\n# Notes\n\n- [fresh](notes/fresh.md)\n\n"),
	})
}

func TestDump_WritesBookTOMLOnlyWhenAbsent(t *testing.T) {
	dir := t.TempDir()
	if err := export.Dump(dir, nil); err != nil {
		t.Fatal(err)
	}
	exporttest.SameTree(t, exporttest.ReadTree(t, dir), map[string][]byte{
		"book.toml":  []byte(export.BookTOML),
		"SUMMARY.md": []byte("# Summary\n\n"),
	})
}

func TestDump_TopicsAndSummaryOrder(t *testing.T) {
	dir := t.TempDir()
	entries := []store.Entry{
		{ID: 1, Name: "b", Kind: store.Topic},
		{ID: 2, Name: "Z", Kind: store.Topic},
		{ID: 3, Name: "é", Kind: store.Note},
		{ID: 4, Name: "a", Kind: store.Note},
	}
	if err := export.Dump(dir, entries); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "SUMMARY.md"))
	want := "# Summary\n\n# Notes\n\n- [a](notes/a.md)\n- [é](notes/é.md)\n\n# Topics\n\n- [Z](topics/Z.md)\n- [b](topics/b.md)\n\n"
	if string(got) != want {
		t.Errorf("SUMMARY.md = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "topics/Z.md")); err != nil {
		t.Error(err)
	}
}

func TestDump_NotADirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "file")
	os.WriteFile(path, []byte("x"), 0o644)
	err := export.Dump(path, nil)
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("err = %v, want not a directory", err)
	}
}

// expectedLine is a line of handwritten.expected.jsonl.
type expectedLine struct {
	ID        uint64   `json:"id"`
	CreatedAt *uint64  `json:"created_at"`
	Kind      string   `json:"kind"`
	Name      string   `json:"name"`
	Content   string   `json:"content"`
	Aliases   []string `json:"aliases"`
}

func TestLoad_HandwrittenMatchesReference(t *testing.T) {
	got, _, err := export.Load(filepath.Join(refDir, "load/handwritten"), fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(refDir, "load/handwritten.expected.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var want []expectedLine
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var w expectedLine
		if err := json.Unmarshal([]byte(line), &w); err != nil {
			t.Fatal(err)
		}
		want = append(want, w)
	}
	if len(got) != len(want) {
		t.Fatalf("loaded %d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		created := uint64(fixedNow.Unix())
		if w.CreatedAt != nil {
			created = *w.CreatedAt
		}
		if g.ID != w.ID || g.Name != w.Name || g.Kind.String() != w.Kind || g.Content != w.Content ||
			!slices.Equal(g.Aliases, w.Aliases) || g.CreatedAt != created {
			t.Errorf("entry %d:\n got %+v\nwant %+v (created %d)", i, g, w, created)
		}
	}
}

func TestLoad_Errors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"same name in two folders", map[string]string{"notes/dup.md": "a", "archives/dup.md": "b"},
			[]string{`archives/dup.md: name "dup" already used by notes/dup.md`}},
		{"invalid names all reported", map[string]string{"notes/a..b.md": "a", "notes/c..d.md": "b", "notes/ok.md": "c"},
			[]string{"notes/a..b.md", "notes/c..d.md"}},
		{"not utf8", map[string]string{"notes/bin.md": "\xff\xfe"}, []string{"notes/bin.md: not valid UTF-8"}},
		{"not a tree", map[string]string{"other/x.md": "x"}, []string{"not a dump tree"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
				os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
			}
			got, _, err := export.Load(dir, fixedNow)
			if err == nil {
				t.Fatalf("loaded %+v", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestLoad_SkipsHiddenAndOtherFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"notes/.swap.md": "x", "notes/a.md~": "x", "notes/sub/b.md": "x", "notes/real.md": "real",
		"SUMMARY.md": "# Summary", "topics/t.md": "topic",
	} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	got, _, err := export.Load(dir, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "real" || got[1].Name != "t" || got[1].Kind != store.Topic {
		t.Errorf("loaded %+v", got)
	}
}

func TestLoad_EmptyDumpLoadsEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := export.Dump(dir, nil); err != nil {
		t.Fatal(err)
	}
	got, _, err := export.Load(dir, fixedNow)
	if err != nil || len(got) != 0 {
		t.Fatalf("Load = %v, %v", got, err)
	}
}

// TestDump_LongestValidNameDumps: every name ValidName accepts can be
// dumped. NAME.md must fit a file name (255 bytes), so the longest valid
// name leaves room for ".md"; a name one byte longer is refused up front,
// before the dump creates anything.
func TestDump_LongestValidNameDumps(t *testing.T) {
	longest := strings.Repeat("n", store.MaxNameBytes)
	if err := store.ValidName(longest); err != nil {
		t.Fatalf("ValidName(%d bytes) = %v", len(longest), err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := export.Dump(dir, []store.Entry{{ID: 1, Name: longest, Content: "x"}}); err != nil {
		t.Fatalf("dump of a %d-byte name: %v", len(longest), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes", longest+".md")); err != nil {
		t.Fatal(err)
	}
	tooLong := longest + "n"
	if err := store.ValidName(tooLong); err == nil {
		t.Fatalf("ValidName accepts %d bytes, whose NAME.md (%d bytes) no file system takes", len(tooLong), len(tooLong)+3)
	}
	missing := filepath.Join(t.TempDir(), "new")
	if err := export.Dump(missing, []store.Entry{{ID: 1, Name: tooLong}}); err == nil {
		t.Fatal("dump of a name too long succeeded")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("failed dump created the folder")
	}
}

// TestDump_FailedDumpLeavesNoFolder: a dump that fails after creating its
// missing folder (here: the staged file's path is longer than the system
// takes, though the folder's is not) removes the folders it created.
func TestDump_FailedDumpLeavesNoFolder(t *testing.T) {
	root := t.TempDir()
	const pathMax, dirLen = 4096, 3900 // NAME.md in the stage then exceeds pathMax
	if len(root) > dirLen-300 {
		t.Skipf("temp folder path is %d bytes: no room for the deep folder this test needs", len(root))
	}
	dir := root
	for len(dir) < dirLen {
		dir = filepath.Join(dir, strings.Repeat("d", min(200, dirLen-len(dir)-1)))
	}
	name := strings.Repeat("n", store.MaxNameBytes)
	if len(dir)+len("/.crmem-dump-0123456789/notes/")+len(name)+len(".md") <= pathMax {
		t.Fatalf("the staged path is not too long (%d bytes folder)", len(dir))
	}
	if err := export.Dump(dir, []store.Entry{{ID: 1, Name: name, Content: "x"}}); err == nil {
		t.Fatal("the dump succeeded")
	}
	if got := exporttest.ReadTree(t, root); len(got) != 0 {
		t.Errorf("the failed dump left files: %v", got)
	}
	if des, _ := os.ReadDir(root); len(des) != 0 {
		t.Errorf("the failed dump left %d folders in %s", len(des), root)
	}
}
