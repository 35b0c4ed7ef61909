package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docPage is one page of crmem's documentation: its path from this
// package and its text.
type docPage struct {
	path, text string
}

// docPages are the pages the README's tests read: README.md, then the
// pages under docs/ it links to (the reference moved there from the
// README), so text moved between them stays checked.
func docPages(t *testing.T) []docPage {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 2 {
		t.Fatalf("found %d pages under docs/: is the documentation gone?", len(paths))
	}
	var out []docPage
	for _, p := range append([]string{filepath.Join("..", "README.md")}, paths...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, docPage{p, string(b)})
	}
	return out
}

// docSection finds the one page with a "## heading" section and returns
// the page and the section's text up to the next "## " heading.
func docSection(t *testing.T, heading string) (docPage, string) {
	t.Helper()
	var found []docPage
	var section string
	for _, p := range docPages(t) {
		if _, s, ok := strings.Cut("\n"+p.text, "\n## "+heading+"\n"); ok {
			found = append(found, p)
			section, _, _ = strings.Cut(s, "\n## ")
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d pages of README.md and docs/ have a ## %s section, want 1", len(found), heading)
	}
	return found[0], section
}
