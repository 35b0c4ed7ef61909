package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/tui/part"
)

// styles are the screen's lipgloss styles for one background (dark or
// light), or without any colour when NO_COLOR is set.
type styles struct {
	noColor     bool
	searchLine  lipgloss.Style
	prompt      lipgloss.Style
	groupHeader lipgloss.Style
	dim         lipgloss.Style
	mark        lipgloss.Style
	kinds       [3]lipgloss.Style
	selFocus    lipgloss.Style
	selBlur     lipgloss.Style
	card        lipgloss.Style
	cardFocus   lipgloss.Style // the card when the preview has the focus
	cardTitle   lipgloss.Style
	label       lipgloss.Style
	status      lipgloss.Style
	warning     lipgloss.Style
	message     lipgloss.Style
	highlight   string // SGR that starts a search-term highlight
	statusSep   string // dim " │ ", between the status line's parts
	border      lipgloss.Style
	paneTitle   lipgloss.Style
	// part is the styles the parts in packages of their own draw with
	// (part.Styles), built with these.
	part *part.Styles
	// The history view's diff: removed and added lines, and within them
	// the words that changed.
	diffDel, diffAdd, diffDelWord, diffAddWord lipgloss.Style
}

// newStyles builds the styles for a dark or light background.
func newStyles(dark, noColor bool) *styles {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkc string) color.Color {
		if noColor {
			return lipgloss.NoColor{}
		}
		return ld(lipgloss.Color(light), lipgloss.Color(darkc))
	}
	s := &styles{noColor: noColor}
	s.prompt = lipgloss.NewStyle().Foreground(c("#5A56E0", "#A49FFF")).Bold(true)
	s.searchLine = lipgloss.NewStyle()
	s.groupHeader = lipgloss.NewStyle().Foreground(c("#8A6D00", "#E5C07B")).Bold(true)
	s.dim = lipgloss.NewStyle().Foreground(c("#737373", "#8A8A8A"))
	s.mark = lipgloss.NewStyle().Foreground(c("#D7005F", "#FF5F87")).Bold(true)
	s.kinds = [3]lipgloss.Style{
		lipgloss.NewStyle().Foreground(c("#00875F", "#5FD7AF")).Bold(true),
		lipgloss.NewStyle().Foreground(c("#875F00", "#D7AF5F")).Bold(true),
		lipgloss.NewStyle().Foreground(c("#005FAF", "#5FAFFF")).Bold(true),
	}
	s.selFocus = lipgloss.NewStyle().Foreground(c("#FFFFFF", "#FFFFFF")).Background(c("#5A56E0", "#5A56E0")).Bold(true)
	s.selBlur = lipgloss.NewStyle().Background(c("#DADADA", "#3A3A3A"))
	if noColor {
		s.selFocus = lipgloss.NewStyle().Reverse(true).Bold(true)
		s.selBlur = lipgloss.NewStyle().Reverse(true)
	}
	s.card = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c("#A8A8A8", "#585858")).Padding(0, 1)
	s.cardFocus = lipgloss.NewStyle().Border(lipgloss.ThickBorder()).BorderForeground(c("#5A56E0", "#A49FFF")).Padding(0, 1)
	s.cardTitle = lipgloss.NewStyle().Bold(true).Foreground(c("#1C1C1C", "#FFFFFF"))
	s.label = lipgloss.NewStyle().Foreground(c("#737373", "#8A8A8A"))
	s.status = lipgloss.NewStyle().Foreground(c("#4E4E4E", "#BCBCBC"))
	s.warning = lipgloss.NewStyle().Foreground(c("#AF0000", "#FF5F5F")).Bold(true)
	s.message = lipgloss.NewStyle().Foreground(c("#005F87", "#87D7FF"))
	s.border = lipgloss.NewStyle().Foreground(c("#A8A8A8", "#585858"))
	s.paneTitle = lipgloss.NewStyle().Bold(true)
	s.diffDel = lipgloss.NewStyle().Foreground(c("#AF0000", "#FF5F5F"))
	s.diffAdd = lipgloss.NewStyle().Foreground(c("#00875F", "#5FD7AF"))
	s.diffDelWord = s.diffDel.Reverse(true) // reverse reads with or without colour
	s.diffAddWord = s.diffAdd.Reverse(true)
	s.highlight = "\x1b[7m" // reverse video reads on any background, with or without colour
	s.statusSep = s.dim.Render(" │ ")
	s.part = partStyles(s)
	return s
}

// selectedRow styles the row under the cursor.
func (s *styles) selectedRow(focused bool) lipgloss.Style {
	if focused {
		return s.selFocus
	}
	return s.selBlur
}
