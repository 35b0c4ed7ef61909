//go:build linux

package owner

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// pfKthread is PF_KTHREAD in /proc/PID/stat's flags: a kernel thread,
// which holds no files.
const pfKthread = 0x00200000

// scan looks at every other process's open descriptors and mappings for
// the file fi describes, compared by device and inode (robust to paths,
// links and bind mounts: /proc/PID/fd/N is stat'ed through to its target).
// It stops at the first process that can write the file. A process that
// ends meanwhile is not counted; one whose descriptors cannot be read is
// counted as unreadable.
func (s scanner) scan(fi fs.FileInfo) (scanResult, error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return scanResult{}, errNoProc
	}
	target := newFileID(fi, st)
	d, err := os.Open(s.proc)
	if errors.Is(err, fs.ErrNotExist) {
		return scanResult{}, errNoProc
	}
	if err != nil {
		return scanResult{}, fmt.Errorf("list processes: %w", err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return scanResult{}, fmt.Errorf("list processes: %w", err)
	}
	if !slices.Contains(names, strconv.Itoa(s.self)) {
		// Not mounted, or another pid namespace's: what it lists is not
		// what this process shares a machine with.
		return scanResult{}, fmt.Errorf("%w (%s does not list this process)", errNoProc, s.proc)
	}
	pids := make([]int, 0, len(names))
	for _, name := range names {
		if pid, err := strconv.Atoi(name); err == nil && pid > 0 && pid != s.self {
			pids = append(pids, pid)
		}
	}
	res := s.scanPids(pids, target)
	res.hidden = s.hidden()
	return res, nil
}

// hidden returns /proc's hidepid option when it hides other users'
// processes from this one ("invisible", "2", "ptraceable", "4": they are
// not listed at all), else "". Root is taken to see them.
func (s scanner) hidden() string {
	if s.euid == 0 {
		return ""
	}
	data, err := os.ReadFile(s.proc + "/" + strconv.Itoa(s.self) + "/mountinfo")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		// id parent major:minor root mountpoint options [optional…] - fstype source superoptions
		f := strings.Fields(line)
		sep := slices.Index(f, "-")
		if len(f) < 5 || sep < 0 || sep+3 >= len(f) || f[4] != s.proc || f[sep+1] != "proc" {
			continue
		}
		for opt := range strings.SplitSeq(f[sep+3], ",") {
			switch v, _ := strings.CutPrefix(opt, "hidepid="); v {
			case "2", "invisible", "4", "ptraceable":
				return opt
			}
		}
	}
	return ""
}

// scanPids looks at the processes in pids in two passes, their
// descriptors and then, when none writes the file, their mappings (a
// daemon holding it open is named at less cost: the mappings are most of
// a scan's time, the kernel writing them out). The processes unread and
// the readers come in pid order.
func (s scanner) scanPids(pids []int, target fileID) scanResult {
	state := make([]procState, len(pids))
	writer := s.each(pids, func(i int, buf *[]byte) *RunningError {
		return s.descriptorsOf(pids[i], target, &state[i], buf)
	})
	if writer == nil {
		writer = s.each(pids, func(i int, buf *[]byte) *RunningError {
			if state[i].done {
				return nil
			}
			return s.mappingsOf(pids[i], target, &state[i], buf)
		})
	}
	res := scanResult{writer: writer}
	for i, st := range state {
		switch {
		case st.gone:
		case st.unreadable:
			res.unreadable = append(res.unreadable, pids[i])
		default:
			res.processes++
			if st.reader != nil {
				st.reader.Name, st.reader.Exe = processNameIn(s.proc, pids[i])
				res.readers = append(res.readers, *st.reader)
			}
		}
	}
	return res
}

// procState is what a scan learned of one process.
type procState struct {
	gone       bool    // it ended meanwhile: not counted
	unreadable bool    // its descriptors or mappings could not be read
	done       bool    // nothing more to look at (gone, unreadable, a kernel thread)
	reader     *Holder // it holds the file only to read
}

