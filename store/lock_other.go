//go:build !unix

package store

import "time"

// acquireLock is a no-op where flock does not exist: the fingerprint check
// before each save still detects other writers.
func acquireLock(path string, timeout time.Duration) (func(), error) {
	return func() {}, nil
}
