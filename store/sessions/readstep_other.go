//go:build !unix

package sessions

import (
	"io/fs"
	"os"
)

// readStep reads a step file (buf is unused here).
func readStep(path string, _ []byte) ([]byte, error) {
	fi, err := os.Stat(path)
	if err == nil && fi.Size() > maxStepBytes {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errStepTooLarge}
	}
	return os.ReadFile(path)
}
