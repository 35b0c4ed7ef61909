package exporttest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// recorder collects what SameTree reports instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestSameTree_ReportsEveryDifference(t *testing.T) {
	want := map[string][]byte{"a.md": []byte("A"), "notes/b.md": []byte("B"), "gone.md": nil}
	got := map[string][]byte{"a.md": []byte("A"), "notes/b.md": []byte("b"), "extra.md": nil}
	r := &recorder{TB: t}
	SameTree(r, got, want)
	slices.Sort(r.errs)
	wantErrs := []string{"extra file extra.md", "missing gone.md", "notes/b.md differs:\n got \"b\"\nwant \"B\""}
	if !slices.Equal(r.errs, wantErrs) {
		t.Fatalf("reported %q, want %q", r.errs, wantErrs)
	}
	r.errs = nil
	SameTree(r, want, want)
	if len(r.errs) != 0 {
		t.Fatalf("equal trees reported %q", r.errs)
	}
}

func TestReadTree_SlashPathsOfFilesOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "notes", "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"SUMMARY.md": "s", "notes/x.md": "x"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := ReadTree(t, dir)
	if len(got) != 2 || string(got["SUMMARY.md"]) != "s" || string(got["notes/x.md"]) != "x" {
		t.Fatalf("ReadTree = %q", got)
	}
}
