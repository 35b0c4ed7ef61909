// Package htmltoken is the HTML tokenizer of golang.org/x/net/html v0.62.0
// (BSD licence, LICENSE in this folder, copyright the Go Authors): its
// token.go, escape.go and entity.go as upstream wrote them, without the
// parser, the node tree and the renderer, which crmem does not use.
// crmem's stripHTML (internal/glamour/ansi) tokenizes with it exactly as
// bluemonday does with upstream's.
//
// Changes from upstream, besides the package name (those in the copied
// files are marked "crmem:"): the entity tables (entity, entity2: ~2,250
// entries, ~113 KB of heap) are built on first use rather than in package
// init, which every crmem command paid for at start whether or not it met
// any HTML (issue "start in milliseconds"); escape.go's writer interface
// comes from upstream's render.go; UnescapeString, which the tokenizer
// does not use, is left out. golang.org/x/net/html/atom is still imported:
// its tables are static data, with no package init.
//
// tokenizer_test.go compares this tokenizer's tokens with upstream's on a
// table of inputs and in a fuzz target.
package htmltoken
