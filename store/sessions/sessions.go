// Package sessions reads crabtalk's sessions folder to find which sessions
// reference which compaction archives (SPEC §7, archive references).
//
// # Layout
//
// A sessions folder holds one folder per session; each holds one JSON
// document per step in files named step-NNNNNN, and other files (meta) that
// are ignored here. A step of the form {"archive_name": …, "archived_at": …}
// is a compact marker: the session was compacted into that archive and, if it
// is the session's last marker, resumes from it. A legacy {"compact": …} step
// is a boundary with no archive. Steps that are not JSON objects are skipped.
package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crmem/crmem/internal/safefile"
)

// Session is one crabtalk session's use of archives.
type Session struct {
	Name     string   // the session folder's name
	Archives []string // archive names of its compact markers, in step order
	Resume   string   // archive its last compact marker names; "" if none or legacy
	// Unreadable counts its steps that could not be read: not a regular
	// file, over the cap, a link out of the sessions folder, an I/O error.
	// Its archives and resume point may then be incomplete.
	Unreadable int
}

// Refs indexes sessions by archive name.
type Refs struct {
	ReferencedBy map[string][]string // archive -> sessions with a marker naming it (sorted)
	ResumeOf     map[string][]string // archive -> sessions that resume from it (sorted)
}

// stepPrefix starts the name of every step file.
const stepPrefix = "step-"

// Read parses every session under dir. A missing dir yields no sessions and
// no error; unparsable steps are skipped. Sessions come in folder-name order.
func Read(dir string) ([]Session, error) {
	dirs, err := listSessions(dir)
	if err != nil {
		return nil, err
	}
	ss, _, err := readAll(dirs, nil)
	return ss, err
}

// sessionDir is one session folder, its modification time, and the
// sessions folder it is in (which its links must stay inside).
type sessionDir struct {
	path string
	mod  time.Time
	root string
}

// listSessions lists the session folders under dir in name order. A link
// is followed only to a folder inside dir (safefile.Inside): crabtalk
// writes session folders and steps as plain folders and files, so a link
// out of the sessions folder is someone else's, and following it would
// read whatever it names (another user's files, when crmem runs as root).
func listSessions(dir string) ([]sessionDir, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // every caller names the folder ("recalls in DIR")
		}
		return nil, fmt.Errorf("read sessions folder: %w", err)
	}
	var out []sessionDir
	for _, de := range ents {
		path := filepath.Join(dir, de.Name())
		if !de.IsDir() && de.Type()&fs.ModeSymlink == 0 {
			continue
		}
		if de.Type()&fs.ModeSymlink != 0 && !safefile.Inside(dir, path) {
			continue
		}
		fi, err := os.Stat(path)
		if err == nil && fi.IsDir() {
			out = append(out, sessionDir{path, fi.ModTime(), dir})
		}
	}
	return out, nil
}

