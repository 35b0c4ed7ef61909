// Package demo builds crmem's built-in sample memory for `crmem --demo`.
//
// The sample entries are markdown files embedded in the binary; each starts
// with a small header (kind, aliases, age) ended by a "---" line. A small
// crabtalk sessions folder comes with them, so archive references show: two
// archives are sessions' resume points, one is only referenced, one is an
// orphan. Its sessions hold the agent's recall tool calls in crabtalk's
// step shapes (`crmem --demo recalls`): results that no longer match the
// memory, one that found nothing, one that cannot be read as names and a
// call with malformed arguments. They hold the agent's writes too, its
// remember and forget calls (`crmem --demo history deploy-steps`):
// deploy-steps in four versions over two sessions, the last exactly the
// entry as the demo memory holds it; release-checklist edited by hand
// since the agent last remembered it; staging-smoke-tests remembered,
// recalled, then forgotten (not in the memory); a remember that failed and
// a forget of a name that never was, neither of them a version. An
// event's or a session meta's time written "@33d2h" is that long before
// the demo is written, as the entries' ages are.
package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/crmem/crmem/store"
)

//go:embed data/*.md data/sessions
var files embed.FS

// Entries returns the sample entries, created relative to now, with ids
// ascending from the oldest.
func Entries(now time.Time) ([]store.Entry, error) {
	paths, err := fs.Glob(files, "data/*.md")
	if err != nil {
		return nil, fmt.Errorf("list demo entries: %w", err)
	}
	var entries []store.Entry
	for _, p := range paths {
		b, err := files.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read demo entry %s: %w", p, err)
		}
		e, err := parse(strings.TrimSuffix(filepath.Base(p), ".md"), string(b), now)
		if err != nil {
			return nil, fmt.Errorf("demo entry %s: %w", p, err)
		}
		entries = append(entries, e)
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].CreatedAt < entries[j].CreatedAt })
	for i := range entries {
		entries[i].ID = uint64(i + 1)
	}
	return entries, nil
}

// parse reads one sample file: "key: value" lines, "---", then content.
func parse(name, text string, now time.Time) (store.Entry, error) {
	head, content, ok := strings.Cut(text, "\n---\n")
	if !ok {
		return store.Entry{}, fmt.Errorf("no --- line after the header")
	}
	e := store.Entry{Name: name, Content: strings.TrimRight(content, "\n"), Aliases: []string{}}
	for _, line := range strings.Split(head, "\n") {
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		if err := setField(&e, k, v, now); err != nil {
			return store.Entry{}, err
		}
	}
	return e, nil
}

// setField applies one header line to e.
func setField(e *store.Entry, key, val string, now time.Time) error {
	switch key {
	case "kind":
		k, err := store.ParseKind(val)
		if err != nil {
			return err
		}
		e.Kind = k
	case "aliases":
		for _, a := range strings.Split(val, ",") {
			if a = strings.TrimSpace(a); a != "" {
				e.Aliases = append(e.Aliases, a)
			}
		}
	case "age":
		d, err := parseAge(val)
		if err != nil {
			return err
		}
		e.CreatedAt = uint64(now.Add(-d).Unix())
	default:
		return fmt.Errorf("unknown header %q", key)
	}
	return nil
}

// parseAge reads "38d", "2h" or "3d4h".
func parseAge(s string) (time.Duration, error) {
	if days, rest, ok := strings.Cut(s, "d"); ok {
		var n int
		if _, err := fmt.Sscanf(days, "%d", &n); err != nil {
			return 0, fmt.Errorf("age %q: %w", s, err)
		}
		d := time.Duration(n) * 24 * time.Hour
		if rest == "" {
			return d, nil
		}
		r, err := time.ParseDuration(rest)
		return d + r, err
	}
	return time.ParseDuration(s)
}

// Write encodes the sample memory into a fresh private temporary folder and
// returns the file's path and a function that removes the folder.
func Write(now time.Time) (path string, cleanup func(), err error) {
	entries, err := Entries(now)
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "crmem-demo-")
	if err != nil {
		return "", nil, fmt.Errorf("create demo folder: %w", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, store.FileName)
	data := store.Encode(uint64(len(entries)+1), entries)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("write demo memory: %w", err)
	}
	if err := writeSessions(store.SessionsDir(path, ""), now); err != nil {
		cleanup()
		return "", nil, err
	}
	return path, cleanup, nil
}

// writeSessions copies the embedded sessions folder to dir, its relative
// event times made absolute from now.
func writeSessions(dir string, now time.Time) error {
	sub, err := fs.Sub(files, "data/sessions")
	if err != nil {
		return fmt.Errorf("demo sessions: %w", err)
	}
	if err := os.CopyFS(dir, sub); err != nil {
		return fmt.Errorf("write demo sessions: %w", err)
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return stampTimes(path, now)
	})
}

// relativeTS is an event's or a session meta's time written relative to
// the demo's creation: the key, then the age.
var relativeTS = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"(ts|created_at|updated_at)":"@([0-9dhms]+)"`)
})

// stampTimes rewrites the relative times of one step or meta file.
func stampTimes(path string, now time.Time) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("demo sessions: %w", err)
	}
	var bad error
	out := relativeTS().ReplaceAllFunc(data, func(m []byte) []byte {
		sub := relativeTS().FindSubmatch(m)
		age, err := parseAge(string(sub[2]))
		if err != nil {
			bad = err
			return m
		}
		return []byte(`"` + string(sub[1]) + `":"` + now.Add(-age).UTC().Format(time.RFC3339) + `"`)
	})
	if bad != nil {
		return fmt.Errorf("demo sessions %s: %w", path, bad)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		return fmt.Errorf("write demo sessions: %w", err)
	}
	return nil
}
