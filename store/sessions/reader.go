package sessions

import (
	"sync"
	"time"
)

// Reader reads one sessions folder again and again, as a screen that
// follows a live agent does. It re-reads only the sessions whose folder
// changed since the last read: crabtalk adds a step as a new file, which
// changes the folder's modification time (a step rewritten in place is not
// noticed until the next new step). A folder changed within the last
// racyWindow is always re-read, since a step added in the same clock tick
// as the last read would leave its time unchanged. It is safe for
// concurrent use.
type Reader struct {
	dir   string
	mu    sync.Mutex
	cache map[string]cachedSession

	recallMu    sync.Mutex // Recalls' own, so a long read does not hold up Read
	recallCache map[string]cachedRecalls
	recallOpt   RecallOptions
}

// racyWindow is how old a folder's modification time must be before a
// read of it is trusted to stay valid while the time stays the same.
const racyWindow = 2 * time.Second

// cachedSession is a session as read when its folder had time mod.
type cachedSession struct {
	mod time.Time
	s   Session
}

// NewReader returns a Reader of dir.
func NewReader(dir string) *Reader {
	return &Reader{dir: dir, cache: map[string]cachedSession{}}
}

// Dir is the sessions folder.
func (r *Reader) Dir() string { return r.dir }

// Where is the sessions folder, as a store.SessionsReader says it.
func (r *Reader) Where() string { return r.dir }

// Read is Read(r.Dir()) reusing what an earlier call read.
func (r *Reader) Read() ([]Session, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	dirs, err := listSessions(r.dir)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	ss, read, err := readAll(dirs, func(d sessionDir) (Session, bool) {
		c, ok := r.cache[d.path]
		return c.s, ok && c.mod.Equal(d.mod) && now.Sub(d.mod) > racyWindow
	})
	if err != nil {
		return nil, err
	}
	r.cache = make(map[string]cachedSession, len(ss)) // vanished sessions drop out
	for i, s := range ss {
		r.cache[read[i].path] = cachedSession{read[i].mod, s}
	}
	return ss, nil
}
