// Package export moves memory entries in and out of files: the mdbook tree
// of RFC 0150 (dump and load), crmem's JSON lines (export and import), and
// the markdown memories that came before CRMEM (RFC 0038's entries/ folder
// and @drover/memory's tree). It works on store.Entry values only; the
// command line applies the results through store.
//
// # The dump tree
//
// Dump writes, byte for byte as the reference implementation does:
//
//	DIR/book.toml          only when absent (a customised one survives)
//	DIR/SUMMARY.md         "# Summary", then "# Notes", "# Archives", "# Topics"
//	                       sections of "- [name](notes/name.md)", names sorted bytewise
//	DIR/notes/NAME.md      one file per entry (FormatEntry)
//	DIR/archives/NAME.md
//	DIR/topics/NAME.md
//
// Load reads it back (ParseEntry per file). The entry file format is also
// what the TUI's editor edits, through FormatEntry and ParseEntry.
//
// # JSON lines
//
// WriteJSONL writes one SPEC §6 entry per line in ascending id order;
// ReadJSONL reads it back losslessly (ids, created_at, kinds, aliases).
//
// # Legacy memories
//
// ImportCrabtalk0038 and ImportDrover map foreign entries to CRMEM entries;
// their doc comments give the mapping. Fields with no CRMEM slot are kept at
// the top of the content as one "> format · key: value · …" line, so
// nothing is lost and all of it stays searchable. Their YAML frontmatter is
// read by a small strict reader (scalars, quoted strings, inline and block
// lists, block scalars); anything else is an error naming the file and line.
//
// Names from these formats that are not valid entry names, or that repeat,
// are renamed deterministically (invalid characters to "-", then "-2",
// "-3", … on a clash) and each rename is reported as a notice. JSON lines,
// being crmem's own lossless format, are never renamed: an invalid or
// repeated name is an error.
//
// # Merging
//
// MergeOps plans the operations that merge entries into a memory by name
// in one atomic store apply (load --merge, import --merge).
package export
