package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
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

// reportOutput is output for a report (stats, recalls, why, check): what
// write prints is gathered, every secret in it masked (hygiene.Mask, or
// hygiene.MaskJSON for JSON), then written. A report quotes names, the
// agent's queries and problems found in the files, any of which can hold a
// secret; a report never prints one whole, whatever field it is in.
func (a *app) reportOutput(isJSON bool, write func(w *bufio.Writer) error) error {
	var buf bytes.Buffer
	w := bufio.NewWriterSize(&buf, 64<<10)
	if err := write(w); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	text := buf.String()
	if isJSON {
		text = hygiene.MaskJSON(text)
	} else {
		text = hygiene.Mask(text)
	}
	if _, err := io.WriteString(a.stdout, text); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}
