// Package owner proves, before crmem writes crabtalk's store, that nobody
// else is writing it.
//
// crabtalk's daemon, crabtalkd, owns its store while it runs: it opens
// store.crmem for reading and writing once (crabdb's CrabDb::open), appends
// at an offset it keeps in memory and compacts from its in-memory index,
// so a record written beside it is lost or corrupts the file. The daemon
// listens on run/crabtalk.sock in its home folder ($CRABTALK_HOME, else
// ~/.crabtalk; the store is store.crmem in the same folder) until SIGTERM
// or SIGINT, and on the way out removes the socket before its last
// checkpoint of the store (crabtalk's apps/agent/src/daemon.rs): so a
// socket that refuses is not proof on its own. Check adds the other half,
// on Linux: no other process has the store open for writing. The kernel
// says whether any process has (it grants a read lease only then); the
// scan of /proc/*/fd, and /proc/*/maps for a mapping without a
// descriptor, says which, or decides where the kernel does not answer.
// Where there is neither (not Linux), the daemon's TCP port, in
// run/crabtalk.port beside its socket, is tried as well: on Windows the
// daemon binds no socket.
//
// The socket Check is given is the one in crabtalk's home; the one in the
// folder that holds the store (its links resolved) is tried as well, for
// a daemon whose home is wherever the store is.
//
// What was checked is kept in a Proof, whose String is the line a user
// reads; a daemon found running is a *RunningError naming it and how to
// stop it. No message says to kill a process: one that may be writing the
// store must end on its own, or its write is cut short.
package owner

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/crmem/crmem/internal/safefile"
)

// scanTimeout bounds the look at the processes' open files: a stat of a
// descriptor on a mount that does not answer (NFS, say) can block, and
// Check must not.
const scanTimeout = 2 * time.Second

// dialTimeout bounds the connection attempt on the daemon's socket: a
// listener that neither accepts nor refuses must not hold up the caller.
const dialTimeout = 200 * time.Millisecond

// Socket is where the crabtalk daemon owning the store at storePath
// listens: run/crabtalk.sock in the store's folder, crabtalk's home (its
// transport::SOCKET_PATH and the store's STORE_PATH both hang off it).
// A store copied elsewhere has no daemon's socket beside it.
func Socket(storePath string) string {
	return filepath.Join(filepath.Dir(storePath), "run", "crabtalk.sock")
}

// SocketState is what the daemon's socket path held when it was tried.
type SocketState int

const (
	// SocketSkipped: no socket path was given.
	SocketSkipped SocketState = iota
	// SocketMissing: nothing is at the path.
	SocketMissing
	// SocketRefused: a socket is there, and a connection to it was
	// refused (left behind by a daemon that did not remove it).
	SocketRefused
	// SocketNotSocket: something other than a socket is at the path
	// (Proof.SocketKind says what); it is never opened.
	SocketNotSocket
)

// Holder is a process holding the store: its pid, its name and executable
// where they could be read, and the descriptor (-1 for a mapping with no
// descriptor).
type Holder struct {
	PID  int
	Name string // /proc/PID/comm; "" when unknown
	Exe  string // /proc/PID/exe's target; "" when unknown
	FD   int
	// Mapping is the mapping by which a process with no descriptor holds
	// the file, as /proc/PID/maps shows it ("7f3a…-7f3b… rw-p"); "" for a
	// descriptor.
	Mapping string
}

// String is the holder as a user reads it: "crabtalkd (pid 4242)".
func (h Holder) String() string { return h.describe(false) }

// describe is the holder with its descriptor when withFD: "crabtalkd
// (pid 4242, fd 7)".
func (h Holder) describe(withFD bool) string {
	name := h.Name
	if name == "" && h.Exe != "" {
		name = filepath.Base(h.Exe)
	}
	var in []string
	if h.PID != 0 {
		in = append(in, "pid "+strconv.Itoa(h.PID))
	}
	if withFD && h.FD >= 0 {
		in = append(in, "fd "+strconv.Itoa(h.FD))
	}
	switch {
	case name == "" && len(in) == 0:
		return "a process"
	case name == "":
		return strings.Join(in, ", ")
	case len(in) == 0:
		return name
	}
	return name + " (" + strings.Join(in, ", ") + ")"
}

