package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/storetest"
)

// cliHelperEnv selects a helper role when the test binary re-executes
// itself; TestMain checks it before building anything.
const cliHelperEnv = "CRMEM_CLI_HELPER"

// cliHelper runs a helper role: "crabtalk PATH UNTIL_NS" is the lock-free
// writer of storetest.CrabtalkWriter, reporting on stdout.
func cliHelper(role string) int {
	path := os.Getenv("CRMEM_CLI_HELPER_PATH")
	ns, _ := strconv.ParseInt(os.Getenv("CRMEM_CLI_HELPER_UNTIL"), 10, 64)
	if role != "crabtalk" {
		fmt.Fprintf(os.Stderr, "unknown helper role %q\n", role)
		return 2
	}
	if err := storetest.CrabtalkWriter(path, time.Unix(0, ns), "cli-", os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "crabtalk helper:", err)
		return 1
	}
	return 0
}

// TestStress_CrmemAddBesideCrabtalk is issue 9's reproduction with the real
// binary: waves of 40 `crmem add` processes beside a crabtalk-style writer
// (no lock; read, add, write <name>.tmp, fsync, rename, every ~20 ms) for
// CRMEM_STRESS_SECONDS. None of the writer's entries may be lost, none of
// crmem's beyond those its own read-modify-write overwrote (counted apart),
// and every exit status must tell the truth. The store package's
// TestStress_CrabtalkWriter is the short version run by every `go test`.
func TestStress_CrmemAddBesideCrabtalk(t *testing.T) {
	secs := os.Getenv("CRMEM_STRESS_SECONDS")
	if secs == "" {
		t.Skip("long stress run: set CRMEM_STRESS_SECONDS (store's TestStress_CrabtalkWriter is the short one)")
	}
	seconds, err := strconv.ParseFloat(secs, 64)
	if err != nil {
		t.Fatalf("CRMEM_STRESS_SECONDS=%q: %v", secs, err)
	}
	seed := make([]store.Entry, 3000)
	for i := range seed {
		seed[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("seed-%d", i), Content: strings.Repeat("words of a seeded entry ", 20), Aliases: []string{}}
	}
	db := filepath.Join(t.TempDir(), "memory.db")
	must(t, os.WriteFile(db, store.Encode(uint64(len(seed)+1), seed), 0o600))
	until := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	crab := exec.Command(os.Args[0])
	crab.Env = append(os.Environ(), cliHelperEnv+"=crabtalk", "CRMEM_CLI_HELPER_PATH="+db,
		"CRMEM_CLI_HELPER_UNTIL="+strconv.FormatInt(until.UnixNano(), 10))
	var crabOut bytes.Buffer
	crab.Stdout, crab.Stderr = &crabOut, os.Stderr
	must(t, crab.Start())
	codes := map[string]int{}
	for wave := 0; wave == 0 || time.Now().Before(until); wave++ {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range 40 {
			name := fmt.Sprintf("cli-%d-%d", wave, i)
			wg.Go(func() {
				code := addExitCode(db, name)
				mu.Lock()
				codes[name] = code
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	must(t, crab.Wait())
	f, err := store.Decode(mustRead(t, db))
	if err != nil {
		t.Fatal(err)
	}
	final := map[string]bool{}
	for _, e := range f.Entries {
		final[e.Name] = true
	}
	added, overwrote := map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(&crabOut)
	for sc.Scan() {
		verb, name, _ := strings.Cut(sc.Text(), " ")
		switch verb {
		case "added":
			added[name] = true
		case "overwrote":
			overwrote[name] = true
		}
	}
	var crabLost, cliLost, overwritten, failed, lies int
	for n := range added {
		if !final[n] {
			crabLost++
		}
	}
	for n, code := range codes {
		switch {
		case code != 0:
			failed++
			if final[n] || overwrote[n] {
				lies++
			}
		case final[n]:
		case overwrote[n]:
			overwritten++
		default:
			cliLost++
		}
	}
	t.Logf("%.0f s, %d crmem add runs: other writer %d entries, %d lost; crmem %d exit 0 (%d lost, %d overwritten by the other writer), %d exit non-zero (%d of them landed)",
		seconds, len(codes), len(added), crabLost, len(codes)-failed, cliLost, overwritten, failed, lies)
	if crabLost+cliLost+lies > 0 {
		t.Errorf("other writer's entries lost %d, crmem's lost %d, lying exit statuses %d; want 0 each", crabLost, cliLost, lies)
	}
}

// addExitCode runs `crmem add NAME x` and returns its exit status (-1 when
// it could not run); safe to call from any goroutine.
func addExitCode(db, name string) int {
	cmd := exec.Command(crmemBin, "--db", db, "add", name, "x")
	cmd.Env = testEnv()
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
