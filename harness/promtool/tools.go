//go:build tools

// Package tools records the promtool command that harness/tools.ts builds, so that go mod tidy keeps it.
package tools

import (
	_ "github.com/prometheus/prometheus/cmd/promtool"
)
