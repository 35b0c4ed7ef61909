//go:build !linux

package store

func mapFile(path string) ([]byte, error) { return ReadFile(path) }

func mappedFileAt(uintptr) (string, bool) { return "", false }
