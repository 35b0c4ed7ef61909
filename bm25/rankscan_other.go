//go:build !amd64 || purego

package bm25

// alnumFull sets dst[k] to the alphanumerics' mask (block64's) of the k-th
// 64-byte block of s, for as many blocks as dst has (s must hold them), and
// returns how many it set before the first block that holds a byte of 0x80
// or more, which it leaves unset.
func alnumFull(dst []uint64, s string) int { return alnumFullGo(dst, s) }
