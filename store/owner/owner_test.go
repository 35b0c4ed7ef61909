package owner

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// home makes a crabtalk home with a store in it and returns the store's
// path and the daemon's socket path beside it. The folder is t.TempDir()
// unless that is too long for a unix socket's path (~108 bytes).
func home(t *testing.T) (storePath, sock string) {
	t.Helper()
	dir := t.TempDir()
	if len(dir)+len("/run/crabtalk.sock") > 100 {
		d, err := os.MkdirTemp("", "own")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		dir = d
	}
	if err := os.Mkdir(filepath.Join(dir, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	storePath = filepath.Join(dir, "store.crmem")
	if err := os.WriteFile(storePath, []byte("a store"), 0o644); err != nil {
		t.Fatal(err)
	}
	return storePath, Socket(storePath)
}

func TestSocket_BesideTheStore(t *testing.T) {
	got := Socket(filepath.Join("home", "u", ".crabtalk", "store.crmem"))
	want := filepath.Join("home", "u", ".crabtalk", "run", "crabtalk.sock")
	if got != want {
		t.Errorf("Socket = %q, want %q", got, want)
	}
}

// A listener on the socket is the daemon running: a *RunningError naming
// the listener (this process, on Linux and macOS) and how to stop it.
func TestCheck_SocketAnswers(t *testing.T) {
	storePath, sock := home(t)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	defer ln.Close()
	_, err = Check(storePath, sock)
	var re *RunningError
	if !errors.As(err, &re) {
		t.Fatalf("Check = %v, want a *RunningError", err)
	}
	if re.Socket != sock {
		t.Errorf("Socket = %q, want %q", re.Socket, sock)
	}
	msg := err.Error()
	if !strings.Contains(msg, "answers on run/crabtalk.sock") || strings.Contains(msg, "\n") {
		t.Errorf("message %q: want one line saying the socket answered", msg)
	}
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		pid := strconv.Itoa(os.Getpid())
		if re.PID != os.Getpid() || !strings.Contains(msg, "(pid "+pid+")") || strings.Contains(msg, "kill") {
			t.Errorf("pid %d, message %q: want this process's pid %s, and no kill", re.PID, msg, pid)
		}
	}
}

// What else can be at the socket's path: each lets the write go ahead and
// says what it found. None is opened as a file (a FIFO would block).
func TestCheck_SocketStates(t *testing.T) {
	cases := []struct {
		name  string
		make  func(t *testing.T, sock string)
		state SocketState
		line  string
	}{
		{"missing", func(*testing.T, string) {}, SocketMissing, "there is no run/crabtalk.sock"},
		{"stale", staleSocket, SocketRefused, "run/crabtalk.sock refuses connections"},
		{"regular file", func(t *testing.T, sock string) {
			if err := os.WriteFile(sock, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}, SocketNotSocket, "run/crabtalk.sock is a regular file, not a socket"},
		{"folder", func(t *testing.T, sock string) {
			if err := os.Mkdir(sock, 0o755); err != nil {
				t.Fatal(err)
			}
		}, SocketNotSocket, "run/crabtalk.sock is a folder, not a socket"},
		{"fifo", mkfifo, SocketNotSocket, "run/crabtalk.sock is a named pipe, not a socket"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			storePath, sock := home(t)
			c.make(t, sock)
			p, err := Check(storePath, sock)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if p.SocketState != c.state {
				t.Errorf("SocketState = %v, want %v", p.SocketState, c.state)
			}
			if s := p.String(); !strings.HasPrefix(s, "crabtalk is not running: "+c.line) {
				t.Errorf("String = %q, want it to begin %q", s, "crabtalk is not running: "+c.line)
			}
		})
	}
}

// staleSocket leaves a socket file with no listener behind, as a daemon
// killed with SIGKILL does.
func staleSocket(t *testing.T, sock string) {
	t.Helper()
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("the stale socket is gone: %v", err)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := mkfifoAt(path); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

// A store that cannot be looked at proves nothing.
func TestCheck_StoreMissing(t *testing.T) {
	storePath, sock := home(t)
	os.Remove(storePath)
	_, err := Check(storePath, sock)
	var re *RunningError
	if err == nil || errors.As(err, &re) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Check = %v, want a not-exist error", err)
	}
}

func TestProof_String(t *testing.T) {
	const store = "/h/.crabtalk/store.crmem"
	sock := Socket(store)
	cases := []struct {
		name string
		p    Proof
		want string
	}{
		{"full", Proof{Store: store, Socket: sock, SocketState: SocketRefused, FilesChecked: true, Processes: 212},
			"crabtalk is not running: run/crabtalk.sock refuses connections and no other process has store.crmem open (212 processes checked)"},
		{"partial", Proof{Store: store, Socket: sock, SocketState: SocketRefused, FilesChecked: true, Processes: 212, Unreadable: []int{1, 2, 3, 4, 5}, Partial: true},
			"crabtalk is not running: run/crabtalk.sock refuses connections and no other process has store.crmem open (212 processes checked; 5 could not be read — run as their user or root for a full check)"},
		{"readers", Proof{Store: store, Socket: sock, SocketState: SocketMissing, FilesChecked: true, Processes: 1, Readers: []Holder{{PID: 77, Name: "less", FD: 3}}},
			"crabtalk is not running: there is no run/crabtalk.sock and no other process has store.crmem open for writing (1 process checked; 1 has it open only to read: less (pid 77))"},
		{"many readers", Proof{Store: store, Socket: sock, SocketState: SocketMissing, FilesChecked: true, Processes: 9, Readers: []Holder{{PID: 1, Name: "a"}, {PID: 2, Name: "b"}, {PID: 3}, {PID: 4, Name: "d"}}},
			"crabtalk is not running: there is no run/crabtalk.sock and no other process has store.crmem open for writing (9 processes checked; 4 have it open only to read: a (pid 1), b (pid 2), pid 3, …)"},
		{"socket elsewhere", Proof{Store: store, Socket: "/run/x.sock", SocketState: SocketRefused, FilesChecked: true, Processes: 3},
			"crabtalk is not running: /run/x.sock refuses connections and no other process has store.crmem open (3 processes checked)"},
		{"no socket tried", Proof{Store: store, FilesChecked: true, Processes: 3},
			"crabtalk is not running: no other process has store.crmem open (3 processes checked)"},
		{"no /proc", Proof{Store: store, Socket: sock, SocketState: SocketRefused, FilesWhyNot: "needs Linux's /proc", Partial: true},
			"crabtalk is not running: run/crabtalk.sock refuses connections (open files not checked: needs Linux's /proc)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.String(); got != c.want {
				t.Errorf("String =\n %q\nwant\n %q", got, c.want)
			}
		})
	}
}

