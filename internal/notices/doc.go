// Package notices holds the test that keeps THIRD_PARTY_NOTICES, the
// licences of everything compiled into crmem's release binaries besides
// crmem's own code, in step with the module graph and the code copied into
// this repository. It has no code of its own; regenerate the file with
//
//	go test ./internal/notices -update
package notices
