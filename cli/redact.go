package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"

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
func (s streams) reportOutput(isJSON bool, write func(w *bufio.Writer) error) error {
	return s.reportOutputSized(isJSON, 0, write)
}

// reportOutputSized is reportOutput for a report of about size bytes,
// gathered in a buffer made that size at once: recalls --report prints a
// line for each entry, 7–12 MB for 100k of them, which a buffer grown by
// doubling copied about once over. A larger report only grows the buffer.
func (s streams) reportOutputSized(isJSON bool, size int, write func(w *bufio.Writer) error) error {
	var buf reportBuffer
	buf.Grow(size)
	w := bufio.NewWriterSize(&buf, 64<<10)
	if err := write(w); err != nil {
		return err // what write read failed: a buffer in memory does not (its own message)
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
	if _, err := io.WriteString(s.stdout, text); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// reportBuffer gathers a report's text: a strings.Builder, whose String is
// the text without a copy (a bytes.Buffer's copies it), grown by doubling
// as a bytes.Buffer grows (a Builder written to alone grows a quarter at a
// time, copying the text four times over).
type reportBuffer struct{ strings.Builder }

func (b *reportBuffer) Write(p []byte) (int, error) {
	b.Grow(len(p)) // twice the capacity and p, when p does not fit
	return b.Builder.Write(p)
}

// streamReportOutput is reportOutput for a long report written as it is
// made (the recalls list): each line is masked and written once complete,
// so the first lines show while the rest is read. Every line it prints is
// one line of the report (a JSON string never spans lines), so masking by
// line misses nothing a whole-text mask would find but a secret spread
// over lines, which no line of these reports holds.
func (s streams) streamReportOutput(isJSON bool, write func(w *bufio.Writer) error) error {
	out := &outputWriter{w: s.stdout}
	lm := &lineMasker{out: out, json: isJSON}
	if err := runOutput(out, lm, write); err != nil {
		return err
	}
	if err := lm.close(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// reportOutputStrict is reportOutput for a text report that must not
// depend on the secret rules alone (search --why): what looks like a
// credential by its shape is masked too (hygiene.MaskStrict).
func (s streams) reportOutputStrict(write func(w *bufio.Writer) error) error {
	var buf bytes.Buffer
	w := bufio.NewWriterSize(&buf, 64<<10)
	if err := write(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	if _, err := io.WriteString(s.stdout, hygiene.MaskStrict(buf.String())); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// lineMasker masks what is written to it line by line (hygiene.Mask, or
// hygiene.MaskJSON), passing each complete line on.
type lineMasker struct {
	out     io.Writer
	json    bool
	pending []byte
}

func (l *lineMasker) Write(p []byte) (int, error) {
	l.pending = append(l.pending, p...)
	end := bytes.LastIndexByte(l.pending, '\n')
	if end < 0 {
		return len(p), nil
	}
	if err := l.emit(l.pending[:end+1]); err != nil {
		return 0, err
	}
	l.pending = append(l.pending[:0], l.pending[end+1:]...)
	return len(p), nil
}

// emit masks complete lines and writes them.
func (l *lineMasker) emit(lines []byte) error {
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(lines), "\n") {
		if l.json {
			b.WriteString(hygiene.MaskJSON(line))
		} else {
			b.WriteString(hygiene.Mask(line))
		}
	}
	_, err := io.WriteString(l.out, b.String())
	return err
}

// close writes what is left after the last newline.
func (l *lineMasker) close() error {
	if len(l.pending) == 0 {
		return nil
	}
	err := l.emit(l.pending)
	l.pending = l.pending[:0]
	return err
}
