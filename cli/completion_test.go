package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestCompletion_UnknownShell: a shell cobra writes no script for is a
// usage error naming the shells, not the help with exit status 0.
func TestCompletion_UnknownShell(t *testing.T) {
	r := inProcess("completion", "tcsh")
	want := "crmem: completion: unknown shell \"tcsh\" (want bash, fish, powershell, zsh) (see 'crmem completion --help')\n"
	if r.code != 2 || r.stderr != want || r.stdout != "" {
		t.Errorf("exit %d, stdout %.80q, stderr %q; want 2 and %q", r.code, r.stdout, r.stderr, want)
	}
	if r := inProcess("completion", "zsh"); r.code != 0 || !strings.Contains(r.stdout, "compdef") {
		t.Errorf("completion zsh: exit %d, %.80q", r.code, r.stdout)
	}
}

// TestImport_FromOneList: the formats import's --from completes, names in
// its help and offers in its error are one list, and each is accepted.
func TestImport_FromOneList(t *testing.T) {
	r := inProcess("__complete", "import", "--from", "")
	completed := strings.Split(strings.TrimSpace(r.stdout), "\n")
	completed = completed[:len(completed)-1] // the directive line
	help := inProcess("import", "--help").stdout
	err := inProcess("import", "x", "--from", "zz").stderr
	if !slices.Contains(completed, "crabdb") {
		t.Errorf("--from completes %q: crabdb (which it reads) is missing", completed)
	}
	for _, f := range completed {
		if !strings.Contains(err, f) {
			t.Errorf("the error %q does not offer %q", err, f)
		}
		if !strings.Contains(help, "--from "+strings.Join(completed, "|")) {
			t.Errorf("import's usage line does not list %q", completed)
		}
	}
	if want := "want " + strings.Join(completed[:len(completed)-1], ", ") + " or " + completed[len(completed)-1] + ")"; !strings.Contains(err, want) {
		t.Errorf("error %q, want it to end %q", err, want)
	}
}
