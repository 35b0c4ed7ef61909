package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/crmem/crmem/store"
)

// ImportCrabtalk0038 reads an RFC 0038 memory folder (crabtalk's earlier
// file-per-entry memory, usually ~/.crabtalk/config/memory): dir/entries/*.md,
// each with optional "name" and "description" frontmatter.
//
// Mapping, per entry file (in file-name order):
//   - name: the file stem (RFC 0038 slugified the entry name into it), so
//     names are file-safe and unique; the frontmatter "name", when it differs
//     from the stem, becomes an alias, so the entry still resolves by it;
//   - content: the description as the first paragraph (RFC 0038 searched
//     description + content, and so does recall over this content), then any
//     other frontmatter fields as one "> crabtalk-0038 · key: value" line,
//     then the body;
//   - kind Note; created_at the file's modification time.
//
// dir/MEMORY.md (the curated overview RFC 0150 dropped in favour of Crab.md)
// is not imported; a notice says so. Names that are not valid entry names
// are renamed (see settleNames) with a notice.
func ImportCrabtalk0038(dir string) (*Imported, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	t := &tree{root: dir}
	if !t.isDir("entries") {
		if len(t.notices) > 0 {
			return nil, errors.New(t.notices[0])
		}
		return nil, fmt.Errorf("%s: no entries/ folder (not an RFC 0038 memory)", dir)
	}
	files, err := t.markdownFiles("entries")
	if err != nil {
		return nil, pathError(err)
	}
	res := &Imported{Notices: t.notices}
	if fi, err := os.Stat(filepath.Join(dir, "MEMORY.md")); err == nil {
		res.Notices = append(res.Notices, fmt.Sprintf(
			"%s: skipped (%d bytes): RFC 0150 has no curated overview; move what matters into Crab.md or a note",
			filepath.Join(dir, "MEMORY.md"), fi.Size()))
	}
	var sources []string
	for _, f := range files {
		rel := filepath.Join("entries", f)
		md, err := readMarkdown(t, rel)
		if err != nil {
			return nil, err
		}
		e, err := crabtalkEntry(dir, md)
		if err != nil {
			return nil, err
		}
		res.Entries = append(res.Entries, e)
		sources = append(sources, filepath.Join(dir, rel))
	}
	res.Notices = append(res.Notices, settleNames(res.Entries, sources)...)
	numberEntries(res.Entries)
	return res, nil
}

// crabtalkEntry maps one RFC 0038 file to an entry.
func crabtalkEntry(root string, md mdFile) (store.Entry, error) {
	name, err := md.field(root, "name")
	if err != nil {
		return store.Entry{}, err
	}
	desc, err := md.field(root, "description")
	if err != nil {
		return store.Entry{}, err
	}
	e := store.Entry{
		Name:      md.stem,
		Kind:      store.Note,
		CreatedAt: unixNow(md.mtime),
		Content:   joinParagraphs(desc, headerLine("crabtalk-0038", md.extras("name", "description")), md.body),
	}
	if name != "" && name != md.stem {
		e.Aliases = []string{name}
	}
	return e, nil
}
