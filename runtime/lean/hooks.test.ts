import { describe, expect, it } from 'vitest';
import { redirectFor } from './hooks.js';

const CLIENT_NODE = 'file:///app/node_modules/@kubernetes/client-node/dist';
const LIBRARY = 'file:///app/node_modules/@dot-i/k8s-operator/dist/operator.js';
const OURS = 'file:///app/dist/runtime/http-server.js';
const IMPORT = ['node', 'import'];
const REQUIRE = ['node', 'require'];

const target = (specifier: string, parentURL: string | undefined, conditions = IMPORT): string | undefined =>
  redirectFor(specifier, { parentURL, conditions })?.to;

describe('redirectFor', () => {
  it('redirects a named import only from the file that names it', () => {
    expect(target('./gen/index.js', `${CLIENT_NODE}/config.js`)).toBe('client-node-gen.js');
    expect(target('./gen/index.js', `${CLIENT_NODE}/index.js`)).toBeUndefined();
    expect(target('./serializer.js', `${CLIENT_NODE}/cache.js`)).toBe('client-node-serializer.js');
    expect(target('./serializer.js', `${CLIENT_NODE}/yaml.js`)).toBeUndefined();
  });

  it("sends the operator library's require()s of client-node and gaxios to the stand-ins, and no one else's", () => {
    expect(target('@kubernetes/client-node', LIBRARY, REQUIRE)).toBe('operator-library-client.js');
    expect(target('gaxios', LIBRARY, REQUIRE)).toBe('operator-library-gaxios.js');
    expect(target('@kubernetes/client-node', OURS)).toBeUndefined();
    expect(target('gaxios', OURS, REQUIRE)).toBeUndefined();
  });

  it('gives ES modules the node:http face and leaves require() alone', () => {
    expect(target('node:http', OURS)).toBe('node-http.js');
    expect(target('http', `${CLIENT_NODE}/watch.js`)).toBe('node-http.js');
    expect(target('node:http', OURS, REQUIRE)).toBeUndefined();
    expect(target('node:https', OURS)).toBeUndefined();
  });

  it("gives ES modules undici's face (its agents, global dispatcher and a lazy fetch) and leaves require() alone", () => {
    expect(target('undici', OURS)).toBe('undici.js');
    expect(target('undici', `${CLIENT_NODE}/config.js`)).toBe('undici.js');
    expect(target('undici', OURS, REQUIRE)).toBeUndefined();
    expect(target('undici/lib/global.js', OURS)).toBeUndefined();
  });

  it("sends config.js's auth providers and proxy clients to their stand-ins, and no one else's", () => {
    for (const file of ['./oidc_auth.js', './azure_auth.js', './gcp_auth.js']) {
      expect(target(file, `${CLIENT_NODE}/config.js`)).toBe('client-node-auth.js');
      expect(target(file, `${CLIENT_NODE}/index.js`)).toBeUndefined();
    }
    for (const name of ['socks-proxy-agent', 'socks', 'hpagent']) {
      expect(target(name, `${CLIENT_NODE}/config.js`)).toBe('client-node-proxies.js');
      expect(target(name, OURS)).toBeUndefined();
    }
  });

  it('leaves the entry point (no parent) alone', () => {
    expect(target('./gen/index.js', undefined)).toBeUndefined();
  });
});
