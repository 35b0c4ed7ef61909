package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/keymap"
)

// TestMan_Sections: every page has ENVIRONMENT, FILES and EXIT STATUS
// before SEE ALSO, crmem.1 also KEYS with every default binding; when man
// is installed it reads the page without warnings.
func TestMan_Sections(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man1")
	if r := inProcess("man", dir); r.code != 0 {
		t.Fatalf("crmem man: exit %d, %q", r.code, r.stderr)
	}
	for _, name := range []string{"crmem.1", "crmem-ls.1", "crmem-edit.1"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		want := []string{".SH ENVIRONMENT", ".SH FILES", ".SH EXIT STATUS"}
		if name == "crmem.1" {
			want = append(want, ".SH KEYS")
		} else if strings.Contains(page, ".SH KEYS") {
			t.Errorf("%s has the TUI's KEYS", name)
		}
		last := 0
		for _, sec := range append(want, ".SH SEE ALSO") {
			i := strings.Index(page, sec+"\n")
			if i < last {
				t.Errorf("%s: %q missing or out of order", name, sec)
			}
			last = i
		}
		for _, v := range envVars {
			if !strings.Contains(page, v[0]) {
				t.Errorf("%s: ENVIRONMENT lacks %s", name, v[0])
			}
		}
	}
	keys, _ := os.ReadFile(filepath.Join(dir, "crmem.1"))
	_, keysSection, _ := strings.Cut(string(keys), ".SH KEYS\n")
	km := keymap.DefaultKeyMap()
	for _, g := range km.FullHelp() {
		for _, k := range g {
			if !strings.Contains(keysSection, roffRunes(k.Help().Desc)) { // … as \[u2026]
				t.Errorf("KEYS lacks %q (%s)", k.Help().Desc, k.Help().Key)
			}
		}
	}
	if _, err := exec.LookPath("man"); err == nil {
		out, err := exec.Command("man", "--warnings", "-l", filepath.Join(dir, "crmem.1")).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "EXIT STATUS") || strings.Contains(string(out), "warning") {
			t.Errorf("man -l crmem.1: %v\n%.500s", err, out)
		}
	}
}

// TestMan_EnvironmentMatchesReadme: the variables the man pages list are
// the ones the documentation's Environment table lists (README.md or a
// page under docs/).
func TestMan_EnvironmentMatchesReadme(t *testing.T) {
	page, section := docSection(t, "Environment")
	for _, v := range envVars {
		for name := range strings.SplitSeq(v[0], ", ") {
			if !strings.Contains(section, "`"+name+"`") {
				t.Errorf("%s: the Environment table lacks %s", page.path, name)
			}
		}
	}
}
