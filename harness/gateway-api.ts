// Installs the Gateway API CRDs (HTTPRoute, GRPCRoute, TLSRoute, ...) of the release pinned in
// harness/gateway-api/go.mod into a test cluster, from the Go module cache: the same files as the
// release's standard-install.yaml, so routes meet the CRDs' own schema and CEL rules. The release's
// own ValidatingAdmissionPolicy (safe-upgrades, which only guards CRD upgrades) is left out.
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gatewayApiModule } from './paths.js';
import { removeCrds } from './crd-removal.js';

const run = promisify(execFile);

const MODULE = 'sigs.k8s.io/gateway-api';

/**
 * The module's folder in the Go module cache. `go mod download -json` fetches it only when it is
 * missing (CI downloads it beforehand, .ci/run) and checks it against go.sum either way.
 */
async function moduleDir(): Promise<string> {
  const { stdout } = await run('go', ['mod', 'download', '-json', MODULE], { cwd: gatewayApiModule });
  const { Dir } = JSON.parse(stdout) as { Dir?: string };
  if (Dir === undefined) throw new Error(`go mod download found no folder for ${MODULE}`);
  return Dir;
}

/** The standard channel's CRD files, one per kind. */
export async function gatewayApiCrdFiles(): Promise<string[]> {
  const dir = join(await moduleDir(), 'config', 'crd', 'standard');
  const files = await readdir(dir);
  return files
    .filter((f) => f.startsWith('gateway.networking.k8s.io_') && f.endsWith('.yaml') && !f.includes('_vap_'))
    .map((f) => join(dir, f));
}

/**
 * Applies the CRDs (server-side, so a second call, or another file's, changes nothing) and waits
 * until the API server serves them.
 */
export async function installGatewayApiCrds(kubeconfig: string): Promise<void> {
  const env = { ...process.env, KUBECONFIG: kubeconfig };
  const files = await gatewayApiCrdFiles();
  await run('kubectl', ['apply', '--server-side', ...files.flatMap((f) => ['-f', f])], { env });
  await run(
    'kubectl',
    ['wait', '--for=condition=Established', '--timeout=60s', ...files.flatMap((f) => ['-f', f])],
    { env },
  );
}

/**
 * Deletes the CRDs (and so every route) and waits until they are gone. A control plane outlives
 * the test file that claimed it (harness/e2e-slots.ts): a file that installs them removes them, and
 * a file that needs a cluster without them makes sure of it.
 */
export async function removeGatewayApiCrds(kubeconfig: string): Promise<void> {
  await removeCrds(kubeconfig, await gatewayApiCrdFiles());
}
