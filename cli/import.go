package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/internal/safefile"
	"github.com/crmem/crmem/store"
)

// importLong is import's help: what it does, and each format it reads.
const importLong = `Read entries from FILE or DIR and add them to the memory in one atomic save: an
entry with the same name as one in the memory replaces it (keeping its id), the
others are added, and everything else in the memory is kept (--merge is
accepted and means the same). With --replace the memory is replaced by the
entries instead. A problem anywhere imports nothing. Inside a folder, nothing
outside it is read: symbolic links and files that are not regular files are
skipped, each named on standard error.

--from is guessed when omitted: a file of JSON lines (or "-" for standard
input) is jsonl; a folder with entries/ is crabtalk-0038; a folder with
global/, agents/ or runs/ is drover; a dump tree is for "crmem load".

  jsonl          what "crmem export" prints; lossless: ids, creation times,
                 kinds, aliases and content are kept (with --merge, a new
                 entry keeps its id when it is free). A bad line is reported
                 as FILE:LINE and nothing is imported; names must be valid
                 and unique. created_at may also be an RFC 3339 string, as
                 the export of a crabtalk store writes it (cut to seconds).
  crabtalk-0038  crabtalk's earlier memory folder (entries/*.md with name and
                 description frontmatter). The file name is the entry name,
                 the frontmatter name an alias, the description the first
                 paragraph of the content; created at the file's modification
                 time. MEMORY.md is reported and skipped.
  drover         an @drover/memory tree (global/, agents/<agent>/,
                 runs/<run>/ of <id>.md with YAML frontmatter). The name is a
                 slug of the summary (else the id); tags and the id become
                 aliases; the summary and a "> drover · scope: … · kind: …"
                 line of the fields CRMEM has no place for open the content;
                 kinds summary/archive/compaction/session become archives,
                 topic a topic, the rest notes.
  crabdb         crabtalk's store (store.crmem): its memory entries
                 (column 2) in key order, ids from 1, created_at cut to
                 seconds; unknown kinds become notes (each reported).
  crmem          a CRMEM v1 memory file (memory.db); lossless as jsonl.
                 Importing crabtalk's memory.db into its store.crmem is the
                 move to crabtalk's newer builds:
                 crmem import ~/.crabtalk/memory.db --db ~/.crabtalk/store.crmem

Names from the markdown formats that are not valid entry names, or repeat, are
renamed ("-" for unsafe characters, then "-2", "-3", …) and each rename is
reported on standard error. With --merge, an entry that already exists keeps
its id (and, for the markdown formats, its creation time). With --replace, an
input without entries is refused (it would empty the memory).`

// importCommand reads JSON lines or a legacy markdown memory.
func importCommand(o *opener, s streams) *cobra.Command {
	var from string
	var merge, replace bool
	c := &cobra.Command{
		Use:   "import FILE|DIR [--from " + strings.Join(importFormats(), "|") + "] [--replace]",
		Short: "Add entries to the memory (or --replace it) from JSON lines or another memory format",
		Long:  importLong,
		Example: `  crmem export > backup.jsonl && crmem import backup.jsonl --replace
  crmem import ~/.crabtalk/config/memory --from crabtalk-0038
  crmem import ./drover-memory
  crmem export --db old.db | crmem import -`,
		Args: args(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if merge && replace {
				return usage(cmd, "--merge and --replace exclude each other")
			}
			return importFile(o, s, args[0], from, replace)
		},
	}
	c.Flags().StringVar(&from, "from", "", "input format: "+strings.Join(importFormats(), ", ")+" (default: guessed)")
	c.Flags().BoolVar(&replace, "replace", false, "replace the whole memory with the imported entries")
	c.Flags().BoolVar(&merge, "merge", false, "the default: replace same-named entries and add new ones, keeping the rest")
	return c
}

// importFile imports the entries of path (a file, "-" or a folder) in
// the format from (guessed when ""), merged into the memory or, with
// replace, in its place.
func importFile(o *opener, s streams, path, from string, replace bool) error {
	format, err := importFormat(path, from)
	if err != nil {
		return err
	}
	entries, notices, err := readImport(s, path, format)
	if err != nil {
		return err
	}
	notify(s.stderr, notices)
	mode := export.MergeTree
	if format == export.JSONL || format == export.CRMEM {
		mode = export.MergeExact
	}
	if !replace {
		return mergeEntries(o, s, entries, mode, fmt.Sprintf("imported %s (%s)", quotePath(path), format))
	}
	if len(entries) == 0 {
		return fmt.Errorf("%s: no entries to import; the memory is left as it is", quotePath(path))
	}
	return replaceEntries(o, s, entries, "imported", fmt.Sprintf("%s (%s)", quotePath(path), format))
}

// importFormat resolves --from, guessing from the input when it is empty.
func importFormat(path, from string) (export.Format, error) {
	if f, err := storeImportFormat(path, from); f != "" || err != nil {
		return f, err
	}
	if from != "" {
		f, err := export.ParseFormat(from)
		if err != nil {
			return "", usageError{fmt.Errorf("--from: %w", err)}
		}
		return f, nil
	}
	if path == "-" {
		return export.JSONL, nil
	}
	return export.Detect(path)
}

// readImport reads the entries (and notices) of one input.
func readImport(s streams, path string, format export.Format) ([]store.Entry, []string, error) {
	var res *export.Imported
	var err error
	switch format {
	case export.JSONL:
		entries, err := readJSONLInput(s, path)
		return entries, nil, err
	case export.Crabtalk0038:
		res, err = export.ImportCrabtalk0038(path)
	case export.Drover:
		res, err = export.ImportDrover(path)
	case export.Crabdb:
		res, err = importCrabdb(path)
	case export.CRMEM:
		return importV1(path)
	default:
		return nil, nil, fmt.Errorf("unknown format %q", format)
	}
	if err != nil {
		return nil, nil, err
	}
	return res.Entries, res.Notices, nil
}

// importV1 reads a CRMEM v1 memory file for import, losslessly (ids,
// created_at, kinds, aliases and content as they are).
func importV1(path string) ([]store.Entry, []string, error) {
	data, err := store.ReadFile(path)
	if err != nil {
		return nil, nil, fileError{path, err}
	}
	f, err := store.Decode(data)
	if err == nil && f.Trailing > 0 {
		err = fmt.Errorf("%d bytes after the last entry: not a whole CRMEM v1 memory file", f.Trailing)
	}
	if err != nil {
		return nil, nil, fileError{path, err}
	}
	return f.Entries, nil, nil
}

// readJSONLInput reads JSON lines from a file, or standard input for "-".
func readJSONLInput(s streams, path string) ([]store.Entry, error) {
	if path == "-" {
		return export.ReadJSONL("stdin", safefile.CapReader(s.stdin, "standard input", export.ImportMax, "JSON lines import"), time.Now())
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fileError{path, errors.New("is a directory, not a JSON lines file")}
	}
	f, _, err := safefile.Open(path, safefile.Options{Limit: export.ImportMax, What: "JSON lines import"})
	if err != nil {
		return nil, fileError{path, err}
	}
	defer f.Close()
	return export.ReadJSONL(path, safefile.CapReader(f, path, export.ImportMax, "JSON lines import"), time.Now())
}
