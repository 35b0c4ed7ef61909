package sessions_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crmem/crmem/store/sessions"
)

const (
	fixtureDir      = "../../testdata/reference/sessions"
	fixtureExpected = "../../testdata/reference/sessions.expected.json"
	// fixtureEntries is the reference's view of small.db, the memory file
	// the sessions fixture belongs with: one entry per line. Read rather
	// than small.db, so that these tests need not import store, which
	// imports this package: go test would compile store again against
	// this package's test build.
	fixtureEntries = "../../testdata/reference/crmem/small.entries.jsonl"
)

type refsJSON struct {
	ReferencedBy []string `json:"referenced_by"`
	ResumeOf     []string `json:"resume_of"`
}

type expectedJSON struct {
	Archives map[string]refsJSON `json:"archives"`
	Dangling map[string]refsJSON `json:"dangling"`
}

func readExpected(t *testing.T) expectedJSON {
	t.Helper()
	data, err := os.ReadFile(fixtureExpected)
	if err != nil {
		t.Fatal(err)
	}
	var exp expectedJSON
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

// fixtureArchives returns the names of the archives in small.db, the
// memory file the sessions fixture belongs with.
func fixtureArchives(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(fixtureEntries)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	lines := bufio.NewScanner(bytes.NewReader(data))
	lines.Buffer(nil, len(data)+1)
	for lines.Scan() {
		var e struct{ Kind, Name string }
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e.Kind == "archive" {
			out[e.Name] = true
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no archive", fixtureEntries)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestRead_Fixture(t *testing.T) {
	ss, err := sessions.Read(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	want := []sessions.Session{
		{Name: "alice-deploy", Archives: []string{"archive-sess-0001-1767300000000000000"}, Resume: "archive-sess-0001-1767300000000000000"},
		{Name: "bob-db", Archives: []string{"archive-sess-0002-1767400000000000000", "archive-sess-0004-1767600000000000000"}, Resume: "archive-sess-0004-1767600000000000000"},
		{Name: "carol-frontend", Archives: []string{"archive-sess-0003-1767500000000000000"}, Resume: "archive-sess-0003-1767500000000000000"},
		{Name: "dmitri-legacy"},
		{Name: "erin-empty"},
	}
	if !reflect.DeepEqual(ss, want) {
		t.Fatalf("Read:\n got %#v\nwant %#v", ss, want)
	}
}

func TestIndex_FixtureMatchesExpected(t *testing.T) {
	ss, err := sessions.Read(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	refs := sessions.Index(ss)
	exp := readExpected(t)
	archives := fixtureArchives(t)
	for name, want := range exp.Archives {
		if !archives[name] {
			t.Errorf("%s: expected archive is not in small.db", name)
		}
		got := refsJSON{nonNil(refs.ReferencedBy[name]), nonNil(refs.ResumeOf[name])}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", name, got, want)
		}
	}
	for name, want := range exp.Dangling {
		got := refsJSON{nonNil(refs.ReferencedBy[name]), nonNil(refs.ResumeOf[name])}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("dangling %s: got %+v, want %+v", name, got, want)
		}
	}
	if n, resume := refs.Referenced("archive-sess-0002-1767400000000000000"); n != 1 || resume {
		t.Errorf("Referenced(0002) = %d, %v; want 1, false", n, resume)
	}
	if !refs.Orphan("archive-sess-0005-1767700000000000000") || refs.Orphan("archive-sess-0001-1767300000000000000") {
		t.Error("Orphan: 0005 must be an orphan and 0001 not")
	}
}

func TestDangling_Fixture(t *testing.T) {
	ss, err := sessions.Read(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	archives := fixtureArchives(t)
	got := sessions.Dangling(sessions.Index(ss), func(a string) bool { return archives[a] })
	var want []string
	for name := range readExpected(t).Dangling {
		want = append(want, name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Dangling = %q, want %q", got, want)
	}
}

// writeTree creates files (path -> content) under a fresh directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	markA  = `{"archive_name":"a","archived_at":"2026-01-01T00:00:00Z"}`
	markB  = `{"archive_name":"b","archived_at":"2026-01-02T00:00:00Z"}`
	legacy = `{"compact":"summary","archived_at":"2026-01-01T00:00:00Z"}`
	turn   = `{"role":"user","content":"mentions \"archive_name\" and \"compact\" in text"}`
)

func TestRead_Cases(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []sessions.Session
	}{
		{"last marker wins", map[string]string{"s/step-000000": markA, "s/step-000001": turn, "s/step-000002": markB},
			[]sessions.Session{{Name: "s", Archives: []string{"a", "b"}, Resume: "b"}}},
		{"legacy marker after an archive resumes from nothing", map[string]string{"s/step-000000": markA, "s/step-000001": legacy},
			[]sessions.Session{{Name: "s", Archives: []string{"a"}}}},
		{"archive marker after a legacy one", map[string]string{"s/step-000000": legacy, "s/step-000001": markA},
			[]sessions.Session{{Name: "s", Archives: []string{"a"}, Resume: "a"}}},
		// crabtalk's load_session sorts step files by name, so a seven-digit
		// step comes before step-999999 there, and here.
		{"steps in name order, as crabtalk sorts them", map[string]string{"s/step-999999": markA, "s/step-1000000": markB},
			[]sessions.Session{{Name: "s", Archives: []string{"b", "a"}, Resume: "a"}}},
		{"a leftover temporary step is read, as crabtalk reads it", map[string]string{"s/step-000000": markA, "s/step-000000.tmp.42.1767600000000000000": markB},
			[]sessions.Session{{Name: "s", Archives: []string{"a", "b"}, Resume: "b"}}},
		{"unparsable and odd steps skipped", map[string]string{
			"s/step-000000": markA, "s/step-000001": `{"archive_name": 7}`, "s/step-000002": `{"archive_name":"b"`,
			"s/step-000003": "not json", "s/step-000004": turn},
			[]sessions.Session{{Name: "s", Archives: []string{"a"}, Resume: "a"}}},
		{"other files ignored", map[string]string{"s/meta": markB, "s/notes.json": markB, "s/step-000000": markA, "stray-file": markB},
			[]sessions.Session{{Name: "s", Archives: []string{"a"}, Resume: "a"}}},
		{"marker in a content string is not a marker", map[string]string{"s/step-000000": turn},
			[]sessions.Session{{Name: "s"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sessions.Read(writeTree(t, tt.files))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestRead_MissingDir(t *testing.T) {
	ss, err := sessions.Read(filepath.Join(t.TempDir(), "nope"))
	if err != nil || ss != nil {
		t.Fatalf("Read(missing) = %v, %v; want nil, nil", ss, err)
	}
}

func TestRead_NotADirectory(t *testing.T) {
	dir := writeTree(t, map[string]string{"file": "x"})
	if _, err := sessions.Read(filepath.Join(dir, "file")); err == nil {
		t.Fatal("Read(a file) succeeded; want an error")
	}
}

func TestIndex_DedupAndSort(t *testing.T) {
	refs := sessions.Index([]sessions.Session{
		{Name: "z", Archives: []string{"a", "a"}, Resume: "a"},
		{Name: "m", Archives: []string{"a", "b"}, Resume: "b"},
	})
	want := sessions.Refs{
		ReferencedBy: map[string][]string{"a": {"m", "z"}, "b": {"m"}},
		ResumeOf:     map[string][]string{"a": {"z"}, "b": {"m"}},
	}
	if !reflect.DeepEqual(refs, want) {
		t.Fatalf("got %+v, want %+v", refs, want)
	}
}

func TestDefaultDir(t *testing.T) {
	got := sessions.DefaultDir(filepath.Join("home", "u", ".crabtalk", "memory.db"))
	if want := filepath.Join("home", "u", ".crabtalk", "sessions"); got != want {
		t.Fatalf("DefaultDir = %q, want %q", got, want)
	}
}
