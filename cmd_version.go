package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionCommand prints the build's version.
func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print crmem's version and the Go version it was built with",
		Example: `  crmem version`,
		Args:    args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(a.stdout, versionString())
			return err
		},
	}
}

// versionString is "crmem VERSION (GO)", VERSION being the module version
// (go install …@vX), else the VCS revision the binary was built from.
func versionString() string {
	v, goVersion := "unknown", runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		v = moduleVersion(bi)
	}
	return fmt.Sprintf("crmem %s (%s)", v, goVersion)
}

// moduleVersion picks the most precise version the build info has.
func moduleVersion(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified, when string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		case "vcs.time":
			when = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "-dirty"
	}
	if when != "" {
		rev += " " + when
	}
	return "devel " + rev
}
