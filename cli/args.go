package cli

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/safefile"
	"github.com/crmem/crmem/store"
)

// content returns the CONTENT argument, or standard input when it is absent
// or "-". Standard input is taken byte for byte.
func (s streams) content(args []string, at int) (string, error) {
	if len(args) > at && args[at] != "-" {
		if err := validText("content", args[at]); err != nil {
			return "", err
		}
		return args[at], nil
	}
	if isTerminal(s.stdin) {
		fmt.Fprintln(s.stderr, "crmem: reading content from standard input (end with ctrl+d)")
	}
	b, err := safefile.ReadAll(s.stdin, "standard input", store.EntryReadMax, "entry on standard input")
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", errors.New("content on standard input is not valid UTF-8")
	}
	return string(b), nil
}

// kindFlag parses an optional --kind value of cmd; "" means every kind.
func kindFlag(cmd *cobra.Command, s string) (*store.Kind, error) {
	if s == "" {
		return nil, nil
	}
	k, err := store.ParseKind(s)
	if err != nil {
		return nil, usage(cmd, "--kind: %v", err)
	}
	return &k, nil
}

// args returns a positional-argument check that reports a usage error with
// the command's synopsis as a hint.
func args(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, a []string) error {
		if len(a) >= min && (max < 0 || len(a) <= max) {
			return nil
		}
		what := "too many arguments"
		if len(a) < min {
			what = "missing arguments"
		}
		return usage(cmd, "%s; usage: %s", what, cmd.UseLine())
	}
}

// dedupe drops repeated strings, keeping the first occurrence.
func dedupe(ss []string) []string {
	seen := make(map[string]bool, len(ss))
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
