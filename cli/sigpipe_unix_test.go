//go:build unix

package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDemo_SIGPIPE: `crmem --demo ls | head` whose reader has gone removes
// the sample's temporary copy and ends quietly with 141 (128+SIGPIPE), as
// a pipeline's writer does; the default action of SIGPIPE killed crmem
// before its cleanups ran and left the copy behind.
func TestDemo_SIGPIPE(t *testing.T) {
	for _, args := range [][]string{{"--demo", "ls"}, {"--demo", "export"}, {"--demo", "show", "deploy-steps"}} {
		tmp := t.TempDir()
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close() // the reader is gone before crmem writes
		cmd := exec.Command(crmemBin, args...)
		cmd.Env = append(testEnv(), "TMPDIR="+tmp)
		cmd.Stdout = w
		var stderr []byte
		errPipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		stderr, _ = io.ReadAll(errPipe)
		err = cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		// 141 as a rule; 0 only if the command ignored its write errors and
		// ended before the runtime passed the signal on (it is delivered
		// asynchronously): what must never happen is death by the signal.
		if (code != 141 && code != 0) || len(stderr) != 0 {
			t.Errorf("%q into a closed pipe: %v (exit %d), stderr %q; want 141 and nothing", args, err, code, stderr)
		}
		if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
			t.Errorf("%q: the demo copy was left behind: %q", args, left)
		}
	}
}
