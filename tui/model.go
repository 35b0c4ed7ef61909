package tui

import (
	"cmp"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/cellwidth"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/editing"
	"github.com/crmem/crmem/tui/findings"
	"github.com/crmem/crmem/tui/forgotten"
	"github.com/crmem/crmem/tui/helpscreen"
	"github.com/crmem/crmem/tui/historyview"
	"github.com/crmem/crmem/tui/list"
	"github.com/crmem/crmem/tui/marks"
	"github.com/crmem/crmem/tui/part"
	"github.com/crmem/crmem/tui/preview"
	"github.com/crmem/crmem/tui/recalled"
	"github.com/crmem/crmem/tui/searchbar"
	"github.com/crmem/crmem/tui/statspanel"
	"github.com/crmem/crmem/tui/whypanel"
)

// focus is the pane that gets navigation keys.
type focus int

const (
	focusList focus = iota
	focusPreview
)

// common is what every part of the screen shares: size, styles, keys,
// configuration and the snapshot shown. The root writes it (resize, the
// terminal's reports, applySnapshot); the parts read it.
type common struct {
	// db is the open memory, a v1 file or crabtalk's store (nil until
	// it opens): its Features say what the parts may offer (caps).
	db            store.Source
	snap          *snapshot  // the entries shown, as last read or written
	help          help.Model // draws key bindings (the help line, the ? help)
	width, height int
	sized         bool // a WindowSizeMsg has arrived
	styles        *styles
	keys          keymap.KeyMap
	dark          bool
	noColor       bool
	styleOpt      string // --style: "", "auto", "dark", "light", "notty", …
	now           func() time.Time
	loc           *time.Location
	editing       bool // the editing bindings are wired
	// cells is how the renderer measures what it draws: per code point
	// (ansi.WcWidth, Bubble Tea's default) until the terminal reports
	// grapheme clustering (mode 2027), then by clusters. Lines laid out by
	// clusters are fitted to it (fitLine).
	cells ansi.Method
}

// config is how the model is built: Options plus the environment.
type config struct {
	path     string
	sessions string // the sessions folder of a v1 file; "": beside it
	home     string
	style    string
	noColor  bool
	noMouse  bool   // start with mouse capture off
	daemon   string // crabtalk socket path; "" to skip the check
	now      func() time.Time
	loc      *time.Location
	ed       *editing.Part                        // the editing part; nil: a read-only screen
	why      *whyView                             // the why prompt and panel; nil: none
	after    func(time.Duration, tea.Msg) tea.Cmd // timers; tests replace them

	keys          keymap.KeyMap // zero: the defaults
	order         sortOrder     // the list's order at start
	maxExpansions int           // 0: the default
	pager         string        // $PAGER; "" for less -R
	nameMatches   int           // name-match rows before "… N more"; 0: the default
	recallLimit   int           // the recall view's limit; 0: the default
	open          tea.Cmd       // the open, started ahead by Run; nil: openCmd(path, sessions)
	layers        []layerSpec   // the layers, topmost first; nil: the screen's (registered)
}

// Model is the root Bubble Tea model of the TUI.
type Model struct {
	c        common
	path     string
	sessions string // the sessions folder of a v1 file; "": beside it

	home string // the user's home folder, shown as ~

	open    tea.Cmd // the first open of the file, run by Init
	indexed bool
	loaded  bool
	// openErr: why the last try to open the file failed ("" once open)
	openErr string
	// noFolder: the memory file's folder did not exist when it was opened
	noFolder bool

	list              list.List // the list: its rows, selection, filter and order
	sorting           sortOrder // the order being built off the loop, or -1
	sortingSearch     bool      // sorting was asked for a search's hits, not for after it
	orderBeforeSearch sortOrder
	marks             marks.Set // marked entries by id, as they were when marked

	bar        searchbar.Bar // the search line: the query typed, whether it has the keyboard
	moved      bool          // the user moved the selection since the query last changed
	pendingSel uint64        // an entry a write created, to select once it is listed
	searchSeq  int
	applied    string // the query the current result is for
	result     *searchResult
	lim        limits

	// searchLatest is searchSeq as the last search started saw it, for
	// a search running off the loop to tell it is stale (rankBeforeIndex).
	searchLatest *atomic.Int64

	pv preview.Pane // the right pane: card, rendered content, scroll, the explain view

	focus focus
	hp    helpscreen.Screen // the `?` screen
	mouse bool
	// helpLine is the short help as last fitted to the screen's width
	// (shortHelp), kept with what it was fitted from.
	helpLine helpLineMemo
	// statusFits are the status lines last fitted (fitStatus), the
	// newest first.
	statusFits [4]statusFit
	// statusCounts is the counts' part of the status line as last drawn
	// (drawnCounts): the screen's height asks for the status lines at
	// every update, and they seldom change.
	statusCounts drawnText

	st status
	w  watchState

	dates         dateState        // the date filter and its prompt
	chg           changeState      // what reloads changed, until seen; the reload log
	sp            statspanel.Panel // the picture of the memory, when open
	hv            historyview.View // an entry's history, when open
	fg            forgotten.List   // the forgotten entries, when open
	fv            findings.View    // the findings view (crmem lint's report), when open
	read          readingState     // zoom, the pager, matches
	maxExpansions int              // prefix expansions while typing; 0: the default

	ed   *editing.Part // the editing part (dialogs, undo); nil when not installed
	hist historyState  // every entry's story, read off the loop (once the editing part is installed)
	// The sessions' data, read off the loop once the editing part is
	// installed: which sessions reference which archives, and what the
	// agent's recorded recalls returned, per entry.
	refs       refsState
	recalled   recalled.State
	why        *whyView // the why prompt and panel; nil when not installed
	after      func(time.Duration, tea.Msg) tea.Cmd
	quitNotice string // the editing part's notice when the user quit, printed once the screen is gone

	layers *registry           // the layers of the screen, topmost first (tui/layers.go)
	parts  map[layer]part.Part // the panels' parts the registry makes (layerSpec.fresh), by layer
}

