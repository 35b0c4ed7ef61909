//go:build !linux

package tui

import "time"

// threadCPU is not measured outside Linux: the benchmark reports 0.
func threadCPU() time.Duration { return 0 }

// processCPU is not measured outside Linux: the benchmark reports 0.
func processCPU() time.Duration { return 0 }
