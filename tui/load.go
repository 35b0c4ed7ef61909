package tui

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/open"
	"github.com/crmem/crmem/store/owner"
)

// loadedMsg carries the opened file (or why it could not be opened).
type loadedMsg struct {
	db   store.Source
	snap *snapshot
	err  error
}

// indexReadyMsg says the bm25 index has been built.
type indexReadyMsg struct{}

// reloadedMsg carries the outcome of a reload after the file changed.
type reloadedMsg struct {
	stat    fileStat // the file as the reload found it
	diff    store.Diff
	snap    *snapshot // nil when nothing changed
	err     error
	missing bool // the file is gone
	check   bool // only the look after the watch began asked for it
}

// unchangedCheck reports whether only the look after the watch began
// asked for the reload and it found the file as it was: a sign of nothing
// else (the sessions, say, were read with the open, moments before).
func (msg reloadedMsg) unchangedCheck() bool {
	return msg.check && msg.snap == nil && msg.err == nil && !msg.missing
}

// daemonMsg reports whether crabtalk's daemon runs: on a v1 file, whether
// it answers on its socket; on crabtalk's store, whether owner.Check found
// another process writing the store, or could not prove that none does.
type daemonMsg struct {
	up bool
	// running names the writer a store's check found (pid, name, how to
	// stop it), nil otherwise; err is why a store's check proved nothing.
	// For the status line to show.
	running *owner.RunningError
	err     error
}

// openCmd opens the memory file off the update loop; sessionsDir is a v1
// file's sessions folder ("": beside it). Nothing is built in the
// background yet: the first frame's snapshot and layout have the cores to
// themselves, and opened starts the index (waitIndexCmd).
func openCmd(path, sessionsDir string) tea.Cmd {
	return func() tea.Msg {
		db, err := open.SourceWith(path, open.Options{Store: store.Options{Index: store.IndexOnDemand, Sessions: sessionsDir}})
		if err != nil {
			if both := open.Unreadable(path); both != nil {
				err = both // named like a store: both readers' reasons, as the command line gives them
			}
			return loadedMsg{err: err}
		}
		return loadedMsg{db: db, snap: listedSnapshot(db.Memory(), nil)}
	}
}

// openAhead starts openCmd(path, sessionsDir) at once, off the caller's
// goroutine, and returns the command that delivers its result: the file is
// read while the terminal is being set up rather than after (a few
// milliseconds of a first screen that is mostly waiting).
func openAhead(path, sessionsDir string) tea.Cmd {
	done := make(chan tea.Msg, 1)
	go func() { done <- openCmd(path, sessionsDir)() }()
	return func() tea.Msg { return <-done }
}

// indexReady reports whether mem's index is built.
func indexReady(mem *store.Memory) bool { return mem.IndexReady() }

// waitIndexCmd starts building the index and the name maps in the
// background, if they are not, and blocks (off the loop) until the index
// is built.
func waitIndexCmd(mem *store.Memory) tea.Cmd {
	return func() tea.Msg {
		mem.StartBackground()
		mem.WaitIndexed()
		return indexReadyMsg{}
	}
}

// reloadCmd re-reads the file if its fingerprint changed. A missing file is
// reported as such rather than read as an empty memory; on error the memory
// is left as it was (the store guarantees it). check says only the look
// after the watch began asked for it.
func reloadCmd(db store.Source, old *snapshot, check bool) tea.Cmd {
	return func() tea.Msg {
		st := statFile(db.Path()) // before reading: a later change is seen again
		if !st.exists && fileMissing(db.Path()) {
			// Deleted, unless it never existed (then nothing changed).
			return reloadedMsg{stat: st, missing: db.Exists(), check: check}
		}
		mem := db.Memory()
		gen := mem.Generation()
		diff, err := db.Reload()
		if err != nil || diff.Empty() {
			return reloadedMsg{stat: st, diff: diff, err: err, check: check}
		}
		if db.Memory() != mem { // a memory of its own: nothing to patch
			return reloadedMsg{stat: st, diff: diff, snap: listedSnapshot(db.Memory(), old), check: check}
		}
		return reloadedMsg{stat: st, diff: diff, snap: reloadedSnapshot(mem, old, diff, gen), check: check}
	}
}

// storeDaemonCmd checks for crabtalk's daemon writing its store at path:
// owner.Check (its socket in crabtalk's home, sock, and run/crabtalk.sock
// beside the store, and the processes holding it open for writing: ~15 µs
// where the kernel answers with a lease, a scan of /proc of a few ms where
// it does not), off the update loop. Another crmem writing the store (it
// holds crmem's lock of the folder) is not the daemon: its append ends in
// moments, and a write from here waits for it.
func storeDaemonCmd(path, sock string) tea.Cmd {
	if sock == "" {
		sock = owner.Socket(path)
	}
	return func() tea.Msg {
		_, err := owner.Check(path, sock)
		var running *owner.RunningError
		switch {
		case err == nil, errors.Is(err, fs.ErrNotExist): // gone: the reload says so
			return daemonMsg{}
		case errors.As(err, &running) && running.Socket == "" && running.PID != 0 && running.PID == store.LockHolder(filepath.Dir(path)):
			return daemonMsg{}
		case errors.As(err, &running):
			return daemonMsg{up: true, running: running}
		}
		return daemonMsg{up: true, err: err} // not proved: as if it ran
	}
}

// daemonCmd checks whether the daemon's socket accepts a connection.
func daemonCmd(sock string) tea.Cmd {
	return func() tea.Msg {
		if sock == "" {
			return daemonMsg{}
		}
		if _, err := os.Stat(sock); err != nil {
			return daemonMsg{}
		}
		c, err := net.DialTimeout("unix", sock, 200*time.Millisecond)
		if err != nil {
			return daemonMsg{}
		}
		c.Close()
		return daemonMsg{up: true}
	}
}

// listedSnapshot takes the memory's entries with the orders the previous
// snapshot had derived from it (or the default order built), so the update
// loop only lays out rows.
func listedSnapshot(mem *store.Memory, old *snapshot) *snapshot {
	gen := mem.Generation()
	s := newSnapshot(mem.Entries())
	s.dups = mem.DuplicateIDs()
	s.gen, s.genKnown = gen, mem.Generation() == gen
	s.deriveOrders(old)
	s.order(sortNewest)
	return s
}

// openedWarmCmd is warmCmd for the first snapshot of a memory just
// opened: the name index at once (every search needs it), the other
// orders once the memory's index is built, so that the first hits of a
// query typed at once share the cores with the index build only.
func openedWarmCmd(s *snapshot, mem *store.Memory) tea.Cmd {
	return func() tea.Msg {
		s.nameIndex()
		mem.WaitIndexed()
		s.warmOrders()
		return nil
	}
}

// warmCmd builds a snapshot's search structures in the background.
func warmCmd(s *snapshot) tea.Cmd {
	return func() tea.Msg {
		s.warm()
		return nil
	}
}
