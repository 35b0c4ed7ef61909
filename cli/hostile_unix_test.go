//go:build unix

package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// hostileHome is a folder with a small memory.db and a sessions folder
// beside it whose one session holds a good compact marker and, as its
// second step and as its meta, what make leaves at each path.
func hostileHome(t *testing.T, make func(t *testing.T, path string)) string {
	t.Helper()
	home := t.TempDir()
	db := filepath.Join(home, "memory.db")
	entries := []store.Entry{
		{ID: 1, Name: "deploy", Kind: store.Note, CreatedAt: 1767225600, Content: "how we deploy"},
		{ID: 2, Name: "arch", Kind: store.Archive, CreatedAt: 1767225600, Content: "an archive"},
	}
	if err := os.WriteFile(db, store.Encode(3, entries), 0o600); err != nil {
		t.Fatal(err)
	}
	session := filepath.Join(home, "sessions", "agent-x_u_1")
	if err := os.MkdirAll(session, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(session, "step-000000"), []byte(`{"archive_name":"arch","archived_at":"2026-01-01T00:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	make(t, filepath.Join(session, "step-000001"))
	make(t, filepath.Join(session, "meta"))
	return db
}

func mkfifo(t *testing.T, path string) {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlinkTo(target string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
}

func sparseFile(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(10 << 30); err != nil {
		t.Fatal(err)
	}
}

// runWithin runs crmem in the process, failing the test if it takes more
// than d: a FIFO opened for reading would wait for a writer forever.
func runWithin(t *testing.T, d time.Duration, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	type result struct {
		out, err string
		code     int
	}
	done := make(chan result, 1)
	go func() {
		var out, errb strings.Builder
		code := run(args, stdin, &out, &errb, func(string) string { return "" })
		done <- result{out.String(), errb.String(), code}
	}()
	select {
	case r := <-done:
		return r.out, r.err, r.code
	case <-time.After(d):
		t.Fatalf("crmem %q still runs after %v", args, d)
		return "", "", 0
	}
}

// TestHostileSessionsDoNotHang runs every command that reads the sessions
// folder on a session whose step and meta are a FIFO, /dev/zero, a 10 GiB
// sparse file or a link out of the folder: each ends at once with its
// report (the step counted unreadable), allocating a few MiB at most.
func TestHostileSessionsDoNotHang(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, path string)
	}{
		{"FIFO", mkfifo},
		{"/dev/zero", symlinkTo("/dev/zero")},
		{"/dev/null", symlinkTo("/dev/null")},
		{"10 GiB sparse", sparseFile},
		{"link out of the folder", symlinkTo("/etc/passwd")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := hostileHome(t, tc.make)
			for _, verb := range [][]string{{"check"}, {"lint"}, {"recalls"}, {"recalls", "--report"}, {"stats"}} {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				out, errOut, code := runWithin(t, 20*time.Second, strings.NewReader(""), append(verb, "--db", db)...)
				runtime.ReadMemStats(&after)
				if code > 1 || strings.Contains(errOut, "goroutine") {
					t.Errorf("%v: exit %d, stderr %q", verb, code, errOut)
				}
				if out == "" {
					t.Errorf("%v printed no report (stderr %q)", verb, errOut)
				}
				if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
					t.Errorf("%v allocated %d MiB", verb, grew>>20)
				}
				if strings.Contains(out+errOut, "root:") {
					t.Errorf("%v read the file a link out of the sessions folder names", verb)
				}
			}
		})
	}
}

// TestHostileInputFiles gives each file a command reads that crmem did not
// write (import, bench --queries, the not-duplicates file, the config) a
// FIFO, a device or a 10 GiB sparse file: each fails at once with one line
// naming the file and why.
func TestHostileInputFiles(t *testing.T) {
	dir := t.TempDir()
	fifo, sparse := filepath.Join(dir, "fifo"), filepath.Join(dir, "sparse")
	mkfifo(t, fifo)
	sparseFile(t, sparse)
	db := hostileHome(t, func(*testing.T, string) {})
	notDup := db + ".not-duplicates.toml"
	tests := []struct {
		name  string
		setup func()
		args  []string
		want  string
	}{
		{"import a FIFO", nil, []string{"import", fifo, "--db", db}, fifo + ": not a regular file"},
		{"import /dev/zero", nil, []string{"import", "/dev/zero", "--db", db}, "/dev/zero: not a regular file"},
		{"import JSON lines from /dev/zero", nil, []string{"import", "/dev/zero", "--from", "jsonl", "--db", db}, "/dev/zero: not a regular file"},
		{"import 10 GiB", nil, []string{"import", sparse, "--from", "jsonl", "--db", db}, sparse + ": too large: 10,737,418,240 bytes (a JSON lines import holds at most 1 GiB)"},
		{"bench --queries FIFO", nil, []string{"bench", "--queries", fifo, "--db", db}, fifo + ": not a regular file"},
		{"bench --queries /dev/zero", nil, []string{"bench", "--queries", "/dev/zero", "--db", db}, "/dev/zero: not a regular file"},
		{"bench --queries 10 GiB", nil, []string{"bench", "--queries", sparse, "--db", db}, sparse + ": too large: 10,737,418,240 bytes (a queries file holds at most 64 MiB)"},
		{"not-duplicates FIFO", func() { must(t, syscall.Mkfifo(notDup, 0o600)) }, []string{"lint", "--db", db}, notDup + ": not a regular file"},
		{"not-duplicates /dev/zero", func() { os.Remove(notDup); must(t, os.Symlink("/dev/zero", notDup)) }, []string{"lint", "--db", db}, notDup + ": not a regular file"},
		{"not-duplicates 10 GiB", func() { os.Remove(notDup); must(t, os.Symlink(sparse, notDup)) }, []string{"lint", "--db", db}, notDup + ": too large: 10,737,418,240 bytes (a not-duplicates file holds at most 1 MiB)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != nil {
				tt.setup()
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, errOut, code := runWithin(t, 20*time.Second, strings.NewReader(""), tt.args...)
			runtime.ReadMemStats(&after)
			if code != 1 || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 1 and one line with %q", code, errOut, tt.want)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
				t.Errorf("allocated %d MiB", grew>>20)
			}
		})
	}
	os.Remove(notDup)
}

// TestAddFromEndlessStdin bounds `add NAME -`: standard input is a stream
// the user chose, read to at most store.EntryReadMax.
func TestAddFromEndlessStdin(t *testing.T) {
	db := hostileHome(t, func(*testing.T, string) {})
	_, errOut, code := runWithin(t, 60*time.Second, io.LimitReader(zeros{}, store.EntryReadMax+1), "add", "big", "-", "--db", db)
	want := "standard input: too large: more than 64 MiB (an entry on standard input holds at most 64 MiB)"
	if code != 1 || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stderr %q; want %q", code, errOut, want)
	}
	_, errOut, code = runWithin(t, 60*time.Second, strings.NewReader("fits"), "add", "small", "-", "--db", db)
	if code != 0 {
		t.Fatalf("add from a small stdin: exit %d %s", code, errOut)
	}
}

// zeros reads as endless 'a's (valid UTF-8, unlike /dev/zero's bytes, so
// only the cap can stop it).
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// TestCheckCountsUnreadableSteps: check says how many steps it could not
// read (a FIFO, a link out of the folder), in both forms, rather than
// report fewer markers as if that were all.
func TestCheckCountsUnreadableSteps(t *testing.T) {
	db := hostileHome(t, mkfifo) // step-000001 and meta are FIFOs
	out, errOut, code := runWithin(t, 20*time.Second, strings.NewReader(""), "check", "--db", db)
	if code != 0 || !strings.Contains(out, "  1 step unreadable (not a regular file, too large, or a link out of the folder): skipped, so markers may be missing") {
		t.Errorf("check: exit %d, stderr %q, out:\n%s", code, errOut, out)
	}
	out, _, _ = runWithin(t, 20*time.Second, strings.NewReader(""), "check", "--json", "--db", db)
	if !strings.Contains(out, `"markers":1,"unreadable_steps":1,`) {
		t.Errorf("check --json: %s", out)
	}
}

// TestRmNamesFromEndlessStdin bounds `rm -`: a stream of names that never
// ends stops at the cap with one line naming it, and nothing is removed.
func TestRmNamesFromEndlessStdin(t *testing.T) {
	t.Parallel() // 64 MiB through rm -: beside the other long tests
	db := hostileHome(t, func(*testing.T, string) {})
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runWithin(t, 60*time.Second, io.LimitReader(&endlessNames{}, namesMax+1), "rm", "-", "--db", db)
	want := "standard input: too large: more than 64 MiB (a list of names on standard input holds at most 64 MiB)"
	if code != 1 || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q; want one line with %q", code, errOut, want)
	}
	if after, err := os.ReadFile(db); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the memory changed (%v): nothing may be removed", err)
	}
}

// endlessNames reads as endless lines: "deploy" (an entry of
// hostileHome's memory), then seven names of 63 bytes, over and over.
// Names of the length namesMax is sized for (a million of 64 bytes):
// "deploy" alone, 9.6 million lines to the cap, spent the test's two
// CPU-seconds appending short strings, and the cap is on bytes.
type endlessNames struct{ at int }

var endlessPeriod = "deploy\n" + strings.Repeat(strings.Repeat("a-name-of-sixty-three-bytes-", 3)[:63]+"\n", 7)

func (e *endlessNames) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], endlessPeriod[e.at:])
		n += k
		e.at = (e.at + k) % len(endlessPeriod)
	}
	return n, nil
}
