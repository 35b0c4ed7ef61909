package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// truncatingWriter cuts the file at path to nothing on its first write, as
// another program writing the file in place (cp, a shell's >) would.
type truncatingWriter struct {
	path string
	done bool
	n    int
}

func (w *truncatingWriter) Write(p []byte) (int, error) {
	if !w.done {
		w.done = true
		if err := os.Truncate(w.path, 0); err != nil {
			return 0, err
		}
	}
	w.n += len(p)
	return len(p), nil
}

// A one-shot command reads a large memory file mapped; when the file is
// cut short in place while the command still reads it, crmem fails with
// one line naming the file and saying what happened, not a crash (a
// SIGBUS) or an "internal error".
func TestMappedFileCutShortWhileRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	entries := make([]store.Entry, 30000)
	for i := range entries {
		entries[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%05d", i), Kind: store.Note,
			CreatedAt: 1767225600, Content: strings.Repeat("text ", 12)}
	}
	data := store.Encode(uint64(len(entries)+1), entries)
	if len(data) < 2<<20 {
		t.Fatalf("the file is %d bytes, too small to be mapped", len(data))
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out := &truncatingWriter{path: path}
	var errb strings.Builder
	code := run([]string{"export", "--db", path}, strings.NewReader(""), out, &errb, func(string) string { return "" })
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", code, errb.String())
	}
	want := "crmem: " + path + ": the file was cut short while crmem read it"
	if got := errb.String(); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
		t.Fatalf("stderr %q, want one line starting %q", got, want)
	}
	if !out.done || out.n == 0 {
		t.Fatal("the command printed nothing before the file was cut short: the test tested nothing")
	}
}
