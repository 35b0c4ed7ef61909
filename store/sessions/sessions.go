// Package sessions reads crabtalk's sessions folder to find which sessions
// reference which compaction archives (SPEC §7, archive references).
package sessions

// Session is one crabtalk session's use of archives.
type Session struct {
	Name     string   // the session folder's name
	Archives []string // archive names of its compact markers, in step order
	Resume   string   // archive its last compact marker names; "" if none or legacy
}

// Refs indexes sessions by archive name.
type Refs struct {
	ReferencedBy map[string][]string // archive -> sessions with a marker naming it (sorted)
	ResumeOf     map[string][]string // archive -> sessions that resume from it (sorted)
}

// Read parses every session under dir. A missing dir yields no sessions and
// no error; unparsable steps are skipped.
func Read(dir string) ([]Session, error) { panic("sessions: not implemented") }

// Index builds the archive -> sessions maps.
func Index(ss []Session) Refs { panic("sessions: not implemented") }

// DefaultDir is the sessions folder next to a memory file.
func DefaultDir(memoryPath string) string { panic("sessions: not implemented") }
