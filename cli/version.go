package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// versionCommand prints the build's version, as describe says it.
func versionCommand(s streams, describe func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print crmem's version, the commit it was built from and the Go version",
		Long: `Print the version, the git revision and commit time the binary was built
from ("modified" when the checkout had uncommitted changes), and the Go
version and platform.

The version is the release's, stamped with -ldflags "-X main.version=vX.Y.Z";
else the module version: a release tag with go install …@vX.Y.Z, a
pseudo-version when built from a git checkout, else "(devel)". A binary built
outside a git checkout, or with -buildvcs=false, has no revision.`,
		Example: `  crmem version
  crmem --version`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(s.stdout, describe())
			return err
		},
	}
}

// buildDescription describes the running binary from its build
// information and the version main was stamped with, read once: the root
// command's --version and the version command both ask.
type buildDescription struct {
	stamp string // the release version main was stamped with ("": none)
	text  string // the description, once asked
}

// String is the description (describeBuild), read on the first call.
func (d *buildDescription) String() string {
	if d.text == "" {
		bi, _ := debug.ReadBuildInfo() // nil when the binary has none
		d.text = describeBuild(bi, d.stamp, runtime.GOOS+"/"+runtime.GOARCH)
	}
	return d.text
}

// describeBuild is buildDescription for given build information (nil: none)
// and stamped version ("": none, the module version stands):
//
//	crmem v0.0.0-20261123174204-280a5a878397
//	revision 280a5a8783977440b256523cc4979a7c429f987c (2026-11-23T17:42:04Z, modified)
//	go1.26.8 linux/amd64
//
// The revision line is left out when the build has no VCS information.
func describeBuild(bi *debug.BuildInfo, stamped, platform string) string {
	release, goVersion := "(devel)", runtime.Version()
	var rev, when string
	modified := false
	if bi != nil {
		if bi.Main.Version != "" {
			release = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if stamped != "" {
		release = stamped
	}
	var b strings.Builder
	fmt.Fprintf(&b, "crmem %s\n", release)
	if rev != "" {
		var notes []string
		if when != "" {
			notes = append(notes, when)
		}
		if modified {
			notes = append(notes, "modified")
		}
		b.WriteString("revision " + rev)
		if len(notes) > 0 {
			b.WriteString(" (" + strings.Join(notes, ", ") + ")")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s %s", goVersion, platform)
	return b.String()
}
