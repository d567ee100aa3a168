//go:build tools

// Records ESO's controller command as a dependency, so `go mod tidy` keeps everything it builds
// with: harness/tools.ts builds github.com/external-secrets/external-secrets (its main package).
package tools

import _ "github.com/external-secrets/external-secrets/cmd/controller"
