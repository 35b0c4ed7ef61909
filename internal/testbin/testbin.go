// Package testbin builds crmem for the tests that run it as a user would,
// once for a whole `go test ./...` rather than once per test package.
//
// `go build -o` links the binary anew on every call, even with every
// package compiled: a link of crmem and a load of its packages, about 1.3
// CPU-seconds each on a 2-core machine, paid by every package whose tests
// run crmem and every time they run. `go run` keeps what it links in the
// build cache (Go 1.24 and later): Build asks `go run -exec echo` for that
// file, so the tests of ./cli and ./tui share one link per build of the
// module, and a run with nothing changed links nothing. A lock on the
// build cache's folder (where the system has one) keeps two test packages
// that start together from linking the same binary side by side.
//
// The file Build returns belongs to the build cache: a test must not change
// it. Nothing is left behind beside what the go command keeps (and trims)
// in its cache; where the go command does not cache the link (an older Go,
// GOCACHE=off), Build links into a folder of its own that the returned
// cleanup removes.
package testbin

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Build returns crmem built from the main package at pkg (as go build names
// it: "..", or an import path) with the given build flags, and a cleanup to
// call when the tests are done with it.
func Build(pkg string, flags ...string) (bin string, cleanup func(), err error) {
	gocache, err := goCmd("env", "GOCACHE")
	if err != nil {
		return "", nil, err
	}
	if gocache != "" && gocache != "off" {
		unlock, err := lockDir(gocache)
		if err != nil {
			return "", nil, fmt.Errorf("lock the build cache %s: %w", gocache, err)
		}
		defer unlock()
		// The first go run of a binary links it in a folder of its own,
		// removed when go run ends, and stores it in the cache; the second
		// finds it there.
		for range 2 {
			p, err := goCmd(append(append([]string{"run"}, flags...), "-exec", "echo", pkg)...)
			if err != nil {
				return "", nil, err
			}
			// No stat of it here: go test would key its cache of the
			// result on a file the go command may touch.
			if inside(gocache, p) {
				return p, func() {}, nil
			}
		}
	}
	dir, err := os.MkdirTemp("", "crmem-testbin-")
	if err != nil {
		return "", nil, err
	}
	bin = filepath.Join(dir, "crmem")
	if _, err := goCmd(append(append([]string{"build"}, flags...), "-o", bin, pkg)...); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// inside reports whether path lies under dir.
func inside(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsAbs(path) && rel != "." && !strings.HasPrefix(rel, "..")
}

// goCmd runs the go command that runs the tests (go test puts its bin
// folder first on PATH) and returns its standard output, trimmed.
func goCmd(args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return strings.TrimSpace(stdout.String()), nil
}
