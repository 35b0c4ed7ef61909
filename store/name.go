package store

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameBytes is the longest name Add and Rename accept: a dump writes
// NAME.md, and file systems take 255 bytes per file name, so a name keeps
// three bytes of them for ".md" (SPEC §2's "at most 255 bytes" read with
// its "safe as file names for dump").
const MaxNameBytes = 255 - len(".md")

// ValidName reports whether a name is safe as a dump file name and reads as
// what it is (SPEC §2): not empty, not "." or "..", not starting with '.'
// nor ending with '.' or a space, free of '/', '\', NUL, "..", control
// characters and Unicode format characters (category Cf: bidi overrides
// such as U+202E, zero-width characters) and line separators, and at most
// MaxNameBytes bytes. The error says why not and matches ErrInvalidName.
// Names already in a file are never checked; only names crmem creates (Add,
// Rename) are.
func ValidName(name string) error {
	if why := nameProblem(name); why != "" {
		return fmt.Errorf("%w %q: %s", ErrInvalidName, name, why)
	}
	return nil
}

func nameProblem(name string) string {
	switch {
	case name == "":
		return "empty"
	case len(name) > MaxNameBytes:
		return fmt.Sprintf("%d bytes long, at most %d fit a file name", len(name), MaxNameBytes)
	case name == "." || name == "..":
		return "not a file name"
	case !utf8.ValidString(name):
		return "not valid UTF-8"
	case strings.HasPrefix(name, "."):
		return "starts with '.'"
	case strings.HasSuffix(name, "."):
		return "ends with '.'"
	case strings.HasSuffix(name, " "):
		return "ends with a space"
	case strings.Contains(name, ".."):
		return `contains ".."`
	}
	for _, r := range name {
		switch {
		case r == '/' || r == '\\':
			return fmt.Sprintf("contains %q", r)
		case r == 0:
			return "contains NUL"
		case unicode.IsControl(r):
			return fmt.Sprintf("contains control character %U", r)
		case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp):
			return fmt.Sprintf("contains invisible format character %U", r)
		}
	}
	return ""
}
