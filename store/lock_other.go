//go:build !unix

package store

import "time"

// lockDir is a no-op where flock does not exist: the fingerprint check
// before each save still detects other writers.
func lockDir(dir string, timeout time.Duration, onWait func()) (func(), error) {
	return func() {}, nil
}

// LockHolder is 0 where flock does not exist: nobody holds crmem's lock.
func LockHolder(dir string) int { return 0 }
