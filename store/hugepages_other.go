//go:build !linux

package store

// adviseHugePages does nothing here: huge pages are advised on Linux only.
func adviseHugePages([]byte) {}
