package sessions_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/crmem/crmem/store/sessions"
)

// anHourAgo is a fixed modification time well outside the racy window.
var anHourAgo = time.Now().Add(-time.Hour).Truncate(time.Second)

// age sets a session folder's modification time to an hour ago plus d.
func age(t *testing.T, dir string, d time.Duration) {
	t.Helper()
	tm := anHourAgo.Add(d)
	if err := os.Chtimes(dir, tm, tm); err != nil {
		t.Fatal(err)
	}
}

func TestReader_RereadsOnlyChangedSessions(t *testing.T) {
	dir := writeTree(t, map[string]string{"a/step-000000": markA, "b/step-000000": markA})
	age(t, filepath.Join(dir, "a"), 0)
	age(t, filepath.Join(dir, "b"), 0)
	r := sessions.NewReader(dir)
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	// Rewrite a's step in place (its folder's time stays): the cached read
	// is reused, which shows a is not read again.
	if err := os.WriteFile(filepath.Join(dir, "a", "step-000000"), []byte(markB), 0o644); err != nil {
		t.Fatal(err)
	}
	age(t, filepath.Join(dir, "a"), 0)
	// b gets a new step: its folder's time changes and it is read again.
	if err := os.WriteFile(filepath.Join(dir, "b", "step-000001"), []byte(markB), 0o644); err != nil {
		t.Fatal(err)
	}
	age(t, filepath.Join(dir, "b"), time.Second)
	got, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	want := []sessions.Session{
		{Name: "a", Archives: []string{"a"}, Resume: "a"},
		{Name: "b", Archives: []string{"a", "b"}, Resume: "b"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	if fresh, _ := sessions.Read(dir); fresh[0].Resume != "b" {
		t.Fatalf("Read must not cache: %#v", fresh[0])
	}
}

func TestReader_RecentFolderIsAlwaysReread(t *testing.T) {
	dir := writeTree(t, map[string]string{"a/step-000000": markA})
	r := sessions.NewReader(dir)
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "step-000000"), []byte(markB), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := r.Read()
	if err != nil || len(got) != 1 || got[0].Resume != "b" {
		t.Fatalf("got %#v, %v: a folder changed just now must be read again", got, err)
	}
}

func TestReader_SessionsComeAndGo(t *testing.T) {
	dir := writeTree(t, map[string]string{"a/step-000000": markA})
	r := sessions.NewReader(dir)
	if ss, _ := r.Read(); len(ss) != 1 {
		t.Fatalf("first read: %v", ss)
	}
	if err := os.RemoveAll(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	writeTree2(t, dir, "c/step-000000", markB)
	ss, err := r.Read()
	if err != nil || !reflect.DeepEqual(ss, []sessions.Session{{Name: "c", Archives: []string{"b"}, Resume: "b"}}) {
		t.Fatalf("after a went and c came: %#v, %v", ss, err)
	}
	if r.Dir() != dir {
		t.Fatalf("Dir() = %q", r.Dir())
	}
}

// writeTree2 adds one file under an existing folder.
func writeTree2(t *testing.T, dir, rel, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
