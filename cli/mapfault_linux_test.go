package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// mappedNow reports whether path is mapped in this process.
func mappedNow(path string) bool {
	maps, err := os.ReadFile("/proc/self/maps")
	return err == nil && strings.Contains(string(maps), path)
}

// Commands that build the index in the background (search --explain, its
// --json form, bench) end in the same one line as every mapped read when
// the file is cut short while they read it, wherever the read is: the
// decode, the index build on its own goroutines, or the lookups. The file
// is cut as soon as it is mapped and again a little later, so that across
// the rounds every stage is hit; each round must end in exit 0 or that
// line, never a stack trace.
func TestMappedFileCutShortWhileIndexed(t *testing.T) {
	for _, args := range [][]string{
		{"search", "--explain", "deploy"},
		{"search", "--json", "--explain", "deploy"},
		{"bench", "--iterations", "1"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			faults := 0
			for round := range 6 {
				path := filepath.Join(t.TempDir(), "memory.db")
				entries := make([]store.Entry, 2000)
				for i := range entries {
					entries[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%05d", i), Kind: store.Note,
						CreatedAt: 1767225600, Content: strings.Repeat(fmt.Sprintf("deploy word%d text ", i), 250)}
				}
				if err := os.WriteFile(path, store.Encode(uint64(len(entries)+1), entries), 0o600); err != nil {
					t.Fatal(err)
				}
				cut := make(chan struct{})
				go func() {
					defer close(cut)
					for !mappedNow(path) {
						time.Sleep(100 * time.Microsecond)
					}
					time.Sleep(time.Duration(round) * 2 * time.Millisecond)
					os.Truncate(path, 0)
				}()
				var out, errb strings.Builder
				code := run(append(args, "--db", path), strings.NewReader(""), &out, &errb, func(string) string { return "" })
				<-cut
				want := "crmem: " + path + ": the file was cut short while crmem read it"
				switch got := errb.String(); {
				case code == 0:
				case code == 1 && strings.HasPrefix(got, want) && strings.Count(got, "\n") == 1:
					faults++
				default:
					t.Fatalf("round %d: exit %d, stderr %q; want exit 0 or one line starting %q", round, code, got, want)
				}
			}
			t.Logf("%d of 6 rounds read the file after it was cut", faults)
		})
	}
}
