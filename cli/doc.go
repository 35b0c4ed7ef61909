// Package cli is crmem's command line: the root command (which opens the
// terminal UI), every subcommand, and their output, errors and signals.
// main.go only hands it the process's arguments, streams and environment.
package cli
