package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoTerminal pins what `crmem` says without a terminal: one plain line
// naming the subcommands for scripts, exit status 1, no bubbletea error and
// (for --demo) no demo folder left behind.
func TestNoTerminal(t *testing.T) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	cases := []struct {
		name    string
		args    []string
		devNull bool // stdout is /dev/null (a character device, not a terminal), else a pipe
	}{
		{"pipes", nil, false},
		{"demo", []string{"--demo"}, false},
		{"path", []string{"x.db"}, false},
		{"stdout is /dev/null", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(crmemBin, c.args...)
			cmd.Dir = tmp
			cmd.Env = append(testEnv(), "TMPDIR="+tmp)
			cmd.Stdin = strings.NewReader("")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if c.devNull {
				cmd.Stdout = devNull
			}
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1; stderr %q", err, errb.String())
			}
			msg := errb.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "crmem: the terminal UI needs a terminal") {
				t.Errorf("stderr %q", msg)
			}
			for _, want := range []string{" ls,", " search,", " show,", " export,", "crmem --help"} {
				if !strings.Contains(msg, want) {
					t.Errorf("stderr lacks %q: %q", want, msg)
				}
			}
			if strings.Contains(msg, "bubbletea") || strings.Contains(msg, " edit,") {
				t.Errorf("stderr %q", msg)
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q", out.String())
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("left behind in TMPDIR/working folder: %v", left)
			}
		})
	}
}

// TestNoTerminal_InProcess: run with buffers (no *os.File at all) refuses
// the same way.
func TestNoTerminal_InProcess(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(nil, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	if code != 1 || !strings.Contains(errb.String(), "the terminal UI needs a terminal (standard output is not one)") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
