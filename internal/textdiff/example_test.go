package textdiff_test

import (
	"fmt"
	"strings"

	"github.com/crmem/crmem/internal/textdiff"
)

// A face draws each hunk's header, then each line with its changed words
// emphasised (here in brackets).
func Example() {
	before := "# Deploy\n\n- staging runs on port 8080\n- deploys need approval from @ops\n"
	after := "# Deploy\n\n- staging runs on port 9090\n- prod runs on port 443\n- deploys need approval from @sre-team\n"
	r := textdiff.Diff(before, after)
	for _, h := range textdiff.Hunks(r.Lines, 3) {
		fmt.Println(h.Header())
		for _, l := range h.Lines {
			var b strings.Builder
			for _, s := range l.Segments() {
				if s.Changed {
					b.WriteString("[" + s.Text + "]")
				} else {
					b.WriteString(s.Text)
				}
			}
			fmt.Println(strings.TrimRight(string(l.Op)+b.String(), " ")) // an empty unchanged line as ""
		}
	}
	if r.Bounded {
		fmt.Println("(the diff was bounded: parts of it are coarse)")
	}
	// Output:
	// @@ -1,4 +1,5 @@
	//  # Deploy
	//
	// -- staging runs on port [8080]
	// -- deploys need approval from @[ops]
	// +- staging runs on port [9090]
	// +- prod runs on port 443
	// +- deploys need approval from @[sre-team]
}
