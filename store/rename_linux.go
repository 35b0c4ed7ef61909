//go:build linux

package store

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange atomically swaps two paths; afterwards from holds what to held.
func exchange(from, to string) error {
	return unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_EXCHANGE)
}

// renameNoReplace renames from to to unless to exists (then fs.ErrExist).
func renameNoReplace(from, to string) error {
	return unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
}

// unsupported reports whether err means the kernel or file system cannot do
// the renameat2 flag asked for, so the caller falls back to rename.
func unsupported(err error) bool {
	return errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) ||
		errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOTSUP)
}
