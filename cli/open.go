package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/open"
)

// opener finds the memory file the command line names (--db, --demo's
// copy, the configuration) and opens it for a command: repaired first,
// read once or followed, written through store.DB with the check before a
// write. It writes only warnings and notes to errOut (standard error).
type opener struct {
	errOut io.Writer
	getenv func(string) string
	cfg    *config.Config // the effective configuration, loaded before any command runs

	demo     bool     // --demo
	demoPath string   // --demo: the sample memory's temporary copy
	cleanups []func() // run when the command line is done (the demo folder)

	// openHook, when set, replaces how a write opens the memory file
	// (tests use it to see how a command opens the file).
	openHook func(path string) (*store.DB, error)
	// guard, when set, replaces the check before a write to crabtalk's
	// store that its daemon is not running (open.DaemonGuard; tests set
	// it so that their outcome does not depend on what runs around them).
	guard store.Guard
	// repaired is what this start's repair of an unfinished append of
	// crmem's to crabtalk's store did ("": nothing), for check's report.
	repaired string
	// hideIDs says the last write went to a memory whose ids are
	// internal (crabtalk's store): what it reports names entries only.
	hideIDs bool
	// held is the signal that arrived during a write to crabtalk's store
	// (0: none): crmem ends by it once the command has said what it wrote.
	held syscall.Signal
}

// dbPath is the memory file: --demo's copy, else the one the
// configuration resolved (its db setting, else crabtalk's memory file).
func (o *opener) dbPath() (string, error) {
	if o.demoPath != "" {
		return o.demoPath, nil
	}
	if o.cfg == nil { // config --path and --default read no configuration
		return config.CrabtalkMemory(o.getenv)
	}
	path, _, err := o.cfg.Memory()
	return path, err
}

// givenDBPath is the memory file the user named (--db, $CRMEM_DB, the
// config file's db: resolved once, by the configuration loader), or ""
// when crmem is to find it in crabtalk's home.
func (o *opener) givenDBPath() string {
	if o.cfg == nil {
		return ""
	}
	return o.cfg.DB
}

// sessionsDir is crabtalk's sessions folder for the memory file at path:
// the configured one (--sessions, the config file), else sessions/ next to
// the file.
func (o *opener) sessionsDir(path string) string {
	return store.SessionsDir(path, o.sessionsFolder())
}

// sessionsFolder is the configured sessions folder ("": the one beside
// the memory file).
func (o *opener) sessionsFolder() string {
	if o.cfg == nil {
		return ""
	}
	return o.cfg.Sessions
}

// readMemoryFile reads the memory file for a read-only subcommand that
// reads it once (a large file is mapped: store.MapFile). A missing file is
// an error here ("no such file"): there is nothing to read.
func (o *opener) readMemoryFile() (string, []byte, error) {
	path, err := o.dbPath()
	if err != nil {
		return "", nil, err
	}
	if err := o.repairAtStart(path); err != nil {
		return path, nil, err
	}
	data, err := store.MapFile(path) // a regular file only: a FIFO or device fails at once
	if err != nil {
		return path, nil, o.memoryFileError(path, err)
	}
	return path, data, nil
}

// repairAtStart repairs what an append of crmem's to crabtalk's store at
// path left unfinished, as every start does before it reads the store
// (open.RepairAtStart; open.DB and open.Contents do it themselves), for
// a command that reads the file's bytes itself, and first for every read
// (with the daemon's socket as configured); what was done is printed as a
// warning and kept for check's report. Bytes are cut only while the check
// before a write passes (o.guard, else the daemon guard).
func (o *opener) repairAtStart(path string) error {
	guard := o.guard
	if guard == nil {
		guard = open.DaemonGuard(config.DaemonSocket(o.getenv))
	}
	rep, err := open.RepairAtStart(path, guard)
	if err != nil || rep == "" {
		return err
	}
	o.repaired = rep
	o.warnings(path, []string{o.repaired})
	return nil
}

// withoutGC runs fn with the garbage collector off, for a command that reads
// the memory once and leaves almost no garbage (search, show): all it
// allocates (the file, its entries) stays live until it exits, so a
// collection would only mark it; at 3k entries the one cycle that ran was a
// tenth of the process's CPU. The previous setting is restored after fn,
// so a caller that runs commands in process (tests) collects again.
func withoutGC(fn func() error) error {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return fn()
}

// apply opens the memory file (missing: empty) and applies ops through
// store.DB.Apply: atomic, locked, and re-applied on a fresh read if someone
// else wrote the file meanwhile. describe turns a store error into a message
// that names what failed (it may return nil to keep the store's text).
func (o *opener) apply(describe describer, ops ...store.Op) (string, []store.Change, error) {
	return o.applyWith(describe, func(*store.Memory) []store.Op { return ops })
}

// applyWith is apply with the operations built from the memory as read;
// no operations write nothing (nor take the lock). The bm25 index is never
// built: a write does not search.
func (o *opener) applyWith(describe describer, prepare func(*store.Memory) []store.Op) (string, []store.Change, error) {
	path, err := o.dbPath()
	if err != nil {
		return "", nil, err
	}
	db, err := o.openForWrite(path)
	if err != nil {
		return path, nil, fileError{path, err}
	}
	ops := prepare(db.Memory())
	if len(ops) == 0 {
		return path, nil, nil
	}
	changes, err := db.Apply(ops...)
	if err != nil {
		if d := describe(db.Memory(), err); d != nil {
			err = d
		}
		return path, nil, fileError{path, err}
	}
	o.sayProof(db)
	o.hideIDs = !db.Features().ShowsIDs()
	return path, changes, nil
}