// readAll reads sessions in parallel (the cost is system calls, one file
// per step), taking from reuse the ones it already knows. A session folder
// that vanishes meanwhile is left out; the folders read are returned with
// the sessions.
func readAll(dirs []sessionDir, reuse func(sessionDir) (Session, bool)) ([]Session, []sessionDir, error) {
	out := make([]Session, len(dirs))
	errs := make([]error, len(dirs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(len(dirs), readers) {
		wg.Go(func() {
			for i := range next {
				if s, ok := reuseOf(reuse, dirs[i]); ok {
					out[i] = s
					continue
				}
				out[i], errs[i] = readSession(dirs[i])
			}
		})
	}
	for i := range dirs {
		next <- i
	}
	close(next)
	wg.Wait()
	return keepRead(out, dirs, errs)
}

// readers bounds the goroutines reading session folders.
const readers = 8

func reuseOf(reuse func(sessionDir) (Session, bool), d sessionDir) (Session, bool) {
	if reuse == nil {
		return Session{}, false
	}
	return reuse(d)
}

// keepRead drops sessions that vanished and returns the first other error.
func keepRead(ss []Session, dirs []sessionDir, errs []error) ([]Session, []sessionDir, error) {
	var outS []Session
	var outD []sessionDir
	for i, s := range ss {
		switch {
		case errors.Is(errs[i], fs.ErrNotExist):
		case errs[i] != nil:
			return nil, nil, errs[i]
		default:
			outS, outD = append(outS, s), append(outD, dirs[i])
		}
	}
	return outS, outD, nil
}

// readSession walks one session's steps in order and collects its markers.
func readSession(d sessionDir) (Session, error) {
	path := d.path
	s := Session{Name: filepath.Base(path)}
	steps, odd, err := stepFiles(path)
	if err != nil {
		return s, err
	}
	s.Unreadable = odd
	sr := openSteps(d)
	defer sr.close()
	var buf []byte
	for _, name := range steps {
		data, err := sr.read(name, buf)
		buf = data[:0]
		if err != nil {
			s.Unreadable++ // skipped like an unparsable step, but counted
			continue
		}
		archive, isMarker := parseStep(data)
		if !isMarker {
			continue
		}
		if archive != "" {
			s.Archives = append(s.Archives, archive)
		}
		s.Resume = archive
	}
	return s, nil
}

// stepFiles lists a session's step files as crabtalk's load_session
// does (v0.0.22 crates/crabtalk/src/storage/fs/sessions.rs): every entry
// whose name begins with "step-" (a step-NNNNNN.tmp.PID.NANOS left by an
// interrupted atomic write too: crabtalk reads it as a step), in byte
// order of the names. Only files and links are listed (folders are left
// out: crabtalk could not read them); odd counts the other entries named
// like a step (a FIFO, socket or device: never opened).
func stepFiles(path string) (names []string, odd int, err error) {
	names, odd, _, err = listSteps(path, nil)
	return names, odd, err
}

// listSteps is stepFiles listing the folder through dir, the folder
// opened (nil: by its path): its entries unsorted (os.ReadDir sorts them
// through their interface, a fifth of listing 500 sessions of 120 steps),
// the names alone sorted; meta says whether the folder holds a file or a
// link named meta (sessionMetaIn).
func listSteps(path string, dir *safefile.Dir) (names []string, odd int, meta bool, err error) {
	if dir != nil {
		return listStepsIn(path, dir)
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil, 0, false, fmt.Errorf("read session %s: %w", filepath.Base(path), err)
	}
	names = make([]string, 0, len(ents))
	for _, de := range ents {
		switch {
		case de.Name() == "meta":
			meta = de.Type().IsRegular() || de.Type()&fs.ModeSymlink != 0
		case !strings.HasPrefix(de.Name(), stepPrefix) || de.IsDir():
		case de.Type().IsRegular() || de.Type()&fs.ModeSymlink != 0:
			names = append(names, de.Name())
		default:
			odd++
		}
	}
	slices.Sort(names)
	return names, odd, meta, nil
}

// listStepsIn is listSteps through dir (safefile.Dir.EachEntry): the
// names kept are copied into one text, not made a string each.
func listStepsIn(path string, dir *safefile.Dir) (names []string, odd int, meta bool, err error) {
	var text []byte
	var ends []int
	err = dir.EachEntry(func(name []byte, typ fs.FileMode) {
		switch {
		case string(name) == "meta":
			meta = typ.IsRegular() || typ&fs.ModeSymlink != 0
		case !bytes.HasPrefix(name, []byte(stepPrefix)) || typ.IsDir():
		case typ.IsRegular() || typ&fs.ModeSymlink != 0:
			text = append(text, name...)
			ends = append(ends, len(text))
		default:
			odd++
		}
	})
	if err != nil {
		return nil, 0, false, fmt.Errorf("read session %s: %w", filepath.Base(path), err)
	}
	all := string(text)
	names = make([]string, len(ends))
	start := 0
	for i, end := range ends {
		names[i] = all[start:end]
		start = end
	}
	slices.Sort(names)
	return names, odd, meta, nil
}

// marker is the part of a step document that matters here.
type marker struct {
	ArchiveName *string         `json:"archive_name"`
	Compact     json.RawMessage `json:"compact"`
}

// parseStep reports whether a step is a compact marker and which archive it
// names ("" for a legacy marker). Steps without either key are not decoded,
// so long conversation steps cost one byte scan.
func parseStep(data []byte) (archive string, isMarker bool) {
	if !bytes.Contains(data, []byte(`"archive_name"`)) && !bytes.Contains(data, []byte(`"compact"`)) {
		return "", false
	}
	var m marker
	if err := json.Unmarshal(data, &m); err != nil {
		return "", false
	}
	if m.ArchiveName != nil {
		return *m.ArchiveName, *m.ArchiveName != ""
	}
	return "", m.Compact != nil
}

// Index builds the archive -> sessions maps.
func Index(ss []Session) Refs {
	r := Refs{ReferencedBy: map[string][]string{}, ResumeOf: map[string][]string{}}
	for _, s := range ss {
		for _, a := range s.Archives {
			r.ReferencedBy[a] = appendOnce(r.ReferencedBy[a], s.Name)
		}
		if s.Resume != "" {
			r.ResumeOf[s.Resume] = appendOnce(r.ResumeOf[s.Resume], s.Name)
		}
	}
	for _, m := range []map[string][]string{r.ReferencedBy, r.ResumeOf} {
		for _, names := range m {
			slices.Sort(names)
		}
	}
	return r
}

// appendOnce appends name unless it is already there (a session naming the
// same archive twice is listed once).
func appendOnce(names []string, name string) []string {
	if slices.Contains(names, name) {
		return names
	}
	return append(names, name)
}

// Referenced reports how many sessions have a marker naming archive and
// whether any session resumes from it.
func (r Refs) Referenced(archive string) (sessions int, resume bool) {
	return len(r.ReferencedBy[archive]), len(r.ResumeOf[archive]) > 0
}

// Orphan reports whether no session's marker names archive.
func (r Refs) Orphan(archive string) bool { return len(r.ReferencedBy[archive]) == 0 }

// DefaultDir is the sessions folder next to a memory file.
func DefaultDir(memoryPath string) string {
	return filepath.Join(filepath.Dir(memoryPath), "sessions")
}
