//go:build tools

// Package tools records the helm command that harness/tools.ts builds, so that go mod tidy keeps it.
package tools

import (
	_ "helm.sh/helm/v4/cmd/helm"
)
