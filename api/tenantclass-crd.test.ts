// The TenantClass CRD's rules on expose.tls (issue 55, class 11), read as data: a private key shared
// by tenants must never be a class's way to TLS, so an Ingress class's tls needs a per-tenant
// Secret and is refused when that Secret is one of its own secrets copied from a single source, and
// a Gateway class says `tls: {}`. Each refusal names the shared Gateway as the way out. What the
// rules decide is tested on the real API server (e2e/escape-tls-keys.test.ts).
import { describe, expect, it } from 'vitest';
import type { Schema } from './crd.js';
import { EXPOSE_TLS_MESSAGE, TENANT_CLASS_CRD } from './tenantclass-crd.js';

interface Rule {
  rule: string;
  message: string;
}

/** A schema's property, by name: the schemas are plain objects (Schema). */
const child = (schema: Schema, name: string): Schema => (schema.properties as Record<string, Schema>)[name]!;
const spec = child(TENANT_CLASS_CRD.spec.versions[0]!.schema.openAPIV3Schema, 'spec');
const expose = child(spec, 'expose');
const rulesOf = (schema: Schema): Rule[] => (schema['x-kubernetes-validations'] as Rule[] | undefined) ?? [];
const ruleSaying = (schema: Schema, message: string): string | undefined =>
  rulesOf(schema).find((r) => r.message === message)?.rule;

describe('expose.tls in the TenantClass CRD', () => {
  it('lets a Gateway class write tls: {} (the listener holds the certificate)', () => {
    const tls = child(expose, 'tls');
    expect(tls.required).toBeUndefined();
    expect(Object.keys(tls.properties as object).sort()).toEqual(['perTenant', 'secretName']);
  });

  it("refuses an Ingress class's tls unless it names a per-tenant Secret", () => {
    const rule = ruleSaying(expose, EXPOSE_TLS_MESSAGE.ingressSharedKey);
    expect(rule).toContain('has(self.gateway)');
    expect(rule).toContain('self.tls.perTenant');
    expect(rule).toContain('has(self.tls.secretName)');
  });

  it('refuses perTenant at a Gateway', () => {
    expect(ruleSaying(expose, EXPOSE_TLS_MESSAGE.perTenantAtGateway)).toContain('!has(self.tls.perTenant)');
  });

  it('refuses an Ingress class whose TLS Secret is one of its secrets copied from a single source', () => {
    const rule = ruleSaying(spec, EXPOSE_TLS_MESSAGE.sharedSource);
    expect(rule).toContain('self.secrets.exists(');
    expect(rule).toContain("s.from.name.contains('{name}')");
    expect(rule).toContain("s.externalSecret.remoteKey.contains('{name}')");
  });

  it('says, in every refusal, where TLS goes instead', () => {
    for (const message of Object.values(EXPOSE_TLS_MESSAGE)) expect(message).toContain('Gateway');
    expect(EXPOSE_TLS_MESSAGE.ingressSharedKey).toContain('docs/exposure.md#tls');
  });
});
