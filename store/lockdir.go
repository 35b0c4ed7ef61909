package store

import "time"

// LockDir takes crmem's lock of the folder dir, the one every write of a
// memory file in it holds (waiting up to timeout; 0: as long as it takes),
// for another package that must change a file there as a writer would:
// store/crabdb's repair of its own unfinished append. The returned func
// releases it.
func LockDir(dir string, timeout time.Duration) (unlock func(), err error) {
	return lockDir(dir, timeout, nil)
}
