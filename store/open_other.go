//go:build !unix

package store

import "syscall"

// syscallENOTDIR is returned by lstat when a path element is not a folder.
const syscallENOTDIR = syscall.ENOTDIR
