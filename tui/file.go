package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// watchStarted arms the watcher, or falls back to polling when the
// directory cannot be watched. Either way the file is checked once, since
// it may have changed before the watch existed.
func (m *Model) watchStarted(msg watchStartedMsg) tea.Cmd {
	m.w.last = statFile(m.path)
	if msg.err != nil {
		m.w.polling = true
		return m.after(pollEvery, pollMsg{})
	}
	m.w.watcher = msg.w
	return tea.Batch(waitEventCmd(msg.w), m.checkAfterWatch(), m.after(backstopEvery, pollMsg{}))
}

// checkAfterWatch looks at the file once more now that the watch exists:
// the open (or the last reload) may have read it before, and a write in
// between raised no event. With nothing open and nothing reading, the
// next open reads the latest state anyway.
func (m *Model) checkAfterWatch() tea.Cmd {
	switch {
	case m.w.reloading:
		if !m.w.again {
			m.w.againCheck = true
		}
		m.w.again = true
		return nil
	case m.c.db == nil:
		return nil
	}
	return m.startRead(true)
}

// fileEvent re-arms the wait and restarts the debounce timer.
func (m *Model) fileEvent() tea.Cmd {
	if m.w.watcher == nil {
		return nil // closed
	}
	m.w.tag++
	return tea.Batch(waitEventCmd(m.w.watcher), m.after(debounce, debounceMsg{tag: m.w.tag}))
}

// debounced reloads once the burst of events is over.
func (m *Model) debounced(msg debounceMsg) tea.Cmd {
	if msg.tag != m.w.tag {
		return nil
	}
	return m.reloadNow()
}

// polled reloads when the file's size or time changed since the last
// reload, and now and then checks for the crabtalk daemon: at every tick on
// crabtalk's store, which is read-only while it runs and writable as soon as
// it stops (the check is a lease asked of the kernel, ~15 µs; a scan of
// /proc where the kernel gives no answer, a few ms), every daemonEvery
// ticks on a v1 file, where it only warns.
func (m *Model) polled() tea.Cmd {
	cmds := []tea.Cmd{m.after(m.pollInterval(), pollMsg{})}
	if st := statFile(m.path); st != m.w.last {
		m.w.last = st
		cmds = append(cmds, m.reloadNow())
	}
	if m.w.ticks++; m.w.ticks%daemonEvery == 0 || m.onStore() {
		cmds = append(cmds, m.daemonCheck())
	}
	return tea.Batch(cmds...)
}

// pollInterval is the polling period: short without a watcher.
func (m *Model) pollInterval() time.Duration {
	if m.w.polling {
		return pollEvery
	}
	return backstopEvery
}

// reloadNow starts a reload (or an open, if the file could not be opened
// yet); a request during a reload runs once it finishes.
func (m *Model) reloadNow() tea.Cmd {
	if m.w.reloading {
		m.w.again, m.w.againCheck = true, false
		return nil
	}
	return m.startRead(false)
}

// startRead starts an open or a reload; check says only the look after
// the watch began asked for it.
func (m *Model) startRead(check bool) tea.Cmd {
	m.w.reloading = true
	if m.c.db == nil {
		return openCmd(m.path, m.sessions)
	}
	return reloadCmd(m.c.db, m.c.snap, check)
}

// readDone ends the read in flight (an open or a reload) and starts the
// one asked for meanwhile, if any.
func (m *Model) readDone() tea.Cmd {
	m.w.reloading = false
	if !m.w.again {
		return nil
	}
	check := m.w.againCheck
	m.w.again, m.w.againCheck = false, false
	return m.startRead(check)
}

// reloaded applies a reload: a missing or bad file keeps the last good
// state with a warning; a good one clears it.
func (m *Model) reloaded(msg reloadedMsg) tea.Cmd {
	m.w.last = msg.stat
	again := m.readDone()
	switch {
	case msg.missing:
		m.st.fileWarning = "file deleted — showing the last state; waiting for it to reappear"
		m.st.fileGone = true
		return again
	case msg.err != nil:
		m.st.fileWarning = fmt.Sprintf("file unreadable (%s) — showing the last good state", m.shortError(msg.err))
		return again
	}
	recovered, manual := m.st.fileWarning != "", m.w.manual
	m.st.fileWarning, m.w.manual, m.st.fileGone = "", false, false
	if msg.snap == nil {
		switch {
		case recovered:
			return tea.Batch(again, m.setMessage("file readable again: no changes"))
		case manual:
			return tea.Batch(again, m.setMessage("reloaded: no changes"))
		}
		return again
	}
	old := m.c.snap
	dropped := m.applySnapshot(msg.snap)
	m.st.lastReload = m.c.now()
	text := reloadSummary(m.chg.noteReload(msg.diff, old, m.c.snap, m.c.now(), dropped))
	if w := droppedMarksText(dropped, m.c.snap); w != "" {
		text += " · " + w
	}
	return tea.Batch(again, m.showSelected(), m.rerunSearch(), m.setMessage(text), m.daemonCheck(), warmCmd(m.c.snap))
}

// shortError drops the file's path from an error (the status line shows
// it): store.Cause.
func (m *Model) shortError(err error) string { return store.Cause(m.path, err).Error() }
