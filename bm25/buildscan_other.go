//go:build !amd64 || purego

package bm25

// blockBounds is blockBoundsGo.
func blockBounds(buf []uint32, n int, s string, i, blocks int, carry uint64) (int, int, uint64) {
	return blockBoundsGo(buf, n, s, i, blocks, carry)
}

// tailBounds is tailBoundsGo.
func tailBounds(buf []uint32, n int, s string, i int, carry uint64) (int, bool) {
	return tailBoundsGo(buf, n, s, i, carry)
}

// lookKnown is lookKnownGo.
func lookKnown(at []uint32, s string, cs *shortCache, cp *pairCache, tf, buf []uint32) (took, added int) {
	return lookKnownGo(at, s, cs, cp, tf, buf)
}

// hasBMI1 is false: blockBounds has no assembly here (the tests set it
// as they do on amd64, where blockBoundsAsm takes either way).
var hasBMI1 = false