// watchState is the file-following part of the model.
type watchState struct {
	watcher   *watcher
	polling   bool
	last      fileStat
	tag       int
	reloading bool
	again     bool // an event arrived during a reload
	manual    bool // the user asked (R): say so even when nothing changed
	ticks     int  // polling ticks, for the occasional daemon check

	// againCheck says only the look at the file once the watch began
	// (checkAfterWatch) asked for the reload waiting (again).
	againCheck bool
}

// newModel builds the model; nothing is read until Init's commands run.
func newModel(cfg config) *Model {
	if cfg.now == nil {
		cfg.now = time.Now
	}
	if cfg.loc == nil {
		cfg.loc = time.Local
	}
	if cfg.after == nil {
		cfg.after = after
	}
	m := &Model{
		path:     cfg.path,
		sessions: cfg.sessions,
		home:     cfg.home,
		list:     list.List{Filter: filterAll},
		marks:    marks.New(),
		pv:       preview.New(),
		mouse:    !cfg.noMouse,
		why:      cfg.why,
		after:    cfg.after,
		lim:      defaultLimits(),
		sorting:  -1,
		layers:   layers(),
	}
	if cfg.layers != nil {
		m.layers = newRegistry(cfg.layers)
	}
	m.parts = freshParts(m.layers)
	m.c = common{
		snap: newSnapshot(nil), help: help.New(),
		keys: cfg.keys, dark: true, noColor: cfg.noColor,
		styleOpt: cfg.style, now: cfg.now, loc: cfg.loc,
	}
	if !cfg.keys.Configured() {
		m.c.keys = keymap.DefaultKeyMap()
	}
	m.list.Order = cfg.order
	m.read.pager = cfg.pager
	m.maxExpansions = cfg.maxExpansions
	m.lim.nameRows = cmp.Or(cfg.nameMatches, m.lim.nameRows)
	m.lim.recallLimit = cmp.Or(cfg.recallLimit, m.lim.recallLimit)
	m.c.dark = cfg.style != "light"
	m.c.styles = newStyles(m.c.dark, cfg.noColor)
	m.bar = searchbar.New()
	m.st.daemonSock = cfg.daemon
	m.open = cfg.open
	if m.open == nil {
		m.open = openCmd(cfg.path, cfg.sessions)
	}
	m.applyStyles()
	if cfg.ed != nil {
		m.setEditing(cfg.ed)
	}
	m.setMode()
	return m
}

// Init starts loading, watching and the background and daemon checks. The
// open counts as the read in flight, so an event meanwhile waits for it.
func (m *Model) Init() tea.Cmd {
	m.w.reloading = true
	cmds := []tea.Cmd{m.open, startWatchCmd(m.path), m.daemonCheck()}
	if m.c.styleOpt == "" || m.c.styleOpt == "auto" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// Update is the root of the update loop: quit and resize first, then
// keys to the layer on top (top), and every other message to the part
// that asked for it; an open stats panel or findings view follows
// whatever snapshot that left.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	model, cmd := m.update(msg)
	return model, tea.Batch(cmd, m.followStats(), m.followSnapshot())
}

// update handles one message for Update.
func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m, m.resize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		return m, m.setBackground(msg.IsDark())
	case tea.ModeReportMsg:
		if cells, ok := cellwidth.FromModeReport(msg.Mode, msg.Value); ok {
			m.c.cells = cells // the renderer switched as it got the same report
			return m, m.showSelected()
		}
		return m, nil
	}
	cmd := m.dispatch(msg)
	m.setMode()
	return m, cmd
}

