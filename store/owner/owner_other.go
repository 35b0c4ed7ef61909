//go:build !linux

package owner

import "io/fs"

// scan has no processes' open files to look at without Linux's /proc.
func (s scanner) scan(fs.FileInfo) (scanResult, error) { return scanResult{}, errNoProc }

// processName is unknown without Linux's /proc.
func processName(int) (name, exe string) { return "", "" }

// leaseSays has no answer without Linux's file leases.
func leaseSays(string, fs.FileInfo) (nobodyWrites, ok bool) { return false, false }

// selfWrites is not asked without Linux's file leases.
func (s scanner) selfWrites(fs.FileInfo) bool { return false }
