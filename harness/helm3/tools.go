//go:build tools

// Package tools records the Helm 3 command that harness/tools.ts builds, so that go mod tidy keeps it.
package tools

import (
	_ "helm.sh/helm/v3/cmd/helm"
)
