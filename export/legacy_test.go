package export_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
)

// mtime is the modification time copyTree gives every file.
const mtime = 1767000000

// copyTree copies a testdata tree into a temporary folder with every file's
// modification time set to mtime, so created_at fallbacks are fixed.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return err
		}
		tm := time.Unix(mtime, 0)
		return os.Chtimes(target, tm, tm)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// checkImported compares entries field by field, nil and empty alias lists
// being equal.
func checkImported(t *testing.T, got, want []store.Entry) {
	t.Helper()
	got, want = normAliases(got), normAliases(want)
	if len(got) != len(want) {
		t.Errorf("%d entries, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// checkNotices requires one notice per wanted fragment, in order.
func checkNotices(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("notices %q, want %d", got, len(want))
		return
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("notice %q does not mention %q", got[i], w)
		}
	}
}

func TestImportCrabtalk0038(t *testing.T) {
	dir := copyTree(t, "testdata/crabtalk/basic")
	res, err := export.ImportCrabtalk0038(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := func(id uint64, name, content string, aliases ...string) store.Entry {
		return store.Entry{ID: id, Name: name, Kind: store.Note, CreatedAt: mtime, Content: content, Aliases: aliases}
	}
	checkImported(t, res.Entries, []store.Entry{
		n(1, "bad.name-2", "odd file name"),
		n(2, "bad.name", "takes the name first"),
		n(3, "crlf-bom", "Windows file\n\nline one\nline two"),
		n(4, "deploy-steps", "How we ship to production\n\n1. Tag the release.\n2. Run `make release`.", "Deploy Steps"),
		n(5, "dup-a", "first", "Same Name"),
		n(6, "dup-b", "second", "Same Name"),
		n(7, "no-name", "only a description\n\ntext"),
		n(8, "plain", "Just a note without frontmatter."),
		n(9, "quoted", "it's: quoted\n\n> crabtalk-0038 · source: chat\n\nBody with --- inside.\n---\nStill body.", "Quoted: with colon"),
		n(10, "螃蟹", "カニ について\n\ncrabs 🦀"),
	})
	checkNotices(t, res.Notices,
		"MEMORY.md: skipped (38 bytes)",
		`bad..name.md: renamed "bad..name" to "bad.name-2" (not a valid entry name)`)
}

func TestImportCrabtalk0038_Errors(t *testing.T) {
	_, err := export.ImportCrabtalk0038("testdata/crabtalk/malformed")
	var le *export.LineError
	if !errors.As(err, &le) || !strings.HasSuffix(le.File, "zbad.md") || le.Line != 3 {
		t.Fatalf("err = %v, want zbad.md:3", err)
	}
	if !strings.Contains(err.Error(), "zbad.md:3: description: unterminated quoted string") {
		t.Errorf("err = %v", err)
	}
	if _, err := export.ImportCrabtalk0038("testdata/drover/basic"); err == nil || !strings.Contains(err.Error(), "no entries/ folder") {
		t.Errorf("non-0038 folder: err = %v", err)
	}
}

func TestImportDrover(t *testing.T) {
	dir := copyTree(t, "testdata/drover/basic")
	res, err := export.ImportDrover(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := func(id uint64, name string, kind store.Kind, created uint64, content string, aliases ...string) store.Entry {
		return store.Entry{ID: id, Name: name, Kind: kind, CreatedAt: created, Content: content, Aliases: aliases}
	}
	checkImported(t, res.Entries, []store.Entry{
		e(1, "user-prefers-tabs-over-spaces", store.Note, 1767265200,
			"User prefers tabs over spaces\n\n> drover · scope: global · kind: user · id: 01HAAA\n\nUse tabs in Go and Makefiles.",
			"style", "editor", "01HAAA"),
		e(2, "don-t-split-prs-over-300-lines", store.Note, 1767323045,
			"Don't: split PRs over 300 lines\n\n> drover · scope: agent · agent: planner · kind: feedback · id: 01HBBB · updatedAt: 1767400000000 · source: chat\n\nReviewers asked twice.",
			"review", "size: small", "01HBBB"),
		e(3, "01HCCC", store.Note, mtime,
			"> drover · scope: agent · agent: planner · id: 01HCCC\n\nA body with no frontmatter at all."),
		e(4, "café-notes-über-größe", store.Note, mtime,
			"Café notes über Größe\n\n> drover · scope: agent · agent: 名前 · kind: reference · id: 01HGGG · createdAt: not a date\n\nUnicode agent folder.",
			"01HGGG"),
		e(5, "user-prefers-tabs-over-spaces-2", store.Archive, mtime,
			"User prefers tabs over spaces\n\n> drover · scope: run · agent: planner · run: run-42 · kind: summary · id: 01HDDD\n\nSummary of run 42.",
			"01HDDD"),
		e(6, "01HEEE", store.Note, mtime,
			"> drover · scope: run · run: run-42 · kind: weird · id: 01HEEE\n\nUnknown kind, empty summary."),
		e(7, "crlf-file", store.Note, mtime,
			"CRLF file\n\n> drover · scope: run · run: run-42 · kind: project · id: 01HFFF\n\nline one\nline two",
			"win", "01HFFF"),
	})
	checkNotices(t, res.Notices,
		`01HEEE.md: unknown kind "weird" imported as a note`,
		`01HDDD.md: renamed "user-prefers-tabs-over-spaces" to "user-prefers-tabs-over-spaces-2" (name already taken)`)
}

func TestImportDrover_Malformed(t *testing.T) {
	_, err := export.ImportDrover("testdata/drover/malformed")
	if err == nil || !strings.Contains(err.Error(), "01HZZZ.md:5: ") || !strings.Contains(err.Error(), "nested") {
		t.Fatalf("err = %v, want 01HZZZ.md:5 nested", err)
	}
}

func TestDetect(t *testing.T) {
	tmp := t.TempDir()
	jsonl := filepath.Join(tmp, "x.jsonl")
	os.WriteFile(jsonl, []byte("\n  {\"name\":\"a\"}\n"), 0o644)
	text := filepath.Join(tmp, "x.txt")
	os.WriteFile(text, []byte("hello\n"), 0o644)
	os.MkdirAll(filepath.Join(tmp, "tree/notes"), 0o755)
	os.MkdirAll(filepath.Join(tmp, "empty"), 0o755)
	tests := []struct {
		path string
		want export.Format
		err  string
	}{
		{jsonl, export.JSONL, ""},
		{text, "", "not JSON lines"},
		{"testdata/crabtalk/basic", export.Crabtalk0038, ""},
		{"testdata/drover/basic", export.Drover, ""},
		{filepath.Join(tmp, "tree"), "", "use `crmem load"},
		{filepath.Join(tmp, "empty"), "", "use --from"},
		{filepath.Join(tmp, "missing"), "", "no such file"},
		{"../testdata/reference/crmem/small.db", export.CRMEM, ""},
	}
	for _, tt := range tests {
		got, err := export.Detect(tt.path)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("Detect(%s) = %q, %v; want %q, %q", tt.path, got, err, tt.want, tt.err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"jsonl", "crabtalk-0038", "drover"} {
		if f, err := export.ParseFormat(s); err != nil || string(f) != s {
			t.Errorf("ParseFormat(%s) = %q, %v", s, f, err)
		}
	}
	if _, err := export.ParseFormat("csv"); err == nil {
		t.Error("csv accepted")
	}
}
