package cli

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/crmem/crmem/store"
)

// validNewName checks a name that crmem is about to create (add, rename).
func validNewName(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("name %q is not valid UTF-8", name)
	}
	return store.ValidName(name)
}

// validText checks that a string going into the file is valid UTF-8 (the
// format rejects anything else on read).
func validText(what, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not valid UTF-8", what)
	}
	return nil
}

// validAliases checks every alias going into the file.
func validAliases(aliases []string) error {
	for _, al := range aliases {
		if err := validText(fmt.Sprintf("alias %q", al), al); err != nil {
			return err
		}
		if al == "" {
			return errors.New("an alias cannot be empty")
		}
	}
	return nil
}
