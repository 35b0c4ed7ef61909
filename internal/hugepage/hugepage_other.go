//go:build !linux

package hugepage

// Slice returns an empty slice with room for n elements (huge pages are
// asked for on Linux only).
func Slice[T any](n int) []T { return make([]T, 0, n) }