// sayProof says, after a write to crabtalk's store, how the guard proved
// that crabtalk's daemon was not running: on a terminal always, in a
// script only when the proof was partial (processes it could not look
// at), one "crmem: " line on stderr.
func (o *opener) sayProof(db *store.DB) {
	p := db.Proof()
	if p == "" || !isTerminal(o.errOut) && !strings.HasPrefix(p, "partial") {
		return
	}
	fmt.Fprintf(o.errOut, "crmem: %s: written while crabtalk's daemon is stopped: %s\n", quotePath(db.Path()), sanitizeLine(p))
}

// openForWrite opens the memory file for a write without its bm25 index:
// building it would cost more than the write (a load re-indexes nothing).
// Either format: crabtalk's store is written as crabtalk writes it, each
// write checked first with the guard (crabtalk's daemon is not running).
func (o *opener) openForWrite(path string) (*store.DB, error) {
	if err := o.checkParent(path); err != nil {
		return nil, err
	}
	if o.openHook != nil {
		return o.openHook(path)
	}
	if filepath.Ext(path) == ".crmem" {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, errNoStore
		}
	}
	opts := store.Options{Index: store.IndexOnDemand, Guard: o.guard, OnHeldSignal: o.holdSignal}
	if opts.Guard == nil {
		opts.Guard = open.DaemonGuard(config.DaemonSocket(o.getenv))
	}
	if isTerminal(o.errOut) {
		// Writers queue behind one another; a person at a terminal is told
		// why nothing happens yet.
		opts.OnLockWait = func() {
			fmt.Fprintln(o.errOut, lockWaitMessage(path, store.LockHolder(filepath.Dir(path))))
		}
	}
	db, err := open.DB(path, open.Options{Store: opts, DaemonSocket: config.DaemonSocket(o.getenv)})
	if err != nil || db.Backend() == nil {
		return db, err
	}
	// crabtalk's store: refuse at once while its daemon runs, before an
	// editor opens (Apply checks again right before it writes). The check
	// waits for another crmem writing the store, as Apply does, rather
	// than take it for a foreign writer.
	if _, err := db.CheckGuard(); err != nil {
		return nil, err
	}
	return db, nil
}

// lockWaitMessage is the line a writer waiting for crmem's lock of the
// memory file's folder prints: what it waits for, the other crmem by pid
// where the kernel names it (holder 0: not known).
func lockWaitMessage(path string, holder int) string {
	return fmt.Sprintf("crmem: waiting for %s writing %s…", store.LockHolderName(holder), quotePath(path))
}

// errNoStore is why a write to a missing file named like crabtalk's store
// is refused: crmem would create a CRMEM v1 file there, which crabtalk
// reads as an empty store.
var errNoStore = errors.New("no such store: crmem does not create crabtalk's store; start crabtalk once so that it creates it (an empty store), stop it, then write (or import) into it")

// checkParent refuses a write to a memory file named with --db, $CRMEM_DB
// or the config file whose folder does not exist: a typo there
// (--db /nonexistent/dir/m.db) would otherwise create the whole chain of
// folders and a new, empty memory in it. The default file's folder
// (~/.crabtalk) is created as crabtalk would.
func (o *opener) checkParent(path string) error {
	if o.givenDBPath() == "" || o.demoPath != "" {
		return nil
	}
	return missingFolder(path)
}

// missingFolder is the refusal of a memory file whose folder does not
// exist, or nil.
func missingFolder(path string) error {
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no folder %s (a typo?); crmem creates the memory file but not its folder: create it first (mkdir -p) if the memory belongs there", quotePath(dir))
	}
	return nil
}

// checkScreenPath refuses, before the screen starts, a memory file the
// user named (PATH, --db, $CRMEM_DB, the config file) that a write could
// never create: one whose folder does not exist, as a write from the
// command line refuses it (checkParent), and a folder. The screen said
// "the first write creates both" and created the whole chain of folders
// on its first write, and on a folder waited for "a good write" that
// could never come (issue 42 item 7).
func (o *opener) checkScreenPath(path string) error {
	if o.demoPath != "" || o.demo || path == "" && o.givenDBPath() == "" {
		return nil
	}
	if path == "" {
		p, err := o.dbPath()
		if err != nil {
			return nil // runTUI says why
		}
		path = p
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fileError{path, fmt.Errorf("is a folder, not a memory file: name the file in it (%s, or %s for crabtalk's store)",
			quotePath(filepath.Join(path, config.MemoryFileName)), quotePath(filepath.Join(path, config.StoreFileName)))}
	}
	if err := missingFolder(path); err != nil {
		return fileError{path, err}
	}
	return nil
}

// cleanUp runs the cleanups the command registered, last first.
func (o *opener) cleanUp() {
	for i := len(o.cleanups) - 1; i >= 0; i-- {
		o.cleanups[i]()
	}
	o.cleanups = nil
}