// followSnapshot redoes the findings of a replaced snapshot while the
// findings view is open.
func (m *Model) followSnapshot() tea.Cmd {
	if !m.fv.Open() {
		return nil
	}
	return m.fv.Follow(m.partContext(0)) // what it examines needs no height
}

// dispatch hands a message to the part that handles it.
func (m *Model) dispatch(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.c.keys.Interrupt()): // in every layer: nothing can lock the user in
			return m.quit()
		case key.Matches(msg, m.c.keys.Suspend):
			return suspendCmd()
		}
		return m.layerKey(msg)
	case tea.MouseMsg:
		return m.handleMouse(msg)
	case tea.PasteMsg:
		return m.layerPaste(msg)
	case loadedMsg:
		return tea.Batch(m.opened(msg), m.historyOpened(msg), m.sessionsOpened(msg))
	case reloadedMsg:
		return tea.Batch(m.reloaded(msg), m.sessionsReloaded(msg))
	case indexReadyMsg:
		return m.indexDone()
	case searchDoneMsg:
		return m.searchDone(msg)
	case preview.RenderedMsg:
		return m.rendered(msg)
	case pagerDoneMsg:
		return m.pagerDone(msg)
	case orderReadyMsg:
		return m.orderReady(msg)
	case statspanel.DoneMsg:
		return m.sp.Done(m.ctx(), msg, m.statsOfNow())
	case whypanel.DoneMsg:
		if m.why != nil {
			return m.do(m.why.Done(msg))
		}
		return nil
	case refsMsg:
		return m.refsRead(msg)
	case recalled.ReadMsg:
		return m.recalledRead(msg)
	case historyBuiltMsg:
		return m.historyBuilt(msg)
	case historyRebuildMsg:
		return m.cooledDown()
	case summaryMsg:
		return m.summaryRead(msg)
	case writeDoneMsg:
		return m.writeDone(msg)
	case editing.NotDuplicateMsg:
		return m.notDuplicateDone(msg)
	}
	if cmd, ok := m.layerMessage(msg); ok {
		return cmd
	}
	if m.ed != nil {
		if handled, cmd := m.editMessage(msg); handled {
			return cmd
		}
	}
	return m.dispatchFile(msg)
}

// dispatchFile handles watching and reloading messages.
func (m *Model) dispatchFile(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case watchStartedMsg:
		return m.watchStarted(msg)
	case fileEventMsg:
		return m.fileEvent()
	case debounceMsg:
		return m.debounced(msg)
	case pollMsg:
		return m.polled()
	case daemonMsg:
		m.st.daemon = msg.up
		switch {
		case msg.running != nil:
			m.st.daemonWhy = msg.running.Error()
		case msg.err != nil:
			m.st.daemonWhy = msg.err.Error()
		default:
			m.st.daemonWhy = ""
		}
	case clearMessageMsg:
		m.st.clearMessage(msg.seq)
	}
	return nil
}

// quit closes the watcher and ends the program; what the editing part still has
// to say (unsaved text kept in a file) is kept for Run to print.
func (m *Model) quit() tea.Cmd {
	m.quitNotice = m.quitNotices()
	m.w.watcher.close()
	m.w.watcher = nil
	return tea.Quit
}

// resize lays the panes out again; the preview is re-rendered at its new width.
func (m *Model) resize(w, h int) tea.Cmd {
	rows := m.nameRows()
	m.c.width, m.c.height, m.c.sized = w, h, true
	m.c.help.SetWidth(w)
	m.bar.Input.SetWidth(max(w-30, 10))
	if m.result != nil && m.nameRows() != rows {
		m.rebuild() // the name-match section follows the height
	}
	m.list.Scroll(m.bodyHeight())
	return m.showSelected()
}

// setBackground picks styles for the terminal's background.
func (m *Model) setBackground(dark bool) tea.Cmd {
	if m.c.styleOpt != "" && m.c.styleOpt != "auto" {
		return nil
	}
	m.c.dark = dark
	m.c.styles = newStyles(dark, m.c.noColor)
	m.applyStyles()
	return m.showSelected()
}

// applyStyles pushes the palette into the bubbles components.
func (m *Model) applyStyles() {
	m.c.help.Styles = help.DefaultStyles(m.c.dark)
	m.bar.Input.PromptStyle = m.c.styles.prompt
	m.bar.Input.DimStyle = m.c.styles.dim
	if m.c.noColor {
		m.c.help.Styles = help.Styles{}
	}
}

// glamourStyle is the glamour style for the preview: --style wins, NO_COLOR
// means no colour, otherwise the terminal's background decides.
func (c *common) glamourStyle() string {
	switch {
	case c.noColor:
		return "notty"
	case c.styleOpt != "" && c.styleOpt != "auto":
		return c.styleOpt
	case c.dark:
		return "dark"
	}
	return "light"
}
