//go:build unix

package store

import (
	"io/fs"
	"os"
	"syscall"
)

// ownerOf returns the owner and group a rewrite of the file must keep: the
// file's own when this process is root and they differ from root's, else
// -1, -1 (a normal user's new file is theirs, as the old one was).
func ownerOf(fi fs.FileInfo) (uid, gid int) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || os.Geteuid() != 0 {
		return -1, -1
	}
	if int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid() {
		return -1, -1
	}
	return int(st.Uid), int(st.Gid)
}
