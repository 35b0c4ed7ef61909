// Command genlog writes a big crabtalk store with a long log (package
// genlog), the file issue 32's history target is measured on:
//
//	go run ./store/crabdb/crabdbtest/cmd/genlog --entries 100000 --records 1000000 --seed 7 --out /tmp/x/big.crmem [--index] [--checkpoint-every 200000] [--sessions 2000] [--truth ops.jsonl]
//
// --out is required, must not exist (--force replaces it) and must not lie
// inside a Go module named github.com/crmem/crmem: the file never lands in
// the repository. It prints what it wrote as JSON (genlog.Stats).
//
// Figures on a busy 2-core machine (user CPU; wall time was 1.5-3× that):
// --entries 100000 --records 1000000 writes 507 MB in 8 s (175 MB RSS);
// with --checkpoint-every 200000 --sessions 2000, 2.16 GB in 40 s (1.7 GB
// RSS). --index writes about 7 KB per upsert (the entry's postings dropped
// and put again): 714 MB for 100,000 records over 10,000 names (39 s),
// so about 7 GB at a million.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crmem/crmem/store/crabdb/crabdbtest/genlog"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "genlog:", err)
		os.Exit(1)
	}
}

// run parses args, writes the store and prints what it wrote.
func run(args []string, stdout, stderr io.Writer) error {
	opt, out, truth, force, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if err := outsideRepo(out, truth); err != nil {
		return err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(out, flags, 0o600)
	if err != nil {
		return fmt.Errorf("creating the store: %w", err)
	}
	defer f.Close()
	if truth != "" {
		tf, err := os.OpenFile(truth, flags, 0o600)
		if err != nil {
			return fmt.Errorf("creating the truth: %w", err)
		}
		defer tf.Close()
		opt.Truth = tf
	}
	start := time.Now()
	st, err := genlog.Generate(f, opt)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing the store: %w", err)
	}
	if tf, ok := opt.Truth.(*os.File); ok {
		if err := tf.Close(); err != nil {
			return fmt.Errorf("closing the truth: %w", err)
		}
	}
	return report(stdout, out, st, time.Since(start))
}

// parse reads the command line: the generator's options, the store and
// truth files to write, and whether to replace them.
func parse(args []string, stderr io.Writer) (opt genlog.Options, out, truth string, force bool, err error) {
	fs := flag.NewFlagSet("genlog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&opt.Entries, "entries", 100_000, "distinct entry names")
	fs.IntVar(&opt.MemoryRecords, "records", 1_000_000, "column-2 records (puts and deletes of entries) in the log")
	fs.Uint64Var(&opt.Seed, "seed", 7, "the seed: the same flags give the same file")
	fs.BoolVar(&opt.Index, "index", false, "write the memory index (column 6) as crabtalk does; without it only the column-2 records")
	fs.IntVar(&opt.CheckpointEvery, "checkpoint-every", 0, "append a snapshot after every N column-2 records (0: none)")
	fs.IntVar(&opt.Sessions, "sessions", 0, "sessions whose remember/forget calls explain about 70 % of the ops (0: none)")
	fs.StringVar(&out, "out", "", "the store to write (required; outside the repository)")
	fs.StringVar(&truth, "truth", "", "also write the ops as JSON lines to this file")
	fs.BoolVar(&force, "force", false, "replace --out and --truth if they exist")
	if err := fs.Parse(args); err != nil {
		return opt, "", "", false, err
	}
	if fs.NArg() > 0 {
		return opt, "", "", false, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if out == "" {
		return opt, "", "", false, errors.New("--out is required")
	}
	return opt, out, truth, force, nil
}

// outsideRepo refuses a path to write ("": none) that lies inside a
// repository.
func outsideRepo(paths ...string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		if root, err := insideRepo(p); err != nil {
			return err
		} else if root != "" {
			return fmt.Errorf("%s lies inside the repository at %s: write it elsewhere (e.g. under /tmp)", p, root)
		}
	}
	return nil
}

// report prints the stats as one JSON object.
func report(w io.Writer, out string, st genlog.Stats, took time.Duration) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Out     string  `json:"out"`
		Seconds float64 `json:"seconds"`
		genlog.Stats
	}{out, took.Seconds(), st}); err != nil {
		return err
	}
	return bw.Flush()
}

// insideRepo returns the root of the crmem module p would lie in, or "".
func insideRepo(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	// The path as given first, then with its links resolved: resolving
	// stats every folder above it, the repository's own included, which
	// made go test's cache of this package depend on the repository
	// folder's modification time.
	if root := moduleAbove(abs); root != "" {
		return root, nil
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return moduleAbove(filepath.Join(r, filepath.Base(abs))), nil
	}
	return "", nil
}

// moduleAbove is the nearest folder above the file at abs whose go.mod
// declares crmem's module, or "".
func moduleAbove(abs string) string {
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && isCrmem(mod) {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// isCrmem reports whether a go.mod declares crmem's module.
func isCrmem(mod []byte) bool {
	for _, l := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "module" && f[1] == "github.com/crmem/crmem" {
			return true
		}
	}
	return false
}
