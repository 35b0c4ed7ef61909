// Package safefile is the one way crmem opens a file it did not write: a
// session's steps and meta, the not-duplicates file, import sources, bench
// queries, the config and style files, a load tree's pages, an edited
// entry's file, and the memory file itself.
//
// Such a file may be anything a path can name. Open reads only a regular
// file, checked on the descriptor it opened (so what is read is what was
// checked, whatever is swapped in meanwhile); opening never blocks (a FIFO
// would wait for a writer forever) and never makes a terminal the
// process's controlling terminal; a folder, FIFO, socket or device fails
// at once with ErrNotRegular, before a byte is read. With a cap, a larger
// file fails at once with a *TooLargeError naming the file and the cap,
// and no more than the cap is ever read (a file growing while read).
// With a root (Options.Within), a symbolic link is followed only when
// what it leads to stays inside the root.
//
// # Every reader
//
// Each place crmem opens a file it did not write, and how (Options in
// brackets; "no cap" where the file is the memory itself, which may be
// any size and is mapped):
//
//	store.OpenRegular (ReadFile, ReadFileInfo, readState, fingerprintOf, MapFile)  Open [no cap]: the memory file, crabtalk's store
//	store/crabdb.OpenSource, Source.Reload, cli import --from crabdb               store.OpenRegular [no cap]
//	store.(*DB).displaced (another writer's file met during a swap)                Open [no cap]
//	store/sessions.readSession (archive references: check, lint, rm, the TUI)      Dir.ReadInto [Within the sessions folder, 64 MiB "session step"]
//	store/sessions.readSessionRecalls (recalls, stats, --why, the TUI's N×)        Dir.ReadInto [Within the sessions folder, 64 MiB "session step"]
//	store/sessions.sessionAgent (a session's meta)                                 ReadFile [Within the sessions folder, 1 MiB "session meta file"]
//	store/sessions.agentLimits (crabtalk's local/settings.toml)                    ReadFile [1 MiB "settings file"]
//	store/sessions.listSessions (a session folder that is a link)                  Inside (the same rule as Within)
//	store/hygiene.LoadNotDuplicates (lint, the findings view)                      ReadFile [1 MiB "not-duplicates file"]
//	face/config.readCapped (the config file, a glamour style file)             ReadFile [1 MiB "config file", 256 KiB "style file"]
//	face/editor.(*Session).Finish (the file $EDITOR saved)                     ReadFile [64 MiB, or twice the entry, "edited entry file"]
//	face/editor.removeIfStale (a stale edit folder's sum and file)             ReadFile [NoFollow, 1 KiB "edit sum", 256 MiB]
//	export.(*tree).readFile (load and legacy import pages)                          ReadFileInfo [NoFollow, 64 MiB "page"]
//	export.detectFile (the first line of an import source)                         Open [no cap; at most 1 MiB is read]
//	cli.(*app).readJSONLInput (import FILE, import -)                              Open and CapReader [1 GiB "JSON lines import"]
//	cli.loadQueries (bench --queries)                                              ReadFile [64 MiB "queries file"]
//	cli.(*app).content (add NAME -, standard input)                                ReadAll [64 MiB "entry on standard input"]
//	cli.readNames (rm -, standard input)                                           CapReader [64 MiB "list of names on standard input"]
//	store/owner.(*Proof).tryPort (crabtalkd's run/crabtalk.port)                   ReadFile [64 bytes "port file"]
//
// Not through it: /dev/tty (cli's terminal check, opened on purpose),
// /proc/self/maps and /proc/self/status (the kernel's), /proc/PID/fd,
// fdinfo, maps, smaps, stat and comm (store/owner's scan, the kernel's),
// crabtalk's store opened by store/owner to ask for a lease (read-only,
// non-blocking, never read, checked to be the file stat'ed), the demo's own
// copy (written by crmem), glamour's style readers (crmem never calls
// them with a path: tui reads a style file with config.ReadStyleFile).
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNotRegular is returned (in an *fs.PathError) when a path leads, after
// symbolic links, to anything but a regular file: a folder, FIFO, socket
// or device.
var ErrNotRegular = errors.New("not a regular file")

// ErrOutside is returned (in an *fs.PathError) when a symbolic link leads
// out of the folder it must stay in (Options.Within).
var ErrOutside = errors.New("a link out of its folder")

// ErrLink is returned (in an *fs.PathError) for a symbolic link where
// Options.NoFollow refuses one.
var ErrLink = errors.New("a symbolic link")

// Options says how a file is opened. The zero value opens any regular
// file, following links, with no cap.
type Options struct {
	// Limit is the largest file read, in bytes; 0 is no cap.
	Limit int64
	// What names the kind of file in the cap's message ("config file").
	What string
	// Within, when not "", is a folder a link must stay inside: a path
	// whose last element is a symbolic link is opened only if its target,
	// all links resolved, lies inside Within (itself resolved).
	Within string
	// NoFollow refuses a path whose last element is a symbolic link.
	NoFollow bool
}

