package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreCLI_CutShortSaysSo (issue 38 §5): a store cut short inside its
// snapshot is named as crabtalk's store cut short, at its offset, with
// what crabtalk does with it, by every command and whatever the file is
// called; never with the v1 reader's "truncated body".
func TestStoreCLI_CutShortSaysSo(t *testing.T) {
	data := mustRead(t, filepath.Join(storeRef, "small.crmem"))
	for _, name := range []string{"store.crmem", "memory.db", "backup"} {
		path := filepath.Join(t.TempDir(), name)
		must(t, os.WriteFile(path, data[:80000], 0o600))
		for _, args := range [][]string{{"ls"}, {"check"}, {"add", "x", "y"}} {
			_, errs, code := runGuarded(noDaemon, nil, "", append([]string{"--db", path}, args...)...)
			if code == 0 || !strings.Contains(errs, "crabtalk's store cut short at offset 80000") || strings.Contains(errs, "truncated body") {
				t.Errorf("%s, %v: exit %d, stderr %q", name, args, code, errs)
			}
		}
	}
}
