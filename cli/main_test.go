package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/internal/testbin"
)

// crmemBin is the binary built once for the tests that run crmem as a user
// would; testHome is the HOME those runs see.
var crmemBin, testHome string

func TestMain(m *testing.M) {
	if role := os.Getenv(cliHelperEnv); role != "" {
		os.Exit(cliHelper(role))
	}
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "crmem-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	testHome = filepath.Join(dir, "home")
	if err := os.Mkdir(testHome, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The one build ./tui's tests use too (kept in the build cache): no
	// link of its own when that package's tests made it first.
	bin, cleanup, err := testbin.Build("..")
	if err != nil {
		fmt.Fprintln(os.Stderr, "build crmem:", err)
		return 1
	}
	defer cleanup()
	crmemBin = bin
	code := m.Run()
	if err := checkRootUnread(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return code
}

// checkRootUnread fails when a test looked at the repository root folder
// itself (a stat of it, or a listing of it), as go test's log of what the
// tests read shows (-test.testlogfile, set when go test may cache the
// result). go test keys its cache on what the log names: with the root in
// it, creating and removing any file there (`go build -o crmem .`) would make
// the next `go test ./...` run this package's tests again, which take
// minutes. Reading files in the root by name (README.md) is fine: only a
// change to those files reruns the tests then.
func checkRootUnread() error {
	f := flag.Lookup("test.testlogfile")
	if f == nil || f.Value.String() == "" {
		return nil
	}
	return rootReadIn(f.Value.String())
}

// rootReadIn is checkRootUnread for the test log at path, read relative to
// the working folder the tests start in.
func rootReadIn(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read the test log: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("read the test log: %w", err)
	}
	root := filepath.Dir(wd)
	dir := wd
	var seen []string
	for line := range strings.Lines(string(data)) {
		op, name, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if !ok || op == "getenv" {
			continue
		}
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		name = filepath.Clean(name)
		switch {
		case op == "chdir":
			dir = name
		case name == root && !slices.Contains(seen, op):
			seen = append(seen, op)
		}
	}
	if len(seen) > 0 {
		return fmt.Errorf("a test did %s the repository root %s: go test's cache of this package would then depend on every file created or removed there; read the files a test needs by name instead", strings.Join(seen, " and "), root)
	}
	return nil
}

// result is one run of crmem.
type result struct {
	stdout, stderr string
	code           int
}

// crmem runs crmem with args and the given standard input, with HOME
// pointing at an empty test folder and CRMEM_DB unset: in this process,
// through Run as main calls it (no process start per call, some 10 ms of
// CPU each over a thousand calls). A test about what only a process has
// (other processes beside it, its exit, the binary's version) uses
// crmemProcess.
func crmem(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	env := map[string]string{}
	for _, kv := range testEnv() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	var out, errb bytes.Buffer
	code := Run("", args, strings.NewReader(stdin), &out, &errb, func(k string) string { return env[k] })
	return result{out.String(), errb.String(), code}
}

// crmemProcess is crmem run as the binary, in a process of its own.
func crmemProcess(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(crmemBin, args...)
	cmd.Env = testEnv()
	cmd.Stdin = strings.NewReader(stdin)
	return runCommand(t, cmd)
}

// runCommand runs cmd and returns its output and exit status; a command
// that cannot be started at all fails the test.
func runCommand(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return result{out.String(), errb.String(), ee.ExitCode()}
	case err != nil:
		t.Fatalf("run %q: %v", cmd.Args, err)
	}
	return result{out.String(), errb.String(), 0}
}

// testEnv is the environment without CRMEM_DB and the configuration's
// variables, with HOME replaced.
func testEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains([]string{"CRMEM_DB", "HOME", "CRMEM_CONFIG", "XDG_CONFIG_HOME", "CRMEM_STYLE", "CRABTALK_HOME"}, name) {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+testHome, "NO_COLOR=1")
}

// mustRun runs crmem (in this process) and fails the test unless it
// exits 0.
func mustRun(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	return mustExit0(t, args, crmem(t, stdin, args...))
}

// mustRunProcess is mustRun with the binary in a process of its own.
func mustRunProcess(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	return mustExit0(t, args, crmemProcess(t, stdin, args...))
}

// mustExit0 fails the test unless r, the run of args, exited 0, and
// returns its standard output.
func mustExit0(t *testing.T, args []string, r result) string {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("crmem %q: exit %d, stderr %q", args, r.code, r.stderr)
	}
	return r.stdout
}

// copyFixture copies a reference fixture into a fresh temp folder and
// returns the copy's path.
func copyFixture(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", rel))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// goTool finds the go command on PATH: go test puts the running
// toolchain's bin folder first on the PATH of the tests it runs, so this is
// the go that is testing.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go" // fails when run, naming the missing command
}

// must fails the test on a non-nil err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// mustRead is the content of path, failing the test when it cannot be read.
func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
