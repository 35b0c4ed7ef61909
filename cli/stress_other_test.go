//go:build !linux

package cli

import (
	"fmt"
	"os"
)

// cliHelperEnv selects a helper role when the test binary re-executes
// itself; the stress helpers exist on Linux only (renameat2).
const cliHelperEnv = "CRMEM_CLI_HELPER"

// cliHelper has no roles outside Linux.
func cliHelper(role string) int {
	fmt.Fprintf(os.Stderr, "unknown helper role %q\n", role)
	return 2
}
