import { describe, expect, it } from 'vitest';
import type { User } from '@kubernetes/client-node';
import * as realAzure from '@kubernetes/client-node/dist/azure_auth.js';
import * as realGcp from '@kubernetes/client-node/dist/gcp_auth.js';
import * as realOidc from '@kubernetes/client-node/dist/oidc_auth.js';
import * as hpagent from 'hpagent';
import * as socksProxy from 'socks-proxy-agent';
import * as undici from 'undici';
import { AzureAuth, GoogleCloudPlatformAuth, OpenIDConnectAuth } from './client-node-auth.js';
import { HttpProxyAgent, HttpsProxyAgent, SocksProxyAgent } from './client-node-proxies.js';
import * as lean from './undici.js';

const user = (authProvider?: { name: string; config?: Record<string, string> }): User => ({
  name: 'u',
  ...(authProvider === undefined ? {} : { authProvider }),
});

describe("client-node's authenticators, loaded on first use", () => {
  const pairs = [
    [new OpenIDConnectAuth(), new realOidc.OpenIDConnectAuth()],
    [new AzureAuth(), new realAzure.AzureAuth()],
    [new GoogleCloudPlatformAuth(), new realGcp.GoogleCloudPlatformAuth()],
  ] as const;
  const users = [
    user(),
    user({ name: 'oidc' }),
    user({ name: 'azure' }),
    user({ name: 'gcp' }),
    user({ name: 'exec' }),
  ];

  it('claim exactly the users the real ones claim', () => {
    for (const [standIn, real] of pairs)
      for (const u of users) expect(standIn.isAuthProvider(u)).toBe(real.isAuthProvider(u));
  });

  it('authenticate as the real one does', async () => {
    const gcpUser = user({ name: 'gcp', config: { 'access-token': 'token-1' } });
    const opts = { headers: {} as Record<string, string> };
    await new GoogleCloudPlatformAuth().applyAuthentication(gcpUser, opts);
    expect(opts.headers.Authorization).toBe('Bearer token-1');
  });
});

describe("client-node's proxy clients, loaded on first use", () => {
  it('make the real agents', () => {
    expect(new HttpsProxyAgent({ proxy: 'http://127.0.0.1:3128' })).toBeInstanceOf(hpagent.HttpsProxyAgent);
    expect(new HttpProxyAgent({ proxy: 'http://127.0.0.1:3128' })).toBeInstanceOf(hpagent.HttpProxyAgent);
    expect(new SocksProxyAgent('socks5://127.0.0.1:1080')).toBeInstanceOf(socksProxy.SocksProxyAgent);
  });
});

describe("undici's face", () => {
  // That it gives dispatchers the request API without the index is e2e/lean-loading.test.ts's check.
  it("is undici's own classes and global dispatcher", () => {
    expect(lean.Agent).toBe(undici.Agent);
    expect(lean.ProxyAgent).toBe(undici.ProxyAgent);
    expect(lean.getGlobalDispatcher()).toBe(undici.getGlobalDispatcher());
  });
});
