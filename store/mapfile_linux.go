package store

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

func mapFile(path string) ([]byte, error) {
	f, fi, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := fi.Size()
	if size >= mapMin && int64(int(size)) == size {
		// Populated: the page tables are filled in one call rather than
		// by a fault per few pages as the decoder walks the file. A file
		// system that cannot map files is read instead.
		data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_POPULATE)
		if err == nil {
			return data, nil
		}
	}
	data, err := readAll(f, size)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, nil
}

func mappedFileAt(addr uintptr) (string, bool) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if path, ok := mapsLineAt(sc.Text(), addr); ok {
			return path, true
		}
	}
	return "", false
}

// mapsLineAt reads one line of /proc/self/maps ("lo-hi perms offset dev
// inode path") and returns its path if the line maps a file at addr.
func mapsLineAt(line string, addr uintptr) (string, bool) {
	var rng, perms, offset, dev, inode string
	if n, _ := fmt.Sscan(line, &rng, &perms, &offset, &dev, &inode); n < 5 || inode == "0" {
		return "", false
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return "", false
	}
	lo, err1 := strconv.ParseUint(a, 16, 64)
	hi, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil || uint64(addr) < lo || uint64(addr) >= hi {
		return "", false
	}
	i := strings.Index(line, "/")
	if i < 0 {
		return "", false
	}
	return strings.TrimSuffix(line[i:], " (deleted)"), true
}
