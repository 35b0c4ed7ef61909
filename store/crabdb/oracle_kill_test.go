//go:build unix

package crabdb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOracle_KillAtEverySyscallThenCrabtalk runs `crmem add` on a copy of
// the fixture store under strace, which delivers SIGKILL, SIGINT, SIGTERM,
// SIGHUP, SIGQUIT or SIGPIPE on entering the Nth pwrite64, fsync,
// ftruncate, write, unlinkat, flock or openat, for every N the run makes;
// then crabtalk 72fbe605's own code remembers an entry in the
// store crmem left (the oracle's `ops`: CrabDb::open, then its append at
// the position crabdb chooses), and crabtalk's own reader (`verify`)
// must open it cleanly, its memory index match its entries, and it hold
// crabtalk's entry and crmem's either whole or not at all; SIGINT,
// SIGTERM and SIGHUP, once crmem has begun writing, must not stop the
// append at all. Then a crmem start (`crmem ls`)
// repairs what is left, and crabtalk's reader checks the store again. The
// kill matrix is logged (go test -v).
//
// It needs crabtalk's code: CRMEM_ORACLE is the path of crabdb-fx-writer
// (see the oracle's README); it skips without it, and without strace. Its
// CI-runnable counterparts are TestAppend_KilledAtEachStepThenCrabtalk,
// TestCrash_KillDuringAppend and TestAppend_SignalWaitsForTheAppend.
func TestOracle_KillAtEverySyscallThenCrabtalk(t *testing.T) {
	oracle := os.Getenv("CRMEM_ORACLE")
	if oracle == "" {
		t.Skip("CRMEM_ORACLE (crabtalk's crabdb-fx-writer) is not set")
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("no strace")
	}
	work := t.TempDir()
	crmem := filepath.Join(work, "crmem")
	if out, err := exec.Command("go", "build", "-o", crmem, "github.com/crmem/crmem").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	queries, err := filepath.Abs(filepath.Join(writesDir, "queries.jsonl"))
	must(t, err)
	ops := filepath.Join(work, "ops.jsonl")
	must(t, os.WriteFile(ops, []byte(`{"op":"remember","name":"crab-after","content":"the daemon remembered this after crmem was stopped","aliases":[],"now":"2026-03-03T00:00:00Z"}`+"\n"), 0o600))
	content := "crmem's entry, " + strings.Repeat("long enough to span pages of the file ", 200)

	var matrix []string
	run := 0
	// strace counts each thread's calls apart (when=N is a thread's Nth
	// call), and Go runs them on several threads: every N up to more than
	// the whole run makes in all (3 pwrite64, 6 fsync, 1 ftruncate, the
	// append note's create, write and unlink, 4 flock, 23 openat: its
	// reads of the configuration and of the store before the append too).
	for _, call := range []struct {
		name string
		max  int
	}{{"pwrite64", 4}, {"fsync", 7}, {"ftruncate", 2}, {"write", 3}, {"unlinkat", 2}, {"flock", 5}, {"openat", 24}} {
		// INT, TERM and HUP are held while an append runs; KILL, QUIT
		// (Go's stack dump, exit 2) and PIPE end or leave crmem as a
		// crash would.
		for _, sig := range []string{"KILL", "INT", "TERM", "HUP", "QUIT", "PIPE"} {
			held := sig == "INT" || sig == "TERM" || sig == "HUP"
			for n := 1; n <= call.max; n++ {
				run++
				dir := filepath.Join(work, fmt.Sprint(run))
				home := filepath.Join(dir, "home")
				must(t, os.MkdirAll(home, 0o700))
				path := filepath.Join(home, "store.crmem")
				before, err := os.ReadFile(filepath.Join(writesDir, "before.crmem"))
				must(t, err)
				must(t, os.WriteFile(path, before, 0o600))
				cmd := exec.Command(strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace="+call.name,
					"-e", fmt.Sprintf("inject=%s:signal=%s:when=%d", call.name, sig, n),
					crmem, "--db", path, "add", "kill-test", content)
				// A thread may not reach its Nth call in one run and in
				// another: up to three tries.
				var out []byte
				how := ""
				for try := 0; try < 3 && (how == "" || how == "exit 0"); try++ {
					must(t, os.WriteFile(path, before, 0o600))
					cmd = exec.Command(cmd.Path, cmd.Args[1:]...)
					cmd.Env = append(os.Environ(), "CRABTALK_HOME="+home, "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
					out, err = cmd.CombinedOutput()
					how = "exit 0"
					var ee *exec.ExitError
					if errors.As(err, &ee) {
						if ws := ee.Sys().(syscall.WaitStatus); ws.Signaled() {
							how = "killed by " + unix.SignalName(ws.Signal())
						} else {
							how = fmt.Sprintf("exit %d", ws.ExitStatus())
						}
					} else if err != nil {
						t.Fatal(err)
					}
				}
				if how == "exit 0" {
					matrix = append(matrix, fmt.Sprintf("| %s #%d | %s | %s (in 3 runs no thread made a %s #%d) | | | |", call.name, n, sig, how, call.name, n))
					continue
				}
				// A held signal (INT, TERM, HUP) ends crmem once the append is
				// over and its report printed, with status 128+signal
				// (store.Options.OnHeldSignal); any other exit is a failure.
				if held && strings.HasPrefix(how, "exit") && how != fmt.Sprintf("exit %d", 128+int(unix.SignalNum("SIG"+sig))) {
					t.Fatalf("%s #%d %s: crmem %s: %s", call.name, n, sig, how, out)
				}
				_, noteErr := os.Stat(IntentPath(path))
				left := "old"
				if got, _ := os.ReadFile(path); len(got) > len(before) {
					left = fmt.Sprintf("+%d bytes", len(got)-len(before))
				}
				if noteErr == nil {
					left += ", note"
				}
				// crabtalk's daemon writes next.
				outdir := filepath.Join(dir, "crabtalk")
				said, err := exec.Command(oracle, "ops", path, ops, queries, outdir).CombinedOutput()
				if err != nil {
					t.Errorf("%s #%d %s (%s; crmem %s): crabtalk's ops failed: %v\n%s", call.name, n, sig, left, how, err, said)
					matrix = append(matrix, fmt.Sprintf("| %s #%d | %s | %s | %s | crabtalk could not write: %s |", call.name, n, sig, how, left, firstLine(said)))
					continue
				}
				after := filepath.Join(outdir, "after.crmem")
				v1 := oracleVerify(t, oracle, after, queries)
				// A held signal that came once crmem had written (bytes
				// appended, or its note) must not have stopped the append;
				// one that came before leaves the store as it was.
				mustBeNew := held && left != "old"
				state := v1.check(t, fmt.Sprintf("%s #%d %s", call.name, n, sig), mustBeNew)
				// Then a crmem start, which repairs what is left.
				if noteErr == nil {
					note, _ := os.ReadFile(IntentPath(path))
					must(t, os.WriteFile(IntentPath(after), note, 0o600))
				}
				ls := exec.Command(crmem, "--db", after, "ls")
				ls.Env = cmd.Env
				lsOut, err := ls.CombinedOutput()
				if err != nil {
					t.Errorf("%s #%d %s: crmem ls after crabtalk: %v\n%s", call.name, n, sig, err, lsOut)
				}
				repaired := "-"
				for _, l := range strings.Split(string(lsOut), "\n") {
					if i := strings.Index(l, "crmem's unfinished append"); i >= 0 {
						repaired = l[i:]
					}
				}
				v2 := oracleVerify(t, oracle, after, queries)
				if s2 := v2.check(t, fmt.Sprintf("%s #%d %s after crmem ls", call.name, n, sig), mustBeNew); s2 != state {
					t.Errorf("%s #%d %s: crmem's repair changed the state from %s to %s", call.name, n, sig, state, s2)
				}
				matrix = append(matrix, fmt.Sprintf("| %s #%d | %s | %s | %s | %s; crmem's entry %s | %s |", call.name, n, sig, how, left, v1.summary(), state, repaired))
			}
		}
	}
	t.Logf("kill matrix (%d runs):\n| syscall | signal | crmem | left | crabtalk's reader after crabtalk's write | crmem's start |\n|---|---|---|---|---|---|\n%s", run, strings.Join(matrix, "\n"))
}

// firstLine is the first line of b.
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}

