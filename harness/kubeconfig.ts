// Kubeconfig files for the local control plane. JSON is valid kubeconfig, for kubectl too.
import { writeFile } from 'node:fs/promises';

export interface KubeconfigInput {
  server: string;
  caFile: string;
  user: string;
  token: string;
}

export function kubeconfigJson(input: KubeconfigInput): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'landlord-e2e', cluster: { server: input.server, 'certificate-authority': input.caFile } },
    ],
    users: [{ name: input.user, user: { token: input.token } }],
    contexts: [{ name: 'landlord-e2e', context: { cluster: 'landlord-e2e', user: input.user } }],
    'current-context': 'landlord-e2e',
  };
  return JSON.stringify(config, null, 2) + '\n';
}

export async function writeKubeconfig(path: string, input: KubeconfigInput): Promise<string> {
  await writeFile(path, kubeconfigJson(input), { mode: 0o600 });
  return path;
}
