package parser

import (
	"regexp"
	"sync"
)

// This package is goldmark v1.8.7's parser package (MIT, LICENSE in the
// parent folder), with one change: its regular expressions and its table
// of HTML block tags are built on first use rather than in package init,
// which every crmem command paid at start, rendering or not.

// lazyRegexp returns a function that compiles expr the first time it is
// called and returns the same *regexp.Regexp every time.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
