//go:build !unix

package editor

import "os"

// lockDir does nothing here: without flock, no folder is known unused.
func lockDir(string) (*os.File, error) { return nil, nil }

// tryLockDir never succeeds here, so no folder is removed as stale.
func tryLockDir(string) (func(), bool) { return nil, false }