// Proof says how Check proved that no other process writes the store.
//
// A partial proof allows the write, and says that it was partial. It comes
// only from the scan, where the kernel gave no answer (the store is not
// this user's, or its file system has no leases), or from the socket alone
// where there is no /proc. What it leaves unseen is the open files of the
// processes this user may not read: other users' (root's daemons, mostly)
// or ones made undumpable. The socket was still tried, and a running
// crabtalkd answers on it; what a partial proof can miss is another user's
// daemon in the moment between removing its socket and its last
// checkpoint. A store's owner runs the daemon that writes it, and on their
// own store the kernel answers, in full; refusing every partial proof
// would refuse a user writing a store they may write but do not own, for
// root's unrelated processes. So the partial proof allows the write, and
// its line says what was not seen and how to see it (run as their user,
// or as root).
type Proof struct {
	Store       string      // the store's path, as given
	Socket      string      // the socket's path, as given; "" when not tried
	SocketState SocketState // what the socket path held
	SocketKind  string      // what is at Socket when SocketState is SocketNotSocket: "a regular file"

	// Beside is the daemon's socket in the store's own folder (its links
	// resolved), tried as well when it is not Socket: a daemon whose home
	// is the store's folder listens there, whatever $CRABTALK_HOME says
	// ("" when not tried). BesideState and BesideKind are what it held.
	Beside      string
	BesideState SocketState
	BesideKind  string

	// FilesChecked says whether the processes' open files were looked at
	// (Linux's /proc); FilesWhyNot says why not.
	FilesChecked bool
	FilesWhyNot  string
	// Processes is how many processes' open files were read (this process
	// not counted; a kernel thread counts, holding none).
	Processes int
	// Unreadable are the processes whose open files could not be read
	// (permission), by pid.
	Unreadable []int
	// Hidden is /proc's mount option that keeps other users' processes
	// out of its listing ("hidepid=invisible"), "" when none does.
	Hidden string
	// Readers hold the store open only to read (a descriptor opened
	// read-only, a private or read-only shared mapping): they cannot
	// write it, and do not stop a write.
	Readers []Holder

	// Port is the TCP port in run/crabtalk.port beside the socket, which
	// refused a connection; tried only where open files could not be
	// checked (0: not tried, or no port file).
	Port int

	// Lease says that the kernel vouched that no process, this one
	// included, has the store open for writing (Linux grants a read lease
	// on a file only then, whoever the process and wherever it runs):
	// the proof is full however many processes could not be read.
	Lease bool

	// Partial says that some processes' open files, or all, were not seen.
	Partial bool
}

// String is the proof in one line: "crabtalk is not running:
// run/crabtalk.sock refuses connections and no other process has
// store.crmem open (212 processes checked)".
func (p Proof) String() string {
	var parts []string
	if s := p.socketClause(); s != "" {
		parts = append(parts, s)
	}
	if p.Port != 0 {
		parts = append(parts, "its port "+strconv.Itoa(p.Port)+" (run/crabtalk.port) refuses connections")
	}
	switch {
	case p.Lease:
		parts = append(parts, "no process has "+filepath.Base(p.Store)+" open for writing")
	case p.FilesChecked:
		open := "open"
		if len(p.Readers) > 0 {
			open = "open for writing"
		}
		parts = append(parts, "no other process has "+filepath.Base(p.Store)+" "+open)
	}
	line := "crabtalk is not running: " + strings.Join(parts, " and ")
	var notes []string
	switch {
	case p.Lease:
		notes = append(notes, "the kernel granted a read lease on it")
	case p.FilesChecked:
		notes = append(notes, plural(p.Processes, "process", "processes")+" checked")
		if len(p.Readers) > 0 {
			notes = append(notes, readersNote(p.Readers))
		}
		if n := len(p.Unreadable); n > 0 {
			notes = append(notes, strconv.Itoa(n)+" could not be read — run as their user or root for a full check")
		}
		if p.Hidden != "" {
			notes = append(notes, "other users' processes are hidden ("+p.Hidden+") — run as root for a full check")
		}
	default:
		notes = append(notes, "open files not checked: "+p.FilesWhyNot)
	}
	return line + " (" + strings.Join(notes, "; ") + ")"
}

// socketClause is what the sockets said: "run/crabtalk.sock refuses
// connections"; "" when none was tried.
func (p Proof) socketClause() string {
	said := socketSaid(p.socketName(), p.SocketState, p.SocketKind)
	if p.Beside == "" {
		return said
	}
	beside := Proof{Store: p.Store, Socket: p.Beside}
	return said + " and " + socketSaid(beside.socketName(), p.BesideState, p.BesideKind)
}

