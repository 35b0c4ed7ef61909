package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// jsonOutput is a subcommand's --json and --pretty flags. --json prints the
// whole result on one line (easy to pipe, grep and diff); --pretty prints
// the same JSON indented, and implies --json.
type jsonOutput struct {
	json, pretty bool
}

// register adds --json and --pretty to c; what names the output ("print
// the report").
func (o *jsonOutput) register(c *cobra.Command, what string) {
	c.Flags().BoolVar(&o.json, "json", false, what+" as JSON, on one line")
	c.Flags().BoolVar(&o.pretty, "pretty", false, what+" as indented JSON (implies --json)")
}

// enabled reports whether JSON was asked for.
func (o jsonOutput) enabled() bool { return o.json || o.pretty }

// write writes v as JSON and a newline: one line, or indented with
// --pretty. Strings are escaped exactly as marshal escapes them.
func (o jsonOutput) write(w io.Writer, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	return o.writeRaw(w, b, "")
}

// writeRaw writes one encoded JSON value; indented values start their
// inner lines with prefix.
func (o jsonOutput) writeRaw(w io.Writer, b []byte, prefix string) error {
	if o.pretty {
		var buf bytes.Buffer
		if err := json.Indent(&buf, b, prefix, "  "); err != nil {
			return fmt.Errorf("indent json: %w", err)
		}
		b = buf.Bytes()
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	if prefix != "" {
		return nil
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// writeArray writes items as one JSON array, encoding one element at a
// time so a large listing is never held twice in memory: on one line, or
// with --pretty one indented element after another.
func writeArray[T any](w io.Writer, o jsonOutput, items []T) error {
	open, sep, end := "[", ",", "]\n"
	if o.pretty {
		open, sep, end = "[\n  ", ",\n  ", "\n]\n"
	}
	if len(items) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	for i, it := range items {
		b, err := marshal(it)
		if err != nil {
			return err
		}
		lead := sep
		if i == 0 {
			lead = open
		}
		if _, err := io.WriteString(w, lead); err != nil {
			return fmt.Errorf("write json: %w", err)
		}
		if err := o.writeRaw(w, b, "  "); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(w, end); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// jsonFlags reads a subcommand's --json and --pretty flags (its own
// variables belong to its v1 code path).
func jsonFlags(cmd *cobra.Command) jsonOutput {
	var o jsonOutput
	o.json, _ = cmd.Flags().GetBool("json")
	o.pretty, _ = cmd.Flags().GetBool("pretty")
	return o
}
