package store_test

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// helperEnv selects a child-process role when the test binary re-executes
// itself (the helper-process pattern).
const helperEnv = "CRMEM_STORE_HELPER"

// helperCmd returns a command running this test binary as a helper.
func helperCmd(t *testing.T, role, path string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+role, "CRMEM_HELPER_PATH="+path)
	for i, a := range args {
		cmd.Env = append(cmd.Env, fmt.Sprintf("CRMEM_HELPER_ARG%d=%s", i, a))
	}
	cmd.Stderr = os.Stderr
	return cmd
}

// TestHelperProcess is not a test: it is the child side of the crash and
// concurrency tests, and returns at once in a normal run.
func TestHelperProcess(t *testing.T) {
	role := os.Getenv(helperEnv)
	if role == "" {
		return
	}
	path := os.Getenv("CRMEM_HELPER_PATH")
	var err error
	switch role {
	case "save-loop":
		err = helperSaveLoop(path)
	case "open-rss":
		err = helperOpenRSS(path)
	case "add":
		n, _ := strconv.Atoi(os.Getenv("CRMEM_HELPER_ARG1"))
		err = helperAdd(path, os.Getenv("CRMEM_HELPER_ARG0"), n)
	default:
		err = stressRole(role)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helperAdd adds n entries named prefix-0.. one Apply at a time.
func helperAdd(path, prefix string, n int) error {
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
	if err != nil {
		return err
	}
	for i := range n {
		if _, err := db.Apply(store.Add{Name: fmt.Sprintf("%s-%d", prefix, i), Content: "c"}); err != nil {
			return err
		}
	}
	return nil
}

// helperSaveLoop rewrites every entry with the next generation number,
// forever (until the parent kills it).
func helperSaveLoop(path string) error {
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
	if err != nil {
		return err
	}
	fmt.Println("opened")
	for {
		gen, err := generationOf(db.Memory().Entries())
		if err != nil {
			return err
		}
		if _, err := db.Apply(store.Replace{Entries: generation(gen+1, crashEntries)}); err != nil {
			return err
		}
		fmt.Println("saved", gen+1)
	}
}

// helperOpenRSS opens the file (read, decode, index) and prints the
// process's peak resident set size in kB.
func helperOpenRSS(path string) error {
	db, err := store.Open(path)
	if err != nil {
		return err
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			fmt.Println(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), db.Memory().Len())
			return nil
		}
	}
	return fmt.Errorf("no VmHWM in /proc/self/status")
}
