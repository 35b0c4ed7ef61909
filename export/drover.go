package export

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crmem/crmem/store"
)

// droverKnown are the MemoryEntry fields that have a place of their own.
var droverKnown = []string{"id", "scope", "agentId", "runId", "kind", "summary", "tags", "createdAt"}

// ImportDrover reads an @drover/memory markdown tree: root/global/<id>.md,
// root/agents/<agentId>/<id>.md and root/runs/<runId>/<id>.md, each with
// YAML frontmatter (id, scope, agentId, runId, kind, summary, tags,
// createdAt, updatedAt) over a markdown body. Files are read in that order
// (global, agents by name, runs by name), each folder in file-name order.
//
// Mapping:
//   - name: a slug of the summary ("user-prefers-tabs"), or the id when
//     there is no summary, or the file stem when there is neither; renamed
//     with "-2", "-3", … when taken (see settleNames), with a notice;
//   - aliases: the tags, then the id (so the entry still resolves by it);
//   - content: the summary as the first paragraph, then a line
//     "> drover · scope: agent · agent: A · run: R · kind: K · id: I ·
//     updatedAt: T" holding every field without a CRMEM slot (unknown
//     fields too, in file order), then the body — nothing is lost and all
//     of it is searchable. Scope, agent and run come from the frontmatter,
//     else from the folder the file is in;
//   - kind: user, feedback, project and reference are notes; summary,
//     archive, compaction and session are archives; topic is a topic;
//     anything else is a note, with a notice;
//   - created_at: createdAt (milliseconds or seconds since 1970, or an RFC
//     3339 date), else the file's modification time.
func ImportDrover(dir string) (*Imported, error) {
	t := &tree{root: dir}
	files, err := droverFiles(t)
	if err != nil {
		return nil, err
	}
	res := &Imported{Notices: t.notices}
	var sources []string
	for _, f := range files {
		md, err := readMarkdown(t, f.rel)
		if err != nil {
			return nil, err
		}
		e, notice, err := droverEntry(dir, md, f)
		if err != nil {
			return nil, err
		}
		if notice != "" {
			res.Notices = append(res.Notices, notice)
		}
		res.Entries = append(res.Entries, e)
		sources = append(sources, filepath.Join(dir, f.rel))
	}
	res.Notices = append(res.Notices, settleNames(res.Entries, sources)...)
	numberEntries(res.Entries)
	return res, nil
}

// droverFile is one entry file and what its folder says about it.
type droverFile struct {
	rel, scope, agent, run string
}

// droverFiles lists the entry files of a drover tree in import order.
func droverFiles(t *tree) ([]droverFile, error) {
	if err := checkDir(t.root); err != nil {
		return nil, err
	}
	var out []droverFile
	add := func(folder string, f droverFile) error {
		names, err := t.markdownFiles(folder)
		if err != nil {
			return pathError(err)
		}
		for _, n := range names {
			g := f
			g.rel = filepath.Join(folder, n)
			out = append(out, g)
		}
		return nil
	}
	if err := add("global", droverFile{scope: "global"}); err != nil {
		return nil, err
	}
	for _, group := range []struct{ folder, scope string }{{"agents", "agent"}, {"runs", "run"}} {
		subs, err := t.subfolders(group.folder)
		if err != nil {
			return nil, pathError(err)
		}
		for _, s := range subs {
			f := droverFile{scope: group.scope}
			if group.scope == "agent" {
				f.agent = s
			} else {
				f.run = s
			}
			if err := add(group.folder+"/"+s, f); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// droverMeta is a drover entry's frontmatter fields, with folder defaults.
type droverMeta struct {
	id, scope, agent, run, kind, summary, created string
}

// readDroverMeta reads the scalar fields of a drover file; id, scope,
// agentId and runId default to what the file name and folder say.
func readDroverMeta(root string, md mdFile, f droverFile) (droverMeta, error) {
	var m droverMeta
	fields := []struct {
		key, fallback string
		dst           *string
	}{
		{"id", md.stem, &m.id}, {"scope", f.scope, &m.scope}, {"agentId", f.agent, &m.agent},
		{"runId", f.run, &m.run}, {"kind", "", &m.kind}, {"summary", "", &m.summary}, {"createdAt", "", &m.created},
	}
	for _, fl := range fields {
		v, err := md.field(root, fl.key)
		if err != nil {
			return m, err
		}
		if v == "" {
			v = fl.fallback
		}
		*fl.dst = v
	}
	return m, nil
}

// droverEntry maps one drover file to an entry, with a notice for an
// unknown kind.
func droverEntry(root string, md mdFile, f droverFile) (store.Entry, string, error) {
	m, err := readDroverMeta(root, md, f)
	if err != nil {
		return store.Entry{}, "", err
	}
	kind, known := droverKind(m.kind)
	notice := ""
	if !known {
		notice = fmt.Sprintf("%s: unknown kind %q imported as a note", filepath.Join(root, md.rel), m.kind)
	}
	fields := [][2]string{{"scope", m.scope}, {"agent", m.agent}, {"run", m.run}, {"kind", m.kind}, {"id", m.id}}
	created, ok := parseTimestamp(m.created)
	if !ok {
		created = unixNow(md.mtime)
		fields = append(fields, [2]string{"createdAt", m.created})
	}
	name := droverName(m.summary, m.id)
	e := store.Entry{
		Name:      name,
		Kind:      kind,
		CreatedAt: created,
		Content:   joinParagraphs(m.summary, headerLine("drover", append(fields, md.extras(droverKnown...)...)), md.body),
		Aliases:   droverAliases(md.fm.getList("tags"), m.id, name),
	}
	return e, notice, nil
}

// droverName is the slug of the summary, else the id.
func droverName(summary, id string) string {
	if s := slug(summary); s != "" {
		return s
	}
	return id
}

// droverAliases is the non-empty, distinct tags followed by the id, leaving
// out the entry's own name.
func droverAliases(tags []string, id, name string) []string {
	var out []string
	for _, t := range append(slices.Clone(tags), id) {
		if t = strings.TrimSpace(t); t != "" && t != name && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// droverKind maps a drover kind to a CRMEM kind; ok is false for a kind
// drover does not define.
func droverKind(kind string) (store.Kind, bool) {
	switch strings.ToLower(kind) {
	case "", "user", "feedback", "project", "reference":
		return store.Note, true
	case "summary", "summaries", "archive", "archives", "compaction", "session":
		return store.Archive, true
	case "topic", "topics":
		return store.Topic, true
	}
	return store.Note, false
}
