// Deletes CRDs from a test cluster and waits until they are gone, without the finalizer stall a
// fresh CRD can meet.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { waitUntil } from './wait.js';

const run = promisify(execFile);

/**
 * Deletes the CRDs of these manifest files, and every object of their kinds, waiting until they
 * are gone. Each kind is listed first: the API server builds a CRD's storage on first use, and a
 * list of a watch cache still initialising fails. When the first use is the CRD finalizer's own
 * list, its retry can lose an update race (a conflict it leaves to an update event it then
 * ignores) and the CRD stays Terminating until the next informer resync, minutes later (seen on
 * 1.37). With the storage warm, the finalizer's first list succeeds.
 */
export async function removeCrds(kubeconfig: string, files: readonly string[]): Promise<void> {
  const env = { ...process.env, KUBECONFIG: kubeconfig };
  const fileArgs = files.flatMap((f) => ['-f', f]);
  const { stdout } = await run('kubectl', ['get', '--ignore-not-found', '-o', 'name', ...fileArgs], { env });
  // customresourcedefinition.apiextensions.k8s.io/<plural>.<group> → <plural>.<group>
  const kinds = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(line.indexOf('/') + 1));
  if (kinds.length === 0) return;
  await waitUntil(
    `${kinds.join(', ')} to list`,
    () =>
      run('kubectl', ['get', kinds.join(','), '--all-namespaces', '-o', 'name'], { env }).then(
        () => true,
        () => undefined,
      ),
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  await run('kubectl', ['delete', '--ignore-not-found', '--wait=true', '--timeout=120s', ...fileArgs], {
    env,
  });
}
