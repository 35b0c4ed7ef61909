//go:build !amd64 || purego

package store

import "unicode/utf8"

// validUTF8 is utf8.ValidString.
func validUTF8(s string) bool { return utf8.ValidString(s) }

// asciiPrefix is asciiPrefixGo.
func asciiPrefix(s string) int { return asciiPrefixGo(s) }