// socketSaid is what the socket at name held, as the proof says it.
func socketSaid(name string, state SocketState, kind string) string {
	switch state {
	case SocketMissing:
		return "there is no " + name
	case SocketRefused:
		return name + " refuses connections"
	case SocketNotSocket:
		return name + " is " + kind + ", not a socket"
	}
	return ""
}

// besideSocket is the daemon's socket in the folder that really holds the
// store at storePath: its links resolved and made absolute, so a store
// reached through a link or a relative path is checked where it lies.
func besideSocket(storePath string) string {
	real, err := filepath.EvalSymlinks(storePath)
	if err != nil {
		real = storePath
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	return Socket(real)
}

// sameFile reports whether paths a and b name the same place once their
// folders' links are resolved (the files need not exist).
func sameFile(a, b string) bool {
	resolve := func(p string) string {
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			dir = filepath.Dir(p)
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		return filepath.Join(dir, filepath.Base(p))
	}
	return resolve(a) == resolve(b)
}

// socketName is the socket's path as shown: run/crabtalk.sock when it is
// the one beside the store, else the path as given.
func (p Proof) socketName() string {
	if filepath.Clean(p.Socket) == Socket(p.Store) {
		return filepath.Join("run", "crabtalk.sock")
	}
	return p.Socket
}

// readersNote names the processes reading the store: "1 has it open only
// to read: less (pid 77)".
func readersNote(rs []Holder) string {
	const shown = 3
	names := make([]string, 0, shown)
	for i, r := range rs {
		if i == shown {
			names = append(names, "…")
			break
		}
		names = append(names, r.String())
	}
	verb := "have"
	if len(rs) == 1 {
		verb = "has"
	}
	return fmt.Sprintf("%d %s it open only to read: %s", len(rs), verb, strings.Join(names, ", "))
}

// plural is n and the noun for n: "1 process", "212 processes".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// RunningError says that another process writes the store: the daemon
// answers on its socket, or a process has the store open for writing. Its
// message is one line naming the process (pid where known) and how to
// stop it.
type RunningError struct {
	Store  string // the store's path
	Socket string // the socket that answered (or beside the port that did); "" when a holder was found instead
	Port   int    // the TCP port that answered, from run/crabtalk.port; 0 when not
	Holder        // who: the socket's listener (FD -1), or the holder of the store
	// Mapped says the store is mapped for writing, with no descriptor.
	Mapped bool
	// ModeUnknown says the descriptor's mode could not be read; it is
	// taken to be open for writing.
	ModeUnknown bool
	// Unseen says the kernel has the store open for writing in a process
	// the scan did not see: another user's it could not read (Unreadable
	// of them), or one in another container, outside this /proc.
	Unseen     bool
	Unreadable int
	// Root says the scan ran as root, so asking to run as root would not
	// show more.
	Root bool
	// Mappers are the processes seen mapping the store without a
	// descriptor (Holder.Mapping) when Unseen: a mapping made from a
	// descriptor opened for writing keeps the file open for writing after
	// the descriptor is closed, even a private one that cannot change the
	// file, so they are where the kernel's writer most likely is.
	Mappers []Holder
}

// Error is the one line: "store.crmem is open for writing in crabtalkd
// (pid 4242, fd 7); not written: stop crabtalk's daemon first (ctrl-c
// where it runs; it finishes its writes and exits)". It never says to kill
// the process: one that may be writing the store must end on its own
// terms, or its write is cut short.
func (e *RunningError) Error() string {
	if e.Port != 0 {
		return "crabtalk may be running: something answers on 127.0.0.1:" + strconv.Itoa(e.Port) +
			", its port in run/crabtalk.port; " + e.stop() + " (if crabtalkd does not run, remove run/crabtalk.port)"
	}
	if e.Socket != "" {
		p := Proof{Store: e.Store, Socket: e.Socket}
		who := "its daemon"
		if e.PID != 0 || e.Name != "" {
			who = e.Holder.String()
		}
		return "crabtalk is running: " + who + " answers on " + p.socketName() + "; " + e.stop()
	}
	store := filepath.Base(e.Store)
	if e.Unseen {
		if len(e.Mappers) > 0 {
			return "the kernel says " + store + " is open for writing, and what holds it is a mapping: " + mappersNote(e.Mappers) +
				" (a mapping made from a descriptor opened for writing keeps the file open for writing, even a private one); not written while it is mapped"
		}
		where := "another user's, or in another container"
		switch {
		case e.Unreadable > 0 && e.Root:
			where = plural(e.Unreadable, "process", "processes") + " could not be read, even as root: ended meanwhile, or in another container"
		case e.Unreadable > 0:
			where = plural(e.Unreadable, "process", "processes") + " could not be read: run as root to see which"
		}
		return "the kernel says " + store + " is open for writing in a process not seen here (" + where + "); " + e.stop()
	}
	var how string
	switch {
	case e.Mapped:
		how = " is mapped for writing in " + e.Holder.String()
	case e.ModeUnknown:
		how = " is open (for writing, as far as can be told) in " + e.Holder.describe(true)
	default:
		how = " is open for writing in " + e.Holder.describe(true)
	}
	return store + how + "; " + e.stop()
}

// stop is what to do before writing again. crabtalkd runs in the
// foreground until SIGINT or SIGTERM, on which it finishes and checkpoints
// its store, and has no command that stops it: it is stopped where it
// runs. Any other writer is waited for, never killed: a process stopped
// in the middle of a write leaves it cut short.
func (e *RunningError) stop() string {
	if e.Socket != "" || e.Port != 0 || isDaemon(e.Holder) {
		return "not written: stop crabtalk's daemon first (ctrl-c where it runs; it finishes its writes and exits)"
	}
	return "not written: write again once it has closed the store (if it is crabtalk's daemon, stop it with ctrl-c where it runs)"
}

// isDaemon reports whether h is, by its name, crabtalk's daemon.
func isDaemon(h Holder) bool {
	name := h.Name
	if h.Exe != "" {
		name = filepath.Base(h.Exe)
	}
	return name == "crabtalkd" || name == "crabtalk"
}

// mappersNote names the processes mapping the store: "foo (pid 99, a
// private mapping 7f3a…-7f3b… rw-p)".
func mappersNote(hs []Holder) string {
	const shown = 3
	names := make([]string, 0, shown)
	for i, h := range hs {
		if i == shown {
			names = append(names, "…")
			break
		}
		names = append(names, mapperName(h))
	}
	return strings.Join(names, ", ")
}

// mapperName is one process mapping the store, with its mapping.
func mapperName(h Holder) string {
	name := h.describe(false)
	if h.Mapping == "" {
		return name
	}
	kind := "mapping"
	if f := strings.Fields(h.Mapping); len(f) == 2 && len(f[1]) == 4 && f[1][3] == 'p' {
		kind = "private mapping"
	}
	if strings.HasSuffix(name, ")") {
		return strings.TrimSuffix(name, ")") + ", " + kind + " " + h.Mapping + ")"
	}
	return name + " (" + kind + " " + h.Mapping + ")"
}

// scanner looks for other processes holding a file, in a /proc tree: the
// real one, or a made-up one in tests.
type scanner struct {
	proc    string        // the process filesystem's root: "/proc"
	self    int           // this process, never counted
	euid    int           // this process's user (root sees every process)
	timeout time.Duration // how long the scan may take
	lease   bool          // ask the kernel first (leaseSays)
	// busy is the pid each worker is looking at (0: none), for a scan
	// that takes too long to name.
	busy []atomic.Int64
}

// maxWorkers bounds the workers looking at processes at once.
const maxWorkers = 4

// scanResult is what a scan found: the processes read and not, those
// reading the file, and the first writer (the scan stops there).
type scanResult struct {
	processes  int
	unreadable []int
	readers    []Holder
	writer     *RunningError
	hidden     string // /proc's hidepid option hiding other users' processes
}

// errNoProc says that there are no processes' open files to look at here.
var errNoProc = errors.New("needs Linux's /proc")

// Check proves that no other process writes the store at storePath:
// socketPath (crabtalk's run/crabtalk.sock in its home; "" to skip) and
// the socket in the folder that holds the store, its links resolved
// (Socket of the real path, when it is another), each refuse a
// connection or are missing, and no other process holds storePath open
// for writing. A process holding it only to read does not count (a scan's
// Proof names it), nor does this process (its other threads included).
//
// On Linux the kernel is asked first (a read lease, which it grants only
// while no process has the file open for writing, whoever and wherever
// it is), and /proc is scanned only to name a writer, or where the kernel
// gives no answer. A descriptor of this process open for writing is told
// from another's through /proc/self: where there is no /proc, call Check
// before opening the store for writing.
//
// When the daemon answers on the socket or a process has the store open
// for writing, the error is a *RunningError (errors.As). Any other error
// means nothing was proved: the socket could not be tried (permission, say),
// or the store could not be looked at, or there was nothing to look at
// (no socket given and no /proc).
func Check(storePath, socketPath string) (Proof, error) {
	return check(storePath, socketPath, scanner{proc: "/proc", self: os.Getpid(), euid: os.Geteuid(), timeout: scanTimeout, lease: true})
}

// check is Check with the processes looked at through s.
func check(storePath, socketPath string, s scanner) (Proof, error) {
	p := Proof{Store: storePath, Socket: socketPath}
	fi, err := os.Stat(storePath)
	if err != nil {
		return p, fmt.Errorf("check that crabtalk is not running: %w", err)
	}
	if err := p.trySockets(); err != nil {
		return p, err
	}
	// The kernel knows whether anybody has the store open for writing
	// (leaseSays), but not who; the scan of /proc knows who, as far as
	// this user may look. Asked first, the kernel spares the scan.
	var writing bool
	if s.lease {
		nobody, leaseOK := leaseSays(storePath, fi)
		if leaseOK && nobody {
			p.FilesChecked, p.Lease = true, true
			return p, nil
		}
		// Refused because this process has it open for writing: the
		// kernel's answer is about this process, and the scan decides.
		writing = leaseOK && !s.selfWrites(fi)
	}
	res, err := s.scanWithin(fi)
	switch {
	case errors.Is(err, errNoProc) && writing:
		return p, &RunningError{Store: storePath, Holder: Holder{FD: -1}, Unseen: true}
	case errors.Is(err, errNoProc):
		p.FilesWhyNot = err.Error()
		p.Partial = true
		if socketPath == "" {
			return p, fmt.Errorf("cannot prove that crabtalk is not running: no socket to try, and its open files %w", err)
		}
		// Where its socket is all there is, the daemon's TCP port is
		// tried too: on Windows crabtalkd listens on nothing else.
		return p, p.tryPort()
	case err != nil:
		return p, fmt.Errorf("check that crabtalk is not running: %w", err)
	}
	return p.scanned(res, writing, fi, s.euid == 0)
}

// trySockets tries the daemon's sockets, if one is given: p.Socket
// (crabtalk's home's: $CRABTALK_HOME, else ~/.crabtalk) and, when it is
// another, the one beside the store, since a store elsewhere may have its
// own daemon, whose home is the store's folder.
func (p *Proof) trySockets() error {
	if p.Socket == "" {
		return nil
	}
	if err := p.trySocket(); err != nil {
		return err
	}
	if beside := besideSocket(p.Store); !sameFile(beside, p.Socket) {
		b := Proof{Store: p.Store, Socket: beside}
		if err := b.trySocket(); err != nil {
			return err
		}
		p.Beside, p.BesideState, p.BesideKind = beside, b.SocketState, b.SocketKind
	}
	return nil
}

// scanned is check's answer once the processes of res were scanned for
// the store (stat fi): the writer the scan found, else the proof, unless
// the kernel said a process writes it (writing) and the scan saw none and
// the kernel still says so. root says the scan ran as root.
func (p Proof) scanned(res scanResult, writing bool, fi fs.FileInfo, root bool) (Proof, error) {
	if res.writer != nil {
		res.writer.Store = p.Store
		return p, res.writer
	}
	p.FilesChecked = true
	p.Processes, p.Unreadable, p.Readers, p.Hidden = res.processes, res.unreadable, res.readers, res.hidden
	p.Partial = len(p.Unreadable) > 0 || p.Hidden != ""
	if writing {
		// The kernel said a process writes it and the scan saw none: one
		// that has ended since (ask again), or one out of sight.
		if nobody, ok := leaseSays(p.Store, fi); ok && nobody {
			p.Lease, p.Partial = true, false
			return p, nil
		}
		return p, &RunningError{Store: p.Store, Holder: Holder{FD: -1}, Unseen: true, Unreadable: len(res.unreadable), Root: root, Mappers: mappers(res.readers)}
	}
	return p, nil
}

// mappers are the readers holding the store by a mapping alone.
func mappers(readers []Holder) []Holder {
	var out []Holder
	for _, r := range readers {
		if r.FD < 0 {
			out = append(out, r)
		}
	}
	return out
}

// scanWithin is s.scan, given up on after s.timeout: the scan is then
// left to end by itself (or never, on a mount that never answers), and
// nothing is proved.
func (s scanner) scanWithin(fi fs.FileInfo) (scanResult, error) {
	type outcome struct {
		res scanResult
		err error
	}
	done := make(chan outcome, 1)
	s.busy = make([]atomic.Int64, maxWorkers)
	go func() {
		res, err := s.scan(fi)
		done <- outcome{res, err}
	}()
	t := time.NewTimer(s.timeout)
	defer t.Stop()
	select {
	case o := <-done:
		return o.res, o.err
	case <-t.C:
	}
	var pids []string
	for i := range s.busy {
		if pid := s.busy[i].Load(); pid != 0 {
			pids = append(pids, "pid "+strconv.FormatInt(pid, 10)+"'s")
		}
	}
	if len(pids) == 0 {
		pids = []string{"the processes'"}
	}
	return scanResult{}, fmt.Errorf("%s open files could not be read within %v (a file on a mount that does not answer?)", strings.Join(pids, " and "), s.timeout)
}

// trySocket tries a connection to p.Socket and records what it found; a
// listener that accepts is a *RunningError, a connection that can neither
// be made nor be refused an error (nothing proved). Anything but a socket
// is never opened.
func (p *Proof) trySocket() error {
	fi, err := os.Stat(p.Socket)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.SocketState = SocketMissing
		return nil
	case err != nil:
		return fmt.Errorf("cannot prove that crabtalk is not running: %w", err)
	case fi.Mode().Type() != fs.ModeSocket:
		p.SocketState, p.SocketKind = SocketNotSocket, kindOf(fi.Mode())
		return nil
	}
	c, err := net.DialTimeout("unix", p.Socket, dialTimeout)
	switch {
	case err == nil:
		defer c.Close()
		h := Holder{PID: peerPID(c), FD: -1}
		if h.PID != 0 {
			h.Name, h.Exe = processName(h.PID)
		}
		return &RunningError{Store: p.Store, Socket: p.Socket, Holder: h}
	case errors.Is(err, syscall.ECONNREFUSED):
		p.SocketState = SocketRefused
		return nil
	case errors.Is(err, syscall.ENOENT):
		p.SocketState = SocketMissing // removed between the stat and the dial
		return nil
	}
	// A timeout or a full backlog is a listener that does not accept:
	// somebody is there. Permission denied is a socket we may not try.
	return fmt.Errorf("cannot prove that crabtalk is not running: %w", err)
}

