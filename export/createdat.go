package export

import (
	"encoding/json"
	"fmt"
	"time"
)

// createdAt is an input line's created_at: unix seconds, as crmem's export
// writes it, or the RFC 3339 string that the export of a crabtalk store
// writes (SPEC §10), so a store's export imports as it is. Of a string the
// seconds are kept and a sub-second part is dropped (the file holds whole
// seconds); a time before 1970 cannot be held and is refused.
type createdAt uint64

// UnmarshalJSON reads either form.
func (c *createdAt) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("created_at: %w", err)
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return fmt.Errorf("created_at %q is not an RFC 3339 time", s)
		}
		if t.Unix() < 0 {
			return fmt.Errorf("created_at %q is before 1970", s)
		}
		*c = createdAt(t.Unix())
		return nil
	}
	var n uint64
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("created_at %s is neither unix seconds nor an RFC 3339 string", b)
	}
	*c = createdAt(n)
	return nil
}
