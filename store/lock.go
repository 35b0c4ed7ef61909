package store

import "strconv"

// LockHolderName is the holder of crmem's lock of a folder (LockHolder) as
// a message names it: "another crmem (pid 4242)", or "another crmem" when
// pid is 0 (not known).
func LockHolderName(pid int) string {
	if pid <= 0 {
		return "another crmem"
	}
	return "another crmem (pid " + strconv.Itoa(pid) + ")"
}
