package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds symlink resolution, as the kernel does.
const maxLinks = 40

// resolveTarget returns the file a save must replace: path with every
// symlink resolved as the kernel resolves it, so a link stays in place and
// its target is written. A ".." in a link's target climbs from the folder
// the link really lives in, even when that folder was reached through
// another link: the folder part is resolved first (filepath.EvalSymlinks
// walks it component by component, taking ".." from the resolved prefix),
// and only then is the link's own text joined to it. A missing final
// target is returned as is (the save creates it); missing folders are
// resolved as far as they exist.
func resolveTarget(path string) (string, error) {
	for range maxLinks {
		dir, base := splitRaw(path)
		real, err := realDir(dir)
		if err != nil {
			return "", err
		}
		p := filepath.Join(real, base)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscallENOTDIR) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			// Not filepath.Join: cleaning "sub/../x" lexically would be
			// wrong when sub is itself a link. The next round resolves it.
			link = real + string(filepath.Separator) + link
		}
		path = link
	}
	return "", &PathError{path, errors.New("too many levels of symbolic links")}
}

// realDir resolves every symlink in dir; the part of it that does not exist
// yet is appended to the resolved part that does.
func realDir(dir string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return real, err
	}
	parent, base := splitRaw(dir)
	if parent == dir || base == "" {
		return dir, nil
	}
	rp, err := realDir(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, base), nil
}

// splitRaw splits path into its folder and last element without cleaning
// it (filepath.Dir would resolve "link/.." lexically, not as the kernel
// does). Trailing separators are dropped first.
func splitRaw(path string) (dir, base string) {
	sep := string(filepath.Separator)
	trimmed := strings.TrimRight(path, sep)
	if trimmed == "" {
		return sep, ""
	}
	i := strings.LastIndex(trimmed, sep)
	switch {
	case i < 0:
		return ".", trimmed
	case i == 0:
		return sep, trimmed[1:]
	}
	return trimmed[:i], trimmed[i+1:]
}

// missingDirs returns the folders that must be created for dir to exist,
// outermost first (none when dir exists).
func missingDirs(dir string) []string {
	var out []string
	for {
		if _, err := os.Lstat(dir); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// makeDirs creates the folders missingDirs listed (0700: memory is
// private). It returns a func that removes them again, innermost first, for
// a save that fails: a failed write creates no folder.
func makeDirs(dirs []string) (undo func(), err error) {
	undo = func() {
		for i := len(dirs) - 1; i >= 0; i-- {
			os.Remove(dirs[i]) // only empty folders go; nothing else is touched
		}
	}
	for _, d := range dirs {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			undo()
			return nil, fmt.Errorf("create folder %s: %w", d, err)
		}
	}
	return undo, nil
}
