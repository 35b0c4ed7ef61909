package cli

import (
	"runtime"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/workgroup"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
)

// redactUsage is the help of --redact, the same on every command that has it.
const redactUsage = "mask the secrets lint finds in names, aliases and content (ghp_…x9Q2), for pasting into a bug report"

// registerRedact adds --redact to c.
func registerRedact(c *cobra.Command, redact *bool) {
	c.Flags().BoolVar(redact, "redact", false, redactUsage)
}

// redactEntry is e with the secrets in its name, aliases and content
// masked (hygiene.Mask); e itself is not changed.
func redactEntry(e store.Entry) store.Entry {
	e, _ = hygiene.MaskEntry(e)
	return e
}

// redactEntries is entries each redacted (redactEntry), on every core; the
// slice given is not changed.
func redactEntries(entries []store.Entry) []store.Entry {
	out := make([]store.Entry, len(entries))
	workers := max(1, min(runtime.GOMAXPROCS(0), len(entries)/256))
	var g workgroup.Group
	for w := range workers {
		lo, hi := w*len(entries)/workers, (w+1)*len(entries)/workers
		g.Go(func() {
			for i := lo; i < hi; i++ {
				out[i] = redactEntry(entries[i])
			}
		})
	}
	g.Wait()
	return out
}
