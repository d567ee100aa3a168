// A copy is cached without its values: whether it must be written is told from its metadata, the
// spec-hash annotation covering the values it was applied with.
import { describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import { resolvedClass } from '../../api/tenantclass.js';
import { drifted } from '../apply.js';
import { lighten } from '../../runtime/kube/informer.js';
import { unreadOf } from '../facets/kinds.js';
import { wantedSecrets } from './wanted.js';

const tenant: Tenant = { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'acme', uid: 'u-1' } };
const tenantClass = resolvedClass('c', 1, {
  secrets: [{ name: 'shared', from: { namespace: 'src', name: 'shared' } }],
});

function copy(value: string) {
  const sources = { secret: () => ({ type: 'Opaque', data: { k: value } }), externalSecrets: false };
  return wantedSecrets(tenant, tenantClass, 'acme', { sourceNamespaces: ['src'], sources }).children[0]!;
}

/** The copy as the API server returns it, then as the operator's cache keeps it. */
function cached(child: ReturnType<typeof copy>): KubernetesObject {
  const served = { ...structuredClone(child.manifest), metadata: { ...child.manifest.metadata, uid: 'x' } };
  return lighten(served, unreadOf('Secret'));
}

describe('a copy cached by metadata', () => {
  it('holds no value, and is in sync while its source is unchanged', () => {
    const applied = copy('djE=');
    const live = cached(applied);
    expect(JSON.stringify(live)).not.toContain('djE=');
    expect(drifted(applied, live)).toBe(false);
  });

  it('drifts when the source changes, or when someone takes its label away', () => {
    const live = cached(copy('djE='));
    expect(drifted(copy('djI='), live)).toBe(true);
    const unlabelled = { ...live, metadata: { ...live.metadata, labels: {} } };
    expect(drifted(copy('djE='), unlabelled)).toBe(true);
  });
});
