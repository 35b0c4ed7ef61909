package store

// mapMin is the file size from which MapFile maps a file: below it,
// reading costs less than setting up a mapping.
const mapMin = 1 << 20

// MapFile returns the bytes of the memory file at path, for a process that
// reads it once and exits (a one-shot command). On Linux a file of mapMin
// bytes or more is mapped read-only: its pages are the page cache's own,
// so nothing is copied, and no fresh memory is zeroed for it (at 100k
// entries, 61 MB, a one-shot search's system time went from 22 to 7 ms).
// A smaller file, or any file elsewhere, is read as ReadFile reads it. As
// with ReadFile, only a regular file is read, and a missing one fails with
// an error matching fs.ErrNotExist.
//
// The mapping is never undone: what is decoded from it aliases it for the
// rest of the process. A file replaced by rename, as crabtalk and crmem
// write it, leaves the mapping as it was. A file cut short in place by
// another program while it is mapped makes a read past its new end fault:
// goroutines that read the bytes must run with debug.SetPanicOnFault
// (package workgroup's workers do), and MappedFileAt names the file for
// the error.
func MapFile(path string) ([]byte, error) {
	return mapFile(path)
}

// MappedFileAt returns the path of the file mapped at addr, if there is
// one that the system can name (Linux: /proc/self/maps). It tells a fault
// in a file MapFile mapped from any other.
func MappedFileAt(addr uintptr) (string, bool) {
	return mappedFileAt(addr)
}
