//go:build !linux

package store

import "errors"

var errNoRenameat2 = errors.New("renameat2 not available")

// exchange is unavailable outside Linux; callers fall back to rename.
func exchange(from, to string) error { return errNoRenameat2 }

// renameNoReplace is unavailable outside Linux; callers fall back to rename.
func renameNoReplace(from, to string) error { return errNoRenameat2 }

func unsupported(err error) bool { return errors.Is(err, errNoRenameat2) }
