//go:build !unix

package main

// sendSelfTerm does nothing where there is no SIGHUP to pass on.
func sendSelfTerm() error { return nil }
