// The kubeconfig of each identity of the local control plane (the admin, kube-controller-manager,
// kube-scheduler and kwok), each with its own token, written into the run directory as
// <name>.kubeconfig once kube-apiserver serves.
import { join } from 'node:path';
import type { Credentials } from './credentials.js';
import { writeKubeconfig } from './kubeconfig.js';

export async function writeComponentKubeconfigs(
  runDir: string,
  base: { server: string; caFile: string },
  creds: Credentials,
): Promise<void> {
  const files: [string, keyof Credentials][] = [
    ['admin', 'admin'],
    ['controller-manager', 'controllerManager'],
    ['scheduler', 'scheduler'],
    ['kwok', 'kwok'],
  ];
  for (const [file, key] of files) {
    const id = creds[key];
    if (typeof id === 'string') continue;
    await writeKubeconfig(join(runDir, `${file}.kubeconfig`), {
      ...base,
      user: id.user,
      token: id.token,
    });
  }
}
