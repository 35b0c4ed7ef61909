package preview

import "github.com/crmem/crmem/internal/sanitize"

// dimMarkers shows the markers of invisible characters dim (SGR 2 … 22),
// so they read as annotations rather than text; the plain style (notty,
// NO_COLOR) stays plain. The markers are sanitize's, found as it writes
// them (sanitize.ReplaceMarkers).
func dimMarkers(s, style string) string {
	if style == "notty" {
		return s
	}
	return sanitize.ReplaceMarkers(s, func(m string) string { return "\x1b[2m" + m + "\x1b[22m" })
}
