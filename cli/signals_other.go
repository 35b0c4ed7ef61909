//go:build !unix

package cli

// sendSelfTerm does nothing where there is no SIGHUP to pass on.
func sendSelfTerm() error { return nil }
