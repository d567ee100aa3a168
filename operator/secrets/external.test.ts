import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import { resolvedClass, type ClassSecret } from '../../api/tenantclass.js';
import { secretsCondition } from './condition.js';
import { externalProblem, externalSecret } from './external.js';
import { wantedSecrets } from './wanted.js';

const PAYMENTS: ClassSecret = {
  name: 'payments',
  externalSecret: {
    storeRef: { kind: 'ClusterSecretStore', name: 'aws' },
    remoteKey: 'tenants/{name}/payments',
  },
};
const tenant: Tenant = { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'acme', uid: 'u-1' } };

describe('externalSecret', () => {
  it('writes an external-secrets.io/v1 ExternalSecret taking every property of the per-tenant key', () => {
    const policy = resolvedClass('standard', 1, { secrets: [PAYMENTS] });
    expect(externalSecret({ ...PAYMENTS, ...policy.secrets[0]! } as never, 'acme', 'acme')).toEqual({
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { name: 'payments', namespace: 'acme' },
      spec: {
        secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws' },
        refreshInterval: '1h',
        target: { name: 'payments', creationPolicy: 'Owner' },
        dataFrom: [{ extract: { key: 'tenants/acme/payments' } }],
      },
    });
  });

  it.each([
    { name: 'absent', live: undefined, says: 'not created yet' },
    { name: 'without a Ready condition', live: { status: {} }, says: 'has not reported Ready' },
    {
      name: 'Ready=False',
      live: {
        status: { conditions: [{ type: 'Ready', status: 'False', message: 'could not get secret data' }] },
      },
      says: 'not Ready: could not get secret data',
    },
  ])('reports ESO not ready when $name', ({ live, says }) => {
    expect(externalProblem(live as KubernetesObject | undefined)).toContain(says);
  });

  it('is ready on Ready=True, and SecretsReady says the ExternalSecret is not until then', () => {
    const ready = { status: { conditions: [{ type: 'Ready', status: 'True' }] } } as KubernetesObject;
    expect(externalProblem(ready)).toBeUndefined();
    const tenantClass = resolvedClass('standard', 1, { secrets: [PAYMENTS] });
    const sources = { secret: () => undefined, externalSecrets: true };
    const wanted = wantedSecrets(tenant, tenantClass, 'acme', { sourceNamespaces: [], sources });
    expect(wanted.children.map((c) => c.ref.kind)).toEqual(['ExternalSecret']);
    const waiting = secretsCondition(wanted, 'acme', () => 'not Ready: store unreachable');
    expect(waiting).toMatchObject({ status: 'False', reason: 'ExternalSecretNotReady' });
    expect(waiting?.message).toBe(
      'secret payments: ExternalSecret acme/payments not Ready: store unreachable',
    );
    expect(secretsCondition(wanted, 'acme', () => undefined)).toMatchObject({ status: 'True' });
  });
});
