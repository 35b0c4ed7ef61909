// Command crmem browses, searches and edits an AI agent's CRMEM v1 memory
// file. Run it without a subcommand for the terminal UI.
package main

import (
	"os"

	"github.com/crmem/crmem/cli"
)

// version is the release version stamped at link time by
//
//	go build -ldflags "-X main.version=v1.2.3"
//
// as the release build (.goreleaser.yaml) does; empty in any other build,
// which then reports the module version from its build information. It is
// written only by the linker, never at run time.
var version string

func main() {
	os.Exit(cli.Run(version, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
