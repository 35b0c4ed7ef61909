//go:build unix

package owner

import "golang.org/x/sys/unix"

func mkfifoAt(path string) error { return unix.Mkfifo(path, 0o644) }