func TestRunningError_Error(t *testing.T) {
	const store = "/h/.crabtalk/store.crmem"
	cases := []struct {
		name string
		e    RunningError
		want string
	}{
		{"socket", RunningError{Store: store, Socket: Socket(store), Holder: Holder{PID: 4242, Name: "crabtalkd", FD: -1}},
			"crabtalk is running: crabtalkd (pid 4242) answers on run/crabtalk.sock; not written: stop crabtalk's daemon first (ctrl-c where it runs; it finishes its writes and exits)"},
		{"socket, pid unknown", RunningError{Store: store, Socket: Socket(store), Holder: Holder{FD: -1}},
			"crabtalk is running: its daemon answers on run/crabtalk.sock; not written: stop crabtalk's daemon first (ctrl-c where it runs; it finishes its writes and exits)"},
		{"descriptor", RunningError{Store: store, Holder: Holder{PID: 4242, Name: "crabtalkd", FD: 7}},
			"store.crmem is open for writing in crabtalkd (pid 4242, fd 7); not written: stop crabtalk's daemon first (ctrl-c where it runs; it finishes its writes and exits)"},
		{"descriptor, name from exe", RunningError{Store: store, Holder: Holder{PID: 9, Exe: "/usr/bin/python3", FD: 4}},
			"store.crmem is open for writing in python3 (pid 9, fd 4); not written: write again once it has closed the store (if it is crabtalk's daemon, stop it with ctrl-c where it runs)"},
		{"mode unknown", RunningError{Store: store, Holder: Holder{PID: 9, FD: 4}, ModeUnknown: true},
			"store.crmem is open (for writing, as far as can be told) in pid 9, fd 4; not written: write again once it has closed the store (if it is crabtalk's daemon, stop it with ctrl-c where it runs)"},
		{"mapped", RunningError{Store: store, Holder: Holder{PID: 99, Name: "foo", FD: -1}, Mapped: true},
			"store.crmem is mapped for writing in foo (pid 99); not written: write again once it has closed the store (if it is crabtalk's daemon, stop it with ctrl-c where it runs)"},
		{"not seen, run as root", RunningError{Store: store, Holder: Holder{FD: -1}, Unseen: true, Unreadable: 2},
			"the kernel says store.crmem is open for writing in a process not seen here (2 processes could not be read: run as root to see which); not written: write again once it has closed the store (if it is crabtalk's daemon, stop it with ctrl-c where it runs)"},
		{"not seen, as root", RunningError{Store: store, Holder: Holder{FD: -1}, Unseen: true, Unreadable: 1, Root: true},
			"the kernel says store.crmem is open for writing in a process not seen here (1 process could not be read, even as root: ended meanwhile, or in another container); not written: write again once it has closed the store (if it is crabtalk's daemon, stop it with ctrl-c where it runs)"},
		{"not seen, a private mapping", RunningError{Store: store, Holder: Holder{FD: -1}, Unseen: true, Unreadable: 1, Root: true,
			Mappers: []Holder{{PID: 77, Name: "python3", FD: -1, Mapping: "7f00-7f01 rw-p"}}},
			"the kernel says store.crmem is open for writing, and what holds it is a mapping: python3 (pid 77, private mapping 7f00-7f01 rw-p) (a mapping made from a descriptor opened for writing keeps the file open for writing, even a private one); not written while it is mapped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.e.Error(); got != c.want {
				t.Errorf("Error =\n %q\nwant\n %q", got, c.want)
			}
			if got := c.e.Error(); strings.Contains(got, "kill") {
				t.Errorf("Error %q says to kill a process that may be writing", got)
			}
		})
	}
}

