// The import boundaries of the tree (docs/architecture.md has the table). Checked in `npm test`:
// product code never reaches test code or development tooling, the components meet only through
// the API contract and the runtime, and the contract depends on nothing of ours but util/.
const PRODUCT = '^(api|runtime|util|operator|sync|cli)/';
const NOT_PRODUCT = '^(e2e|bench|harness|sandbox|testing)/';
const TEST_FILE = '\\.test\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'product-imports-no-test-code',
      comment: 'Shipped code must not import tests, fixtures, the harness, the sandbox or benchmarks.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: TEST_FILE },
      to: { path: [NOT_PRODUCT, TEST_FILE] },
    },
    {
      name: 'operator-and-sync-meet-only-through-the-api',
      comment: 'operator/ and sync/ share the Tenant resource (api/) and the runtime, never each other.',
      severity: 'error',
      from: { path: '^(operator|sync)/' },
      to: { path: '^(operator|sync)/', pathNot: '^$1/' },
    },
    {
      name: 'api-tests-may-check-both-sides',
      comment: 'Only the contract tests in api/ see both components, to check that they fit together.',
      severity: 'error',
      from: { path: '^(api|runtime|util|cli)/.*\\.test\\.ts$', pathNot: '^api/' },
      to: { path: '^(operator|sync)/' },
    },
    {
      name: 'api-is-the-contract',
      comment: 'api/ describes the resources; it may use util/ but no process or component code.',
      severity: 'error',
      from: { path: '^api/', pathNot: TEST_FILE },
      to: { path: '^(runtime|operator|sync|cli|e2e|bench|harness|sandbox|testing)/' },
    },
    {
      name: 'util-is-a-leaf',
      comment: 'util/ holds small pure helpers that import nothing of ours.',
      severity: 'error',
      from: { path: '^util/' },
      to: { path: '^(api|runtime|operator|sync|cli|e2e|bench|harness|sandbox|testing)/' },
    },
    {
      name: 'runtime-knows-no-component',
      comment: 'The process runtime serves both components, so it cannot depend on either.',
      severity: 'error',
      from: { path: '^runtime/' },
      to: { path: '^(operator|sync|cli)/' },
    },
    {
      name: 'harness-is-below-its-users',
      comment: 'e2e/, bench/ and the sandbox use the harness; the harness uses none of them.',
      severity: 'error',
      from: { path: '^harness/' },
      to: { path: '^(e2e|bench|sandbox|testing)/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle means two modules are one module in two files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|\\.e2e|\\.venv)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