// verified is what crabtalk's reader (the oracle's verify) said of a store.
type verified struct {
	Problems      []string `json:"problems"`
	ReadsCleanly  bool     `json:"reads_cleanly"`
	IndexMatches  bool     `json:"mem_index_matches_entries"`
	Entries       int      `json:"entries"`
	keys          map[string]bool
	crmemEntryLen int
}

func oracleVerify(t *testing.T, oracle, path, queries string) verified {
	t.Helper()
	out, err := exec.Command(oracle, "verify", path, queries).Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("verify %s: %v", path, err)
	}
	var v verified
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	v.keys = map[string]bool{}
	for i := 0; sc.Scan(); i++ {
		if i == 0 {
			must(t, json.Unmarshal(sc.Bytes(), &v))
			continue
		}
		var kv struct {
			Col   int    `json:"col"`
			Key   string `json:"key"`
			Value string `json:"value"`
		}
		if json.Unmarshal(sc.Bytes(), &kv) == nil && kv.Col == ColMemory {
			v.keys[kv.Key] = true
			if kv.Key == MemoryKey("kill-test") {
				v.crmemEntryLen = len(kv.Value)
			}
		}
	}
	return v
}

// check fails the test unless crabtalk's reader read the store cleanly,
// with its index matching its entries and crabtalk's entry; it returns
// crmem's entry's state ("old": absent, "new": present). mustBeNew: the
// signal must not have stopped the append.
func (v verified) check(t *testing.T, what string, mustBeNew bool) string {
	t.Helper()
	if !v.ReadsCleanly || len(v.Problems) > 0 || !v.IndexMatches {
		t.Errorf("%s: crabtalk's reader: clean %v, index matches %v, problems %q", what, v.ReadsCleanly, v.IndexMatches, v.Problems)
	}
	if !v.keys[MemoryKey("crab-after")] {
		t.Errorf("%s: crabtalk's entry is not in the store", what)
	}
	state := "old"
	if v.keys[MemoryKey("kill-test")] {
		state = "new"
	}
	if mustBeNew && state != "new" {
		t.Errorf("%s: the signal stopped crmem's append", what)
	}
	return state
}

// summary is verify's verdict in a few words.
func (v verified) summary() string {
	if v.ReadsCleanly && len(v.Problems) == 0 && v.IndexMatches {
		return fmt.Sprintf("opens cleanly, %d entries, index matches", v.Entries)
	}
	return fmt.Sprintf("problems %q", v.Problems)
}
