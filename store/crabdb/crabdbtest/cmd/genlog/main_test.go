package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store/crabdb"
)

// TestRun_WritesOutsideTheRepositoryOnly: --out is required, a path in the
// repository (the test runs in it) is refused before anything is created,
// an existing file is kept unless --force, and the file written reads as
// a store with the records asked for.
func TestRun_WritesOutsideTheRepositoryOnly(t *testing.T) {
	var out, errs bytes.Buffer
	small := []string{"--entries", "50", "--records", "200", "--checkpoint-every", "100", "--sessions", "3"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{small, "--out is required"},
		{append(small, "--out", "gen-test.crmem"), "inside the repository"},
		{append(small, "--out", filepath.Join(t.TempDir(), "s.crmem"), "--truth", "gen-test.jsonl"), "inside the repository"},
		{append(small, "--out", filepath.Join(t.TempDir(), "s.crmem"), "extra"), `unexpected argument "extra"`},
	} {
		if err := run(c.args, &out, &errs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
	for _, p := range []string{"gen-test.crmem", "gen-test.jsonl"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			os.Remove(p)
			t.Errorf("%s was created in the repository (%v)", p, err)
		}
	}

	dir := t.TempDir()
	path, truth := filepath.Join(dir, "s.crmem"), filepath.Join(dir, "ops.jsonl")
	args := append(small, "--out", path, "--truth", truth)
	out.Reset()
	if err := run(args, &out, &errs); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Out           string
		MemoryRecords int
		Bytes         int64
		Ops           int
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report %s: %v", out.Bytes(), err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := crabdb.Read(data); err != nil {
		t.Fatal(err)
	}
	lines, _ := os.ReadFile(truth)
	if rep.Out != path || rep.MemoryRecords != 200 || rep.Bytes != int64(len(data)) || bytes.Count(lines, []byte("\n")) != rep.Ops {
		t.Errorf("report %+v for a %d-byte file and %d truth lines", rep, len(data), bytes.Count(lines, []byte("\n")))
	}
	if err := run(args, &out, &errs); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second run over the file: %v", err)
	}
	if err := run(append(args, "--force"), &out, &errs); err != nil {
		t.Errorf("--force: %v", err)
	}
	again, _ := os.ReadFile(path)
	if !bytes.Equal(again, data) {
		t.Error("the same flags wrote another file")
	}
}
