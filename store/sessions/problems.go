package sessions

import (
	"fmt"
	"strings"

	"github.com/crmem/crmem/internal/humanize"
)

// Line says on one line what reading the recalls skipped, or "" when
// everything was read: `crmem recalls`, `crmem stats` and the TUI's stats
// panel show the same words. quote shows the sessions folder's path
// safely for where the line is printed.
func (p RecallProblems) Line(quote func(string) string) string {
	if p.NoFolder != "" {
		return fmt.Sprintf("no sessions folder at %s: no recalls to read", quote(p.NoFolder))
	}
	var parts []string
	add := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, humanize.Count(n)+" "+many)
		}
	}
	add(p.UnparsableSteps, "unparsable step skipped", "unparsable steps skipped")
	add(p.UnreadableSteps, "unreadable step skipped", "unreadable steps skipped")
	add(p.BadArguments, "recall with malformed arguments skipped", "recalls with malformed arguments skipped")
	add(p.UnknownAgents, "session of an unknown agent", "sessions of unknown agents")
	add(p.UnparsableResults, "result that cannot be read as names", "results that cannot be read as names")
	add(p.MissingResults, "recall without a result", "recalls without a result")
	add(p.BadMeta, "session meta that is not JSON skipped", "session metas that are not JSON skipped")
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s (of %s in %s)", strings.Join(parts, ", "), humanize.Plural(p.Steps, "step"), humanize.Plural(p.Sessions, "session"))
}
