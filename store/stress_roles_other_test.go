//go:build !linux

package store_test

import "fmt"

// stressRole: the stress test runs on Linux only (it uses renameat2).
func stressRole(role string) error { return fmt.Errorf("unknown helper role %q", role) }