// TooLargeError is a file over its cap.
type TooLargeError struct {
	Size  int64  // the file's size, or -1 for a stream read past Limit
	Limit int64  // the cap
	What  string // the kind of file ("session step")
}

// Error is "too large: 52,428,800 bytes (a config file holds at most 1 MiB)".
func (e *TooLargeError) Error() string {
	size := "more than " + CapText(e.Limit)
	if e.Size >= 0 {
		size = groupDigits(e.Size) + " bytes"
	}
	what := e.What
	if what == "" {
		what = "file"
	}
	return fmt.Sprintf("too large: %s (%s %s holds at most %s)", size, article(what), what, CapText(e.Limit))
}

// article is "a" or "an" for word.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// CapText writes a cap in bytes, KiB, MiB or GiB, the largest that is whole.
func CapText(n int64) string {
	for _, u := range []struct {
		shift uint
		unit  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + " " + u.unit
		}
	}
	return groupDigits(n) + " bytes"
}

// groupDigits is n with thousands separators: 10,737,418,240.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Open opens path for reading if it is a regular file (after links, as
// o allows) within o's cap, and returns the stat of the opened descriptor.
// A missing file fails with an error matching fs.ErrNotExist; anything
// else but a regular file with ErrNotRegular; a file over the cap with a
// *TooLargeError; every error is an *fs.PathError naming path.
func Open(path string, o Options) (*os.File, fs.FileInfo, error) {
	f, err := openFile(path, o)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := o.check(path, fi); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// check refuses what fi describes unless it is a regular file within the
// cap.
func (o Options) check(path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if o.Limit > 0 && fi.Size() > o.Limit {
		return &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: fi.Size(), Limit: o.Limit, What: o.What}}
	}
	return nil
}

// ReadFile reads the file at path as Open opens it: no more than o.Limit
// bytes are read, even from a file that grows while read.
func ReadFile(path string, o Options) ([]byte, error) {
	data, _, err := ReadFileInfo(path, o)
	return data, err
}

// ReadFileInfo is ReadFile that also returns the stat of the descriptor
// it read (taken before reading).
func ReadFileInfo(path string, o Options) ([]byte, fs.FileInfo, error) {
	f, fi, err := Open(path, o)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := readOpen(f, path, fi.Size(), o)
	if err != nil {
		return nil, nil, err
	}
	return data, fi, nil
}

// readOpen reads f whose stat said size, to at most o.Limit bytes.
func readOpen(f *os.File, path string, size int64, o Options) ([]byte, error) {
	var r io.Reader = f
	if o.Limit > 0 {
		r = io.LimitReader(f, o.Limit+1)
	}
	buf := make([]byte, 0, size+1) // one read for a file that did not grow
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
	if o.Limit > 0 && int64(len(buf)) > o.Limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: -1, Limit: o.Limit, What: o.What}}
	}
	return buf, nil
}

// ReadAll reads a stream the user chose (standard input) to at most limit
// bytes: more fails with a *TooLargeError in an *fs.PathError naming
// name ("stdin").
func ReadAll(r io.Reader, name string, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(CapReader(r, name, limit, what))
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = &fs.PathError{Op: "read", Path: name, Err: err}
		}
		return nil, err
	}
	return data, nil
}

// CapReader reads r until limit bytes have been read; reading past them
// fails with a *TooLargeError in an *fs.PathError naming name, so a
// stream parsed as it is read (import -) is bounded too.
func CapReader(r io.Reader, name string, limit int64, what string) io.Reader {
	return &capReader{r: r, left: limit, name: name, limit: limit, what: what}
}

type capReader struct {
	r           io.Reader
	left, limit int64
	name, what  string
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, &fs.PathError{Op: "read", Path: c.name, Err: &TooLargeError{Size: -1, Limit: c.limit, What: c.what}}
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1] // one byte past the cap tells a stream that ends there from one that goes on
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return 0, &fs.PathError{Op: "read", Path: c.name, Err: &TooLargeError{Size: -1, Limit: c.limit, What: c.what}}
	}
	return n, err
}

// Inside reports whether path, all links resolved, lies inside root (also
// resolved) or is root itself. An error resolving either is false.
func Inside(root, path string) bool {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(r, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolveLink is what a path whose last element is a link may be opened
// as under o: its resolved target when o.Within allows it.
func resolveLink(path string, o Options) (string, error) {
	if o.NoFollow {
		return "", &fs.PathError{Op: "open", Path: path, Err: ErrLink}
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if !Inside(o.Within, target) {
		return "", &fs.PathError{Op: "open", Path: path, Err: ErrOutside}
	}
	return target, nil
}
