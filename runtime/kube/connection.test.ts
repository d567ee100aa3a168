// One connection pool per API server, rebuilt only when the TLS material changes (a rotated client
// certificate). No request is made: prepare() only reads the kubeconfig.
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { describe, expect, it } from 'vitest';
import { ApiConnection } from './connection.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

function kubeConfig(cert: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', caData: b64('ca') }],
    users: [{ name: 'u', certData: b64(cert), keyData: b64('key') }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

describe('ApiConnection', () => {
  it('reuses its pool while the TLS material stays the same, and makes a new one when it changes', async () => {
    const kc = kubeConfig('cert-1');
    const connection = new ApiConnection(kc);
    const first = await connection.prepare('https://127.0.0.1:6443/api', 'GET');
    const again = await connection.prepare('https://127.0.0.1:6443/api', 'GET');
    expect(again.dispatcher).toBe(first.dispatcher);
    kc.users[0] = { ...kc.users[0]!, certData: b64('cert-2') };
    const rotated = await connection.prepare('https://127.0.0.1:6443/api', 'GET');
    expect(rotated.dispatcher).not.toBe(first.dispatcher);
    expect((await connection.prepare('https://127.0.0.1:6443/api', 'GET')).dispatcher).toBe(
      rotated.dispatcher,
    );
  });
});
