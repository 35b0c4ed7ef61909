//go:build unix

package cli

import (
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"

	"github.com/crmem/crmem/store/crabdb"
)

// TestAdd_SignalDuringStoreWriteReportsThenEnds: ctrl-c during a write to
// crabtalk's store waits for the write (crabdb's hold), and then crmem
// says what it wrote before it ends as the signal asked, status 130 (seen:
// the write landed but crmem, ended by the signal sent again after the
// append, printed nothing). The signal is sent from the guard's second
// check, which runs inside the append (no write lease: the test holds the
// file open) while crmem's note of the append is beside the store.
func TestAdd_SignalDuringStoreWriteReportsThenEnds(t *testing.T) {
	path := copyStore(t, "small.crmem", "store.crmem")
	hold, err := os.Open(path) // denies the write lease, so Append checks the guard again inside its hold
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	// The test's own channel: were the signal sent to the process again
	// rather than handed over, it lands here instead of ending the tests.
	caught := make(chan os.Signal, 4)
	signal.Notify(caught, syscall.SIGINT)
	defer signal.Stop(caught)
	sent := false
	guard := func(string) (string, error) {
		if _, err := os.Stat(crabdb.IntentPath(path)); err == nil && !sent {
			sent = true
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				t.Error(err)
			}
			<-caught // delivered: crabdb's hold has it too
		}
		return "test: no daemon", nil
	}
	out, errs, code := runGuarded(guard, nil, "", "--db", path, "add", "interrupted", "written whole")
	if !sent {
		t.Fatalf("the guard was never called during the append (exit %d, %q, %q)", code, out, errs)
	}
	if code != 130 || !strings.Contains(out, "added") || !strings.Contains(errs, "stopped by interrupt once the write was over") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 130, the report, then why it stopped", code, out, errs)
	}
	if got, _, _ := runIn(nil, "", "--db", path, "show", "interrupted"); !strings.Contains(got, "written whole") {
		t.Errorf("the entry is not in the store: %q", got)
	}
}