// each runs f on the indices of pids with up to maxWorkers workers (a few
// thousand processes take tens of milliseconds on one core), each with
// its own buffer, and stops at the first writer f returns (of those found
// by then, the lowest pid's).
func (s scanner) each(pids []int, f func(i int, buf *[]byte) *RunningError) *RunningError {
	workers := min(runtime.GOMAXPROCS(0), maxWorkers, 1+len(pids)/64)
	if len(s.busy) < workers {
		s.busy = make([]atomic.Int64, workers)
	}
	found := make([]*RunningError, workers)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			busy := &s.busy[w]
			defer busy.Store(0)
			buf := make([]byte, 64<<10)
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(pids) {
					return
				}
				busy.Store(int64(pids[i]))
				if e := f(i, &buf); e != nil {
					found[w] = e
					stop.Store(true)
					return
				}
			}
		})
	}
	wg.Wait()
	var first *RunningError
	for _, e := range found {
		if e != nil && (first == nil || e.PID < first.PID) {
			first = e
		}
	}
	return first
}

// descriptorsOf looks at one process's descriptors: a writer, or what it
// learned in st.
func (s scanner) descriptorsOf(pid int, target fileID, st *procState, buf *[]byte) *RunningError {
	dir := s.proc + "/" + strconv.Itoa(pid)
	fds, err := s.descriptors(dir, target)
	switch {
	case gone(err):
		st.gone, st.done = true, true
		return nil
	case err != nil:
		st.unreadable, st.done = !s.kernelThread(dir), true
		return nil
	}
	for _, fd := range fds {
		switch writes, known := s.fdWrites(dir, fd, buf); {
		case writes:
			return s.holderError(pid, fd, !known)
		case st.reader == nil:
			st.reader = &Holder{PID: pid, FD: fd}
		}
	}
	return nil
}

// mappingsOf looks at one process's mappings: a writer, or what it
// learned in st.
func (s scanner) mappingsOf(pid int, target fileID, st *procState, buf *[]byte) *RunningError {
	found, writes, mapping, err := s.mapped(s.proc+"/"+strconv.Itoa(pid), target, buf)
	switch {
	case gone(err):
		st.gone = true
	case err != nil:
		st.unreadable = true
	case writes:
		e := s.holderError(pid, -1, false)
		e.Mapped = true
		return e
	case found && st.reader == nil:
		st.reader = &Holder{PID: pid, FD: -1, Mapping: mapping}
	}
	return nil
}

// leaseSays asks the kernel whether any process has the file at path
// open for writing: it grants a read lease (fcntl F_SETLEASE, F_RDLCK)
// only while none has (inode_is_open_for_write: a descriptor opened for
// writing, or a mapping made from one, in any process of any user or
// namespace, this one included). The lease is given back at once. ok is
// false when there is no answer: not the file's owner (without
// CAP_LEASE), a filesystem without leases, leases turned off, or the file
// at path is no longer the one fi describes; the scan decides then.
func leaseSays(path string, fi fs.FileInfo) (nobodyWrites, ok bool) {
	// O_NONBLOCK: an open never waits, on a FIFO put in the store's place
	// or on another process's lease.
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return false, false
	}
	if want, ok := fi.Sys().(*syscall.Stat_t); !ok || uint64(st.Dev) != uint64(want.Dev) || uint64(st.Ino) != uint64(want.Ino) {
		return false, false
	}
	switch _, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK); err {
	case nil:
		unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_UNLCK)
		return true, true
	case unix.EAGAIN:
		return false, true
	}
	return false, false
}

// selfWrites reports whether this process has the file fi describes open
// for writing, or mapped so that it can write it: then a refused lease
// says nothing about any other process. Without this process's /proc
// entry it cannot tell, and says no: the lease's refusal is then taken to
// be another process's.
func (s scanner) selfWrites(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	target := newFileID(fi, st)
	dir := s.proc + "/" + strconv.Itoa(s.self)
	var buf []byte
	fds, err := s.descriptors(dir, target)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if writes, _ := s.fdWrites(dir, fd, &buf); writes {
			return true
		}
	}
	_, writes, _, _ := s.mapped(dir, target, &buf)
	return writes
}

