package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/face/demo"
)

// openDemo writes the built-in sample memory to a fresh crmem-demo-*
// folder in $TMPDIR for --demo, which every subcommand and the TUI then
// use as the memory file; the folder is removed when crmem ends (execute
// runs the cleanup), so nothing a demo run changes is kept. --demo with
// --db is a usage error: they name two different files.
func (o *opener) openDemo(cmd *cobra.Command) error {
	if !o.demo {
		return nil
	}
	if f := cmd.Flags().Lookup("db"); f != nil && f.Changed {
		return usage(cmd, "--demo and --db exclude each other (--demo uses a copy of a sample memory)")
	}
	path, cleanup, err := demo.Write(time.Now())
	if err != nil {
		return err
	}
	o.demoPath = path
	o.cleanups = append(o.cleanups, cleanup)
	return nil
}

// usesDefaultPath reports whether the memory file is the default one: no
// --demo, no --db, no $CRMEM_DB and no db in the config file.
func (o *opener) usesDefaultPath() bool {
	return o.demoPath == "" && o.givenDBPath() == ""
}

// missingMemoryError is "no such file" for the default memory file, with
// the ways to name another memory, or to try crmem on the sample one.
type missingMemoryError struct{ path string }

func (e missingMemoryError) Error() string {
	return fmt.Sprintf("%s: no such file; point crmem at a memory with --db PATH, $CRMEM_DB or db in the config file (crmem config --path), or try the sample memory: crmem --demo ls", quotePath(e.path))
}

func (e missingMemoryError) Unwrap() error { return fs.ErrNotExist }

// memoryFileError is fileError for the memory file: a missing default
// file says how to choose one.
func (o *opener) memoryFileError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) && o.usesDefaultPath() {
		return missingMemoryError{path}
	}
	return fileError{path, err}
}
