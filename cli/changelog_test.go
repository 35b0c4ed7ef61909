package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestChangelog_KeepAChangelog: CHANGELOG.md has Keep a Changelog's shape
// (an Unreleased section, then releases as README's Releasing writes them,
// each grouped under Keep a Changelog's six kinds of change, every change a
// list item) and names the subcommands users ask about.
func TestChangelog_KeepAChangelog(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	kinds := []string{"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
	release := regexp.MustCompile(`^## v\d+\.\d+\.\d+ — \d{4}-\d{2}-\d{2}$`)
	var sections []string
	var kindsSeen []string
	for i, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			kind := strings.TrimPrefix(line, "### ")
			if !slices.Contains(kinds, kind) {
				t.Errorf("line %d: %q is not one of Keep a Changelog's kinds %v", i+1, line, kinds)
			}
			if slices.Contains(kindsSeen, kind) {
				t.Errorf("line %d: %q twice in one release", i+1, line)
			}
			kindsSeen = append(kindsSeen, kind)
		case strings.HasPrefix(line, "## "):
			if line != "## Unreleased" && !release.MatchString(line) {
				t.Errorf("line %d: %q is neither ## Unreleased nor ## vX.Y.Z — YYYY-MM-DD", i+1, line)
			}
			sections = append(sections, line)
			kindsSeen = nil
		case strings.HasPrefix(line, "#") && i > 0:
			t.Errorf("line %d: heading %q", i+1, line)
		}
	}
	if len(sections) == 0 || sections[0] != "## Unreleased" {
		t.Errorf("the first section is %v, want ## Unreleased", sections)
	}
	for _, want := range []string{"`crmem recalls`", "`crmem search --why NAME`"} {
		if !strings.Contains(text, want) {
			t.Errorf("CHANGELOG.md does not mention %s", want)
		}
	}
}
