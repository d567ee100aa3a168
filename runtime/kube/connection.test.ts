// One connection pool per API server, rebuilt only when the TLS material changes (a rotated client
// certificate); what the kubeconfig answers is reused for a short while. No request is made:
// prepare() only reads the kubeconfig.
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
    const connection = new ApiConnection(kc, 0);
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

  describe('reusing what the kubeconfig answered', () => {
    afterEach(() => vi.useRealTimers());
    const url = 'https://127.0.0.1:6443/api';
    const tokenOf = async (connection: ApiConnection): Promise<string | undefined> =>
      (await connection.prepare(url, 'GET')).headers['Authorization'];

    function tokenConfig(token: string): KubeConfig {
      const kc = kubeConfig('cert');
      kc.users[0] = { name: 'u', token };
      return kc;
    }

    it('asks the kubeconfig again once the reuse window has passed', async () => {
      vi.useFakeTimers();
      const kc = tokenConfig('one');
      const connection = new ApiConnection(kc, 1_000);
      expect(await tokenOf(connection)).toBe('Bearer one');
      kc.users[0] = { name: 'u', token: 'two' };
      expect(await tokenOf(connection)).toBe('Bearer one');
      vi.advanceTimersByTime(1_000);
      expect(await tokenOf(connection)).toBe('Bearer two');
    });

    it('asks again at once after forget(), as a 401 does', async () => {
      const kc = tokenConfig('one');
      const connection = new ApiConnection(kc, 60_000);
      expect(await tokenOf(connection)).toBe('Bearer one');
      kc.users[0] = { name: 'u', token: 'two' };
      connection.forget();
      expect(await tokenOf(connection)).toBe('Bearer two');
    });
  });
});
