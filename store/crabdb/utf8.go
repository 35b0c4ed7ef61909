package crabdb

import "unicode/utf8"

// isUTF8 reports whether b is valid UTF-8.
func isUTF8(b []byte) bool { return utf8.Valid(b) }
