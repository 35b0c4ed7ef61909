// Package crabdbtest writes crabdb records the way crabtalk's daemon appends
// them, for tests that follow a store while it grows. It is never a source
// of parity: the fixtures written by crabtalk's own code decide the format.
package crabdbtest

import (
	"encoding/binary"
	"os"
	"testing"
)

// Record encodes one record: op, column, u32 key length, key, u32 value
// length, value (little-endian, as SPEC §10 gives the layout).
func Record(op, col byte, key, value string) []byte {
	b := []byte{op, col}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(key)))
	b = append(b, key...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(value)))
	return append(b, value...)
}

// Append appends b to the file at path, as the daemon does; a failure
// fails the test.
func Append(t testing.TB, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}
