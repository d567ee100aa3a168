// Acting as a ServiceAccount in tests: a kubeconfig with a token minted by the TokenRequest API,
// as the kubelet would mount into a pod, and `kubectl auth can-i` answers for it.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeKubeconfig } from '../../harness/kubeconfig.js';
import { clients, envValue } from './env.js';

const run = promisify(execFile);

export const serviceAccountUser = (namespace: string, name: string): string =>
  `system:serviceaccount:${namespace}:${name}`;

/** Writes a kubeconfig that authenticates as the ServiceAccount and returns its path. */
export async function serviceAccountKubeconfig(namespace: string, name: string): Promise<string> {
  const { core } = clients();
  const request = await core.createNamespacedServiceAccountToken({
    name,
    namespace,
    // No audiences: the API server's own, as for a pod's mounted token.
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const token = request.status?.token;
  if (token === undefined) throw new Error(`no token was issued for ${namespace}/${name}`);
  const path = join(envValue('LANDLORD_E2E_RUN_DIR'), `${namespace}.${name}.kubeconfig`);
  return writeKubeconfig(path, {
    server: envValue('LANDLORD_E2E_API_SERVER'),
    caFile: envValue('LANDLORD_E2E_CA_FILE'),
    user: serviceAccountUser(namespace, name),
    token,
  });
}

/** `kubectl auth can-i`, impersonating `user`: true for "yes", false for "no". */
export async function canI(user: string, args: string[]): Promise<boolean> {
  try {
    await run('kubectl', ['auth', 'can-i', `--as=${user}`, ...args], {
      env: { ...process.env, KUBECONFIG: envValue('KUBECONFIG') },
    });
    return true;
  } catch (err) {
    // kubectl exits 1 and prints "no" for a denial; anything else is a real failure.
    const { code, stdout } = err as { code?: number; stdout?: string };
    if (code === 1 && stdout?.trim() === 'no') return false;
    throw err;
  }
}
