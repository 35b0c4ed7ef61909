package genlog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// GenerateFile writes opt's store into a temporary folder of tb and
// returns its path, its bytes, the stats and the truth, failing tb on any
// error: the one way a test gets a generated store.
func GenerateFile(tb testing.TB, opt Options) (string, []byte, Stats, []TruthOp) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "store.crmem")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	var truth bytes.Buffer
	opt.Truth = &truth
	st, err := Generate(f, opt)
	if err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	ops, err := ReadTruth(&truth)
	if err != nil {
		tb.Fatal(err)
	}
	return path, data, st, ops
}
