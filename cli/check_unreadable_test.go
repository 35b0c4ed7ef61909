package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck_StoreNamedFileReadOnlyWithTrailingBytes: a file named like
// crabtalk's store whose header's index runs past the end reads as a
// CRMEM v1 memory only with bytes after its last entry; ls, show and the
// screen refuse it with both readers' reasons, and so must check (seen:
// "valid CRMEM v1 file" with no entries and exit 0, where ls exits 1).
// --json says the same: valid false, the reasons, exit 1 (seen: "valid":
// true and exit 0 where the text check refused).
func TestCheck_StoreNamedFileReadOnlyWithTrailingBytes(t *testing.T) {
	path := filepath.Join(storeRef, "bad", "big-index-len.crmem")
	_, lsErr, lsCode := runIn(nil, "", "--db", path, "ls")
	out, errs, code := runIn(nil, "", "--db", path, "check")
	want := "crabdb: snapshot of 1099511627776 bytes runs past the end of the file"
	if lsCode != 1 || !strings.Contains(lsErr, want) {
		t.Fatalf("ls: exit %d, stderr %q", lsCode, lsErr)
	}
	if code != 1 || !strings.Contains(errs, want) || strings.Contains(out, "valid") {
		t.Errorf("check: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
	out, _, code = runIn(nil, "", "--db", path, "check", "--json")
	if code != 1 || !strings.Contains(out, `"valid":false`) || !strings.Contains(out, "runs past the end of the file") || strings.Contains(out, `"valid":true`) {
		t.Errorf("check --json: exit %d, stdout %q; want exit 1, valid false and the reason", code, out)
	}
	// A v1 file named like a store that reads whole is checked as one.
	if out, _, code := runIn(nil, "", "--db", filepath.Join(storeRef, "bad", "legacy-memory-db.crmem"), "check"); code != 0 || !strings.Contains(out, "valid CRMEM v1 file") {
		t.Errorf("legacy-memory-db.crmem: exit %d, %q", code, out)
	}
}