// portFile is where crabtalkd writes its TCP port, beside its socket
// (transport::TCP_PORT_FILE); it removes it on the way out, as the socket.
func (p Proof) portFile() string {
	return filepath.Join(filepath.Dir(p.Socket), "crabtalk.port")
}

// tryPort tries a connection to 127.0.0.1 on the port in the port file
// beside the socket, when there is one (crabtalkd binds the loopback
// address only), and records a refusal in p.Port. A listener there is
// taken for the daemon (*RunningError with Port), though the file may be
// stale and the port another program's now: the error says to remove the
// file then. A file that does not hold a port is not one crabtalkd wrote.
func (p *Proof) tryPort() error {
	data, err := safefile.ReadFile(p.portFile(), safefile.Options{Limit: 64, What: "port file"})
	if err != nil {
		return nil
	}
	port, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 16)
	if err != nil || port == 0 {
		return nil
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(port))), dialTimeout)
	switch {
	case err == nil:
		c.Close()
		return &RunningError{Store: p.Store, Socket: p.Socket, Port: int(port), Holder: Holder{FD: -1}}
	case errors.Is(err, syscall.ECONNREFUSED):
		p.Port = int(port)
		return nil
	}
	return fmt.Errorf("cannot prove that crabtalk is not running: %w", err)
}

// kindOf names a file's type for the socket's line: "a regular file".
func kindOf(m fs.FileMode) string {
	switch m.Type() {
	case 0:
		return "a regular file"
	case fs.ModeDir:
		return "a folder"
	case fs.ModeNamedPipe:
		return "a named pipe"
	case fs.ModeDevice, fs.ModeDevice | fs.ModeCharDevice:
		return "a device"
	}
	return "something else" // not reached: a stat that followed links
}
