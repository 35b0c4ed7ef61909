//go:build !unix

package owner

import "errors"

func mkfifoAt(string) error { return errors.New("no FIFOs") }
