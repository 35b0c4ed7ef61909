package tui

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"
)

// Timing of file watching: bursts of events are coalesced for debounce;
// without a working watcher the file is polled every pollEvery, and with one
// it is still stat-checked every backstopEvery (network and container
// mounts deliver no events). The daemon check runs every daemonEvery ticks.
const (
	debounce      = 100 * time.Millisecond
	pollEvery     = time.Second
	backstopEvery = 3 * time.Second
	daemonEvery   = 5
)

// watcher follows the memory file's directory (writers replace the file by
// rename, which kills a watch on the file itself) and reports events that
// name the file on one channel.
type watcher struct {
	fsw    *fsnotify.Watcher
	events chan struct{}
	done   chan struct{}
}

// fileEventMsg says the file may have changed.
type fileEventMsg struct{}

// watchStartedMsg reports the watcher, or the error that forces polling.
type watchStartedMsg struct {
	w   *watcher
	err error
}

// debounceMsg fires after a quiet period; stale tags are ignored.
type debounceMsg struct{ tag int }

// pollMsg is a polling tick.
type pollMsg struct{}

// fileStat is what polling compares.
type fileStat struct {
	exists bool
	size   int64
	mod    time.Time
}

// startWatchCmd sets up the watcher off the update loop.
func startWatchCmd(path string) tea.Cmd {
	return func() tea.Msg {
		w, err := newWatcher(path)
		return watchStartedMsg{w: w, err: err}
	}
}

// newWatcher watches path's directory and filters events to path's name.
// When path is a symlink, writers replace its target, so the target's
// directory is watched too.
func newWatcher(path string) (*watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	files := watchedFiles(path)
	for f := range files {
		if err := fsw.Add(filepath.Dir(f)); err != nil {
			fsw.Close()
			return nil, err
		}
	}
	w := &watcher{fsw: fsw, events: make(chan struct{}, 1), done: make(chan struct{})}
	go w.loop(files)
	return w, nil
}

// watchedFiles is the set of paths whose events matter: the path itself
// and, for a symlink, its target (cleaned, as fsnotify reports them).
func watchedFiles(path string) map[string]bool {
	files := map[string]bool{filepath.Clean(path): true}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		files[real] = true
	}
	return files
}

// loop forwards events naming the file, coalescing while nobody listens.
func (w *watcher) loop(files map[string]bool) {
	defer close(w.events)
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if !files[filepath.Clean(ev.Name)] {
				continue
			}
			select {
			case w.events <- struct{}{}:
			default: // one pending event is enough
			}
		case _, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
		case <-w.done:
			return
		}
	}
}

// close stops the watcher; it is safe to call on nil.
func (w *watcher) close() {
	if w == nil {
		return
	}
	close(w.done)
	w.fsw.Close()
}

// waitEventCmd waits for the next event; it is re-armed after each one.
func waitEventCmd(w *watcher) tea.Cmd {
	return func() tea.Msg {
		if _, ok := <-w.events; !ok {
			return nil
		}
		return fileEventMsg{}
	}
}

// after delivers msg once d has passed.
func after(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// statFile reads the file's existence, size and modification time.
func statFile(path string) fileStat {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStat{}
	}
	return fileStat{exists: true, size: fi.Size(), mod: fi.ModTime()}
}

// fileMissing reports whether path does not exist (other errors are left to
// the reload to report).
func fileMissing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}
