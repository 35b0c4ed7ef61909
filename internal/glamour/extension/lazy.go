package extension

import (
	"regexp"
	"sync"
)

// This package is goldmark v1.8.7's extension package (MIT, LICENSE in
// this folder), the parts glamour uses (GFM: tables, strikethrough,
// linkify, task lists; definition lists), with one change: its regular
// expressions are compiled on first use rather than in package init.
// Upstream compiles them when the program starts, and linkify's URL
// patterns (a {1,256} repetition) made that the costliest package init of
// every crmem command, rendering or not (issue "start in milliseconds").
// TestUpstream in the parent package renders the same documents through
// upstream glamour and this copy and compares them.

// lazyRegexp returns a function that compiles expr the first time it is
// called and returns the same *regexp.Regexp every time.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