// newFileID is the file fi describes, st its stat, as a scan looks for it.
func newFileID(fi fs.FileInfo, st *syscall.Stat_t) fileID {
	ino := strconv.FormatUint(uint64(st.Ino), 10)
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino), fi: fi, inoText: ino, needle: []byte(" " + ino + " ")}
}

// fileID is the file looked for: its device and inode, and its stat for
// a mapping whose device the kernel shows otherwise (overlayfs, btrfs).
type fileID struct {
	dev, ino uint64
	fi       fs.FileInfo
	inoText  string // the inode as maps shows it
	needle   []byte // " inode ", as a maps line has it
}

// holderError is the *RunningError for pid holding the file at fd (-1: a
// mapping).
func (s scanner) holderError(pid, fd int, modeUnknown bool) *RunningError {
	h := Holder{PID: pid, FD: fd}
	h.Name, h.Exe = processNameIn(s.proc, pid)
	return &RunningError{Holder: h, ModeUnknown: modeUnknown}
}

// descriptors returns the process's descriptors open on the target file.
// One descriptor's stat failing other than by its closing makes the
// process unreadable: the file may be behind it.
func (s scanner) descriptors(dir string, target fileID) ([]int, error) {
	fdDir := dir + "/fd"
	dfd, err := unix.Open(fdDir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dfd), fdDir)
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	var out []int
	var st unix.Stat_t
	for _, n := range names {
		err := unix.Fstatat(dfd, n, &st, 0)
		switch {
		case err == nil:
		case errors.Is(err, unix.ENOENT):
			continue // closed meanwhile
		default:
			return nil, err
		}
		if uint64(st.Dev) == target.dev && uint64(st.Ino) == target.ino {
			fd, err := strconv.Atoi(n)
			if err == nil {
				out = append(out, fd)
			}
		}
	}
	return out, nil
}

// fdWrites reports whether the descriptor was opened for writing
// (/proc/PID/fdinfo/N's flags): known is false when they could not be
// read, and the descriptor is then taken to write.
func (s scanner) fdWrites(dir string, fd int, buf *[]byte) (writes, known bool) {
	data, err := readInto(dir+"/fdinfo/"+strconv.Itoa(fd), buf)
	if err != nil {
		return true, false
	}
	for line := range strings.Lines(string(data)) {
		v, ok := strings.CutPrefix(line, "flags:")
		if !ok {
			continue
		}
		flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
		if err != nil {
			return true, false
		}
		return flags&unix.O_ACCMODE != unix.O_RDONLY, true
	}
	return true, false
}

// mapped looks through the process's mappings for the target file: found
// any, and whether one can write it. A private mapping never writes the
// file; a shared one can when it is writable, or when it may be made so
// (smaps' VmFlags "mw": its file was opened for writing). mapping is the
// one found, as "address perms" (a writable one rather than another).
func (s scanner) mapped(dir string, target fileID, buf *[]byte) (found, writes bool, mapping string, err error) {
	data, err := readInto(dir+"/maps", buf)
	if err != nil {
		return false, false, "", err
	}
	if !bytes.Contains(data, target.needle) {
		return false, false, "", nil
	}
	for line := range strings.Lines(string(data)) {
		m, ok := parseMapsLine(line)
		if !ok || m.ino != target.inoText || !target.matches(m) {
			continue
		}
		// The first mapping, or a writable one, names how it is held.
		if !found || m.perms[1] == 'w' && !strings.Contains(mapping, "w") {
			mapping = m.addr + " " + m.perms
		}
		found = true
		switch {
		case m.perms[3] != 's':
		case m.perms[1] == 'w' || s.mayWrite(dir, m.addr, buf):
			return true, true, m.addr + " " + m.perms, nil
		}
	}
	return found, false, mapping, nil
}

