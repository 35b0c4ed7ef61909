package cli

import (
	"errors"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError is the usage error for a flag that could not be parsed. A
// value of the wrong type says what the flag wants in words (`--limit
// wants a whole number, not "abc"`) instead of the parser's text, a whole
// number beyond 64 bits is "out of range", and every other flag error
// keeps pflag's message.
func flagError(cmd *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	if errors.As(err, &ive) {
		name := ive.GetFlag().Name
		if tooLarge(ive.GetValue()) {
			return usage(cmd, "--%s: %s is out of range", name, ive.GetValue())
		}
		if want := flagWants(ive.GetFlag().Value.Type()); want != "" {
			return usage(cmd, "--%s wants %s, not %q", name, want, ive.GetValue())
		}
	}
	return usage(cmd, "%v", err)
}

// flagWants names, for a person, the values of a pflag value type; "" for
// a type whose own message is clear (string-like custom values).
func flagWants(typ string) string {
	switch {
	case strings.HasPrefix(typ, "uint"):
		return "a whole number, 0 or more"
	case strings.HasPrefix(typ, "int"), typ == "count":
		return "a whole number"
	case strings.HasPrefix(typ, "float"):
		return "a number"
	case typ == "duration":
		return "a duration such as 90s, 5m or 1h30m"
	case typ == "bool":
		return "true or false"
	}
	return ""
}

// tooLarge reports whether s is a whole number beyond 64 bits (pflag's
// own error does not tell that apart from a value that is no number).
func tooLarge(s string) bool {
	_, err := strconv.ParseInt(s, 0, 64)
	return errors.Is(err, strconv.ErrRange)
}
