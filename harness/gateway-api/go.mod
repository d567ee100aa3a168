// Pins the Gateway API release whose CRDs (config/crd/standard) the e2e tests install, so that
// HTTPRoutes and the other route kinds meet their own schema and CEL validation on the test API
// server. Only downloaded (`go mod download`), never built: harness/gateway-api.ts reads the CRD
// files from the module cache.
module landlord.dev/e2e/gateway-api

go 1.26.0

require sigs.k8s.io/gateway-api v1.6.3
