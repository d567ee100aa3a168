// The import boundaries of the tree (docs/architecture.md has the table). Checked in `npm test`:
// product code never reaches test code or development tooling, the components meet only through
// the API contract and the runtime, and the contract depends on nothing of ours but util/.
const PRODUCT = '^(api|runtime|util|operator|sync|purger|cli)/';
const NOT_PRODUCT = '^(e2e|bench|harness|sandbox|testing)/';
const TEST_FILE = '\\.test\\.ts$';

/** A forbidden import: from files matching `from`, to files matching `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    forbid(
      'product-imports-no-test-code',
      'Shipped code must not import tests, fixtures, the harness, the sandbox or benchmarks.',
      { path: PRODUCT, pathNot: TEST_FILE },
      { path: [NOT_PRODUCT, TEST_FILE] },
    ),
    forbid(
      'operator-and-sync-meet-only-through-the-api',
      'operator/ and sync/ share the Tenant resource (api/) and the runtime, never each other.',
      { path: '^(operator|sync)/' },
      { path: '^(operator|sync)/', pathNot: '^$1/' },
    ),
    forbid(
      'purger-meets-the-others-only-through-the-api',
      'purger/ acts on Tenants (api/) with the runtime; it never imports operator/ or sync/, nor they it.',
      { path: '^(purger|operator|sync)/' },
      { path: '^(purger|operator|sync)/', pathNot: '^$1/' },
    ),
    forbid(
      'api-tests-may-check-both-sides',
      'Only the contract tests in api/ see two components, to check that they fit together.',
      { path: '^(runtime|util|cli)/.*\\.test\\.ts$' },
      { path: '^(operator|sync|purger)/' },
    ),
    forbid(
      'api-is-the-contract',
      'api/ describes the resources; it may use util/ but no process or component code.',
      { path: '^api/', pathNot: TEST_FILE },
      { path: '^(runtime|operator|sync|purger|cli|e2e|bench|harness|sandbox|testing)/' },
    ),
    forbid(
      'util-is-a-leaf',
      'util/ holds small pure helpers that import nothing of ours (its tests may use testing/).',
      { path: '^util/', pathNot: TEST_FILE },
      { path: '^(api|runtime|operator|sync|purger|cli|e2e|bench|harness|sandbox|testing)/' },
    ),
    forbid(
      'util-tests-use-only-testing',
      'A test of util/ may use the shared test helpers, nothing else of ours.',
      { path: '^util/.*\\.test\\.ts$' },
      { path: '^(api|runtime|operator|sync|purger|cli|e2e|bench|harness|sandbox)/' },
    ),
    forbid(
      'cli-reads-revisions-through-the-api',
      "The revision format and the row's change note are the contract between sync, which writes them, and " +
        '`landlord history` and `rollback`, which read and write them back: the CLI takes them from api/, never ' +
        "from sync's history or row parsing.",
      { path: '^cli/' },
      { path: '^sync/(history/|row/note\\.ts$)' },
    ),
    forbid(
      'runtime-knows-no-component',
      'The process runtime serves every component, so it can depend on none.',
      { path: '^runtime/' },
      { path: '^(operator|sync|purger|cli)/' },
    ),
    forbid(
      'harness-is-below-its-users',
      'e2e/, bench/ and the sandbox use the harness; the harness uses none of them.',
      { path: '^harness/' },
      { path: '^(e2e|bench|sandbox|testing)/' },
    ),
    forbid(
      'operator-decision-folders-stay-apart',
      "operator/'s decision folders (policy/, tenancy/) import no other folder of operator/ but " +
        'operator/namespaces/. policy/ and tenancy/ once imported each other, each way through different ' +
        'files: no file cycle, so no-circular was silent, yet the two could be neither understood nor tested ' +
        'apart. What both need lives below them, in operator/namespaces/; what reads both (the reconciler, ' +
        'routing/) sits above them.',
      { path: '^operator/(policy|tenancy)/' },
      { path: '^operator/[^/]+/', pathNot: ['^operator/$1/', '^operator/namespaces/'] },
    ),
    forbid(
      'operator-namespaces-is-below-the-other-folders',
      'operator/namespaces/ holds the namespace rules policy/ and tenancy/ both read; it imports neither ' +
        '(nor the rest of operator/), so reading it can never bring either back in.',
      { path: '^operator/namespaces/' },
      { path: '^operator/', pathNot: '^operator/namespaces/' },
    ),
    forbid('no-circular', 'A cycle means two modules are one module in two files.', {}, { circular: true }),
    forbid(
      'no-unresolvable',
      'Every relative import names a file that exists.',
      {},
      { couldNotResolve: true },
    ),
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
