//go:build !linux

package crabdb

import "os"

// takeWriteLease is Linux's write lease; elsewhere there is none, and
// Append re-checks instead.
func takeWriteLease(*os.File) bool { return false }

// releaseLease releases what takeWriteLease took: nothing here.
func releaseLease(*os.File) {}
