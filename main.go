// Command crmem browses, searches and edits an AI agent's CRMEM v1 memory
// file. Run it without a subcommand for the terminal UI.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
