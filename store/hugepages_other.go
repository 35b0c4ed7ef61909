//go:build !linux

package store

// readBuffer returns an empty buffer with room for n bytes (huge pages are
// asked for on Linux only).
func readBuffer(n int) []byte { return make([]byte, 0, n) }
