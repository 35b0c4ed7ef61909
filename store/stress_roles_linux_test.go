package store_test

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/crmem/crmem/store/storetest"
)

// stressRole runs the stress test's helper roles.
func stressRole(role string) error {
	path := os.Getenv("CRMEM_HELPER_PATH")
	ns, _ := strconv.ParseInt(os.Getenv("CRMEM_HELPER_ARG0"), 10, 64)
	until := time.Unix(0, ns)
	switch role {
	case "crabtalk":
		return storetest.CrabtalkWriter(path, until, "cli-", os.Stdout)
	case "crmem-adds":
		return helperCrmemAdds(path, until, os.Getenv("CRMEM_HELPER_ARG1"))
	}
	return fmt.Errorf("unknown helper role %q", role)
}