// mapsLine is the part of a /proc/PID/maps line the scan reads.
type mapsLine struct {
	addr, perms, dev, ino, path string
}

// parseMapsLine splits "addr perms offset dev inode   path".
func parseMapsLine(line string) (mapsLine, bool) {
	line = strings.TrimSuffix(line, "\n")
	var f [5]string
	rest := line
	for i := range f {
		rest = strings.TrimLeft(rest, " ")
		var ok bool
		f[i], rest, ok = strings.Cut(rest, " ")
		if !ok && i < 4 {
			return mapsLine{}, false
		}
	}
	if len(f[1]) != 4 {
		return mapsLine{}, false
	}
	return mapsLine{addr: f[0], perms: f[1], dev: f[3], ino: f[4], path: strings.TrimLeft(rest, " ")}, true
}

// matches reports whether a mapping with the target's inode number is of
// the target: the same device, or, where the kernel shows a mapping's
// device other than stat does (overlayfs, btrfs subvolumes), the same file
// at the path shown.
func (t fileID) matches(m mapsLine) bool {
	majS, minS, ok := strings.Cut(m.dev, ":")
	if ok {
		maj, err1 := strconv.ParseUint(majS, 16, 32)
		min, err2 := strconv.ParseUint(minS, 16, 32)
		if err1 == nil && err2 == nil && unix.Mkdev(uint32(maj), uint32(min)) == t.dev {
			return true
		}
	}
	path := strings.TrimSuffix(m.path, " (deleted)")
	if !strings.HasPrefix(path, "/") {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, t.fi)
}

// mayWrite reports whether the mapping at addr may be made writable
// (smaps' VmFlags has "mw"); when smaps cannot be read, it is taken to.
func (s scanner) mayWrite(dir, addr string, buf *[]byte) bool {
	data, err := readInto(dir+"/smaps", buf)
	if err != nil {
		return true
	}
	in := false
	for line := range strings.Lines(string(data)) {
		switch {
		case strings.HasPrefix(line, addr+" "):
			in = true
		case in && strings.HasPrefix(line, "VmFlags:"):
			return slices.Contains(strings.Fields(line[len("VmFlags:"):]), "mw")
		}
	}
	return true
}

// kernelThread reports whether the process is a kernel thread (its stat's
// flags have PF_KTHREAD): an unprivileged user may not read its
// descriptors, and it holds none.
func (s scanner) kernelThread(dir string) bool {
	data, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(string(data[i+1:])) // state ppid pgrp session tty tpgid flags …
	if len(f) < 7 {
		return false
	}
	flags, err := strconv.ParseUint(f[6], 10, 64)
	return err == nil && flags&pfKthread != 0
}

// readInto reads the file at path into *buf, grown as needed, and
// returns what it read (valid until the next read into *buf): the /proc
// files a scan reads are many and small, and have no size to stat.
func readInto(path string, buf *[]byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	b := (*buf)[:0]
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, max(cap(b), 4096))
		}
		n, err := unix.Read(fd, b[len(b):cap(b)])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			*buf = b
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			*buf = b
			return b, nil
		}
		b = b[:len(b)+n]
	}
}

// gone reports whether err says the process (or its descriptor) ended
// meanwhile.
func gone(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ESRCH) || errors.Is(err, fs.ErrNotExist)
}

// processNameIn reads pid's name (comm) and executable from the /proc at
// proc, each "" when it cannot be read.
func processNameIn(proc string, pid int) (name, exe string) {
	dir := proc + "/" + strconv.Itoa(pid)
	if b, err := os.ReadFile(dir + "/comm"); err == nil {
		name = strings.TrimSuffix(string(b), "\n")
	}
	exe, _ = os.Readlink(dir + "/exe")
	return name, exe
}

// processName reads pid's name and executable from /proc.
func processName(pid int) (name, exe string) { return processNameIn("/proc", pid) }

// peerPIDOf is the pid SO_PEERCRED gives for the socket fd.
func peerPIDOf(fd int) (int, bool) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return 0, false
	}
	return int(cred.Pid), true
}