// Where open files cannot be checked, the daemon's TCP port (in
// run/crabtalk.port, beside its socket) is tried too: on Windows crabtalkd
// listens on nothing else.
func TestCheck_PortWhereFilesAreNotChecked(t *testing.T) {
	storePath, sock := home(t)
	noFiles := scanner{proc: filepath.Join(t.TempDir(), "missing"), self: 1, timeout: scanTimeout}
	portFile := filepath.Join(filepath.Dir(sock), "crabtalk.port")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback TCP here: %v", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := os.WriteFile(portFile, []byte(strconv.Itoa(port)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = check(storePath, sock, noFiles)
	var re *RunningError
	if !errors.As(err, &re) || re.Port != port {
		t.Fatalf("check with a listener on the port = %v, want a *RunningError naming port %d", err, port)
	}
	want := "crabtalk may be running: something answers on 127.0.0.1:" + strconv.Itoa(port) + ", its port in run/crabtalk.port; not written: stop crabtalk's daemon first"
	if !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "remove run/crabtalk.port)") {
		t.Errorf("Error = %q, want it to begin %q and say to remove a stale file", err, want)
	}

	ln.Close()
	p, err := check(storePath, sock, noFiles)
	if err != nil {
		t.Fatalf("check with the port refusing: %v", err)
	}
	wantLine := "crabtalk is not running: there is no run/crabtalk.sock and its port " + strconv.Itoa(port) +
		" (run/crabtalk.port) refuses connections (open files not checked: needs Linux's /proc)"
	if p.Port != port || !p.Partial || p.String() != wantLine {
		t.Errorf("Proof %+v, String %q; want %q", p, p.String(), wantLine)
	}

	for _, junk := range []string{"", "port", "70000", "0"} {
		os.WriteFile(portFile, []byte(junk), 0o644)
		if p, err := check(storePath, sock, noFiles); err != nil || p.Port != 0 {
			t.Errorf("port file %q: Proof %+v, %v; want it ignored", junk, p, err)
		}
	}
}
