// Package hugepage allocates the large buffers a fresh crmem process fills
// at once (the memory file's bytes, its decoded entries) so that the kernel
// can back them with transparent huge pages.
//
// Every 4 KiB page a process touches for the first time costs a page fault.
// On the virtual machines crmem was measured on a fault costs about 20 µs,
// so reading a 1.8 MB memory into a plain buffer took 10 ms, into huge
// pages 1.5 ms; at 100,000 entries the entries alone were ~2,000 faults.
// Where transparent huge pages are off, or on systems other than Linux,
// the allocations are plain ones.
package hugepage

// Min is the smallest allocation, in bytes, that is laid out for huge
// pages. One huge page costs about as much as a dozen small faults, so
// below 256 KiB it is not worth it.
const Min = 256 << 10

// Size is the size of an x86-64 or arm64 transparent huge page.
const Size = 2 << 20

// Bytes returns an empty byte slice with room for n bytes.
func Bytes(n int) []byte { return Slice[byte](n) }
