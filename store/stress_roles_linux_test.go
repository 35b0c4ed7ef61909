package store_test

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// stressRole runs the stress test's helper roles.
func stressRole(role string) error {
	path := os.Getenv("CRMEM_HELPER_PATH")
	ns, _ := strconv.ParseInt(os.Getenv("CRMEM_HELPER_ARG0"), 10, 64)
	until := time.Unix(0, ns)
	switch role {
	case "crabtalk":
		return helperCrabtalk(path, until)
	case "crmem-adds":
		return helperCrmemAdds(path, until, os.Getenv("CRMEM_HELPER_ARG1"))
	}
	return fmt.Errorf("unknown helper role %q", role)
}
