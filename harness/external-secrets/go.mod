// External Secrets Operator's module, pinned: e2e/secrets.test.ts installs its ExternalSecret CRD
// (config/crds/bases/external-secrets.io_externalsecrets.yaml) from the module cache, so the API
// server validates the ExternalSecrets the operator writes. Downloaded by .ci/run (`go mod download`).
module landlord.dev/harness/external-secrets

go 1.24

require github.com/external-secrets/external-secrets v0.16.2
