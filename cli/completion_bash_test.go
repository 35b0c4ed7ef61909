package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bashTab runs the completion crmem's bash script gives for line (the
// cursor at its end) in a bash without the bash-completion package
// (--norc, --noprofile), COMP_WORDS split at blanks and at = and : as
// bash splits them, with crmem on PATH and, first, prelude; it returns
// COMPREPLY and what bash printed on standard error but for compopt's
// complaint that this is not a real TAB (there is no line editor here).
func bashTab(t *testing.T, bash, script, prelude, line string) (reply []string, stderr string) {
	t.Helper()
	const run = `source "$1"
COMP_LINE=$2
COMP_POINT=${#COMP_LINE}
COMP_WORDS=()
w=
for ((i = 0; i < ${#COMP_LINE}; i++)); do
    c=${COMP_LINE:i:1}
    case $c in
    ' ') [[ -n $w ]] && COMP_WORDS+=("$w"); w= ;;
    [=:]) [[ -n $w ]] && COMP_WORDS+=("$w"); COMP_WORDS+=("$c"); w= ;;
    *) w+=$c ;;
    esac
done
if [[ -n $w || $COMP_LINE == *' ' ]]; then COMP_WORDS+=("$w"); fi
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
__start_crmem
printf '%s\n' "${COMPREPLY[@]}"
`
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prelude+"\n"+run, "bash", script, line)
	cmd.Env = append(testEnv(), "PATH="+filepath.Dir(crmemBin)+string(os.PathListSeparator)+os.Getenv("PATH"), "BASH_ENV=", "ENV=")
	cmd.Dir = t.TempDir()
	r := runCommand(t, cmd)
	if r.code != 0 {
		t.Fatalf("%q: bash exit %d, stderr %q", line, r.code, r.stderr)
	}
	var kept []string
	for l := range strings.Lines(r.stderr) {
		if !strings.Contains(l, "compopt: not currently executing completion function") {
			kept = append(kept, l)
		}
	}
	return strings.Fields(r.stdout), strings.Join(kept, "")
}

// TestCompletion_BashWithoutBashCompletion: the bash script completes
// subcommands, flag values (also after "="), folders and entry names in a
// bash without the bash-completion package (Debian's minimal images),
// where every TAB used to print "_get_comp_words_by_ref: command not
// found" and complete nothing.
func TestCompletion_BashWithoutBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	script := filepath.Join(t.TempDir(), "crmem.bash")
	if err := os.WriteFile(script, []byte(mustRun(t, "", "completion", "bash")), 0o600); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(t.TempDir(), "sessions-here")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(folder+"-not-a-folder", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line string
		want []string
	}{
		{"crmem l", []string{"lint", "load", "ls"}},
		{"crmem ls --kind a", []string{"archive"}},
		{"crmem ls --kind=a", []string{"archive"}},
		{"crmem --sessions " + folder[:len(folder)-4], []string{folder}},
		{"crmem --sessions=" + folder[:len(folder)-4], []string{folder}},
		{"crmem --demo show deploy-s", []string{"deploy-steps"}},
	} {
		got, stderr := bashTab(t, bash, script, "", c.line)
		if stderr != "" {
			t.Errorf("%q: bash printed %q", c.line, stderr)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q completes %q, want %q", c.line, got, c.want)
		}
	}
}

// TestCompletion_BashUsesBashCompletion: where the bash-completion package
// is loaded, the script calls its functions, as cobra's script does.
func TestCompletion_BashUsesBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	script := filepath.Join(t.TempDir(), "crmem.bash")
	if err := os.WriteFile(script, []byte(mustRun(t, "", "completion", "bash")), 0o600); err != nil {
		t.Fatal(err)
	}
	// Stand-ins that say they were called: the package's words, and its
	// file names.
	const stubs = `_get_comp_words_by_ref() { echo "package words $*" >&2; words=(crmem --sessions x); cword=2; cur=x; prev=--sessions; }
_filedir() { echo "package filedir $*" >&2; COMPREPLY+=(from-the-package); }`
	got, stderr := bashTab(t, bash, script, stubs, "crmem --sessions x")
	if want := "package words -n =: cur prev words cword\npackage filedir -d\n"; stderr != want {
		t.Errorf("bash printed %q, want %q", stderr, want)
	}
	if !slices.Equal(got, []string{"from-the-package"}) {
		t.Errorf("completes %q, want the package's", got)
	}
}

// TestCompletion_BashScriptChanged: a cobra whose script no longer calls
// bash-completion's functions as expected is an error, not a script that
// half works.
func TestCompletion_BashScriptChanged(t *testing.T) {
	for _, script := range []string{
		"# bash completion V2 for crmem\n__crmem_init_completion()\n{\n    _get_comp_words_by_ref cur prev words cword\n}\n_filedir -d\n",
		"# bash completion V2 for crmem\n__crmem_init_completion()\n{\n    _get_comp_words_by_ref \"$@\" cur prev words cword\n}\n",
	} {
		if _, err := standaloneBash(script, "crmem"); err == nil {
			t.Errorf("standaloneBash(%q) did not fail", script)
		}
	}
}

// TestCompletion_BashHelp: `completion bash --help` no longer says the
// script needs the bash-completion package, and gives a per-user install
// path and the way without the package.
func TestCompletion_BashHelp(t *testing.T) {
	help := inProcess("completion", "bash", "--help").stdout
	if strings.Contains(help, "depends on the 'bash-completion' package") {
		t.Errorf("the help still says the script needs bash-completion:\n%s", help)
	}
	for _, want := range []string{"~/.local/share/bash-completion/completions/crmem", "source ~/.crmem-completion.bash", "without the bash-completion package"} {
		if !strings.Contains(help, want) {
			t.Errorf("the help lacks %q:\n%s", want, help)
		}
	}
}
