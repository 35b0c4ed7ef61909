package export

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crmem/crmem/internal/safefile"
)

// Format names an import format.
type Format string

// The formats import reads.
const (
	JSONL        Format = "jsonl"         // crmem export's JSON lines
	Crabtalk0038 Format = "crabtalk-0038" // RFC 0038 entries/*.md tree
	Drover       Format = "drover"        // @drover/memory markdown tree
	Crabdb       Format = "crabdb"        // crabtalk's store (store.crmem), read by package crabdb
	CRMEM        Format = "crmem"         // a CRMEM v1 memory file (memory.db), read by package store
)

// Formats lists every import format, in the order help and errors name
// them: the one list that --from, its completion and its error read.
func Formats() []Format { return []Format{JSONL, Crabtalk0038, Drover, Crabdb, CRMEM} }

// FormatNames is Formats as strings.
func FormatNames() []string {
	var out []string
	for _, f := range Formats() {
		out = append(out, string(f))
	}
	return out
}

// ParseFormat accepts the --from values.
func ParseFormat(s string) (Format, error) {
	if slices.Contains(Formats(), Format(s)) {
		return Format(s), nil
	}
	names := FormatNames()
	return "", fmt.Errorf("unknown format %q (want %s or %s)", s, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// Detect guesses the format of path: a file whose first non-blank line
// starts with "{" is JSON lines; a folder with entries/ is RFC 0038; a
// folder with global/, agents/ or runs/ is drover. A dump tree (notes/,
// archives/, topics/) is an error that points to `crmem load`.
func Detect(path string) (Format, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", pathError(err)
	}
	if !fi.IsDir() {
		return detectFile(path)
	}
	has := func(name string) bool {
		fi, err := os.Stat(filepath.Join(path, name))
		return err == nil && fi.IsDir()
	}
	switch {
	case has("entries"):
		return Crabtalk0038, nil
	case has("global") || has("agents") || has("runs"):
		return Drover, nil
	case has("notes") || has("archives") || has("topics"):
		return "", fmt.Errorf("%s is a dump tree: use `crmem load %s`", path, path)
	}
	return "", fmt.Errorf("%s: cannot tell the format (no entries/, global/, agents/ or runs/); use --from", path)
}

// ImportMax caps an import source read whole (a JSON lines file or
// stream): 1 GiB is ten times the 100k-entry corpus's JSON lines.
const ImportMax = 1 << 30

// detectMax bounds what detectFile reads looking for a first non-blank
// line.
const detectMax = 1 << 20

// detectFile recognises JSON lines by the first non-blank line.
func detectFile(path string) (Format, error) {
	f, _, err := safefile.Open(path, safefile.Options{})
	if err != nil {
		return "", pathError(err)
	}
	defer f.Close()
	r := bufio.NewReader(io.LimitReader(f, detectMax))
	if magic, _ := r.Peek(6); string(magic) == "CRMEM\x00" {
		return CRMEM, nil // a store is told apart before (cli), by structure
	}
	for {
		line, err := r.ReadBytes('\n')
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte(bom)))
		if len(line) > 0 {
			if line[0] == '{' {
				return JSONL, nil
			}
			break
		}
		if err != nil {
			break
		}
	}
	return "", fmt.Errorf("%s: cannot tell the format (not JSON lines); use --from", path)
}
