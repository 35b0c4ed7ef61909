//go:build unix

package store_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestCheckLen: a string of 4 GiB or more is refused before encoding (the
// format's length prefix is a u32), with a clear error; one byte less is
// fine. The lengths are given, not allocated.
func TestCheckLen(t *testing.T) {
	tests := []struct {
		n    int64
		fail bool
	}{
		{0, false},
		{math.MaxUint32, false},
		{math.MaxUint32 + 1, true},
		{1 << 40, true},
	}
	for _, tt := range tests {
		err := store.CheckLen("content", tt.n)
		if (err != nil) != tt.fail || tt.fail && !errors.Is(err, store.ErrTooLong) {
			t.Errorf("CheckLen(%d) = %v, want failure %v", tt.n, err, tt.fail)
		}
	}
}

// TestApply_RootKeepsOwner: root rewriting a user's 0600 memory leaves it
// the user's (owner, group and mode kept).
func TestApply_RootKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	path := writeDB(t, 2, note(1, "a", "x"))
	if err := os.Chown(path, 1234, 1234); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, path)
	dbApply(t, db, store.Add{Name: "b", Content: "y"})
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 1234 || st.Gid != 1234 || fi.Mode().Perm() != 0o600 {
		t.Errorf("after root's write: owner %d:%d mode %v, want 1234:1234 0600", st.Uid, st.Gid, fi.Mode().Perm())
	}
	if des, _ := os.ReadDir(filepath.Dir(path)); len(des) != 1 {
		t.Errorf("folder holds %d names", len(des))
	}
}
