package tui

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTmux_TypedPathsAsTheCommandLine: in a terminal, a --db whose folder
// does not exist is refused as the command line refuses it, and nothing
// is created; a folder is said to be one (issue 42 item 7). Before, the
// screen opened, said "the first write creates both" and created the
// whole chain on its first write; on a folder it waited for a good write
// that could never come.
func TestTmux_TypedPathsAsTheCommandLine(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "nonexistent", "dir", "memory.db")
	e.start("s", bin+" --db "+db+"; echo crmem-exited $?")
	e.waitFor("s", 10*time.Second, "the refusal", contains("no folder", "(a typo?)", "crmem-exited 1"))
	if _, err := os.Stat(filepath.Join(dir, "nonexistent")); !os.IsNotExist(err) {
		t.Fatalf("the screen created the folder (%v)", err)
	}
	e.start("f", bin+" --db "+dir+"; echo crmem-exited $?")
	e.waitFor("f", 10*time.Second, "a folder said to be one", contains("is a folder, not a memory file", "crmem-exited 1"))
}
