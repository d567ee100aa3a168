// desiredState: what each state asks of the children, checked against the active answer, which
// is exactly what the operator applied before states existed.
import { describe, expect, it } from 'vitest';
import type { V1Deployment } from '@kubernetes/client-node';
import type { Tenant, TenantState } from '../../api/tenant.js';
import { containerContextOf, containerOf, testConfig, validTenant } from '../../testing/policy.js';
import { desiredChildren, type DesiredChild } from '../desired.js';
import { requestedState } from '../lifecycle.js';
import { desiredState } from './engine.js';
import { atRevision, TEMPLATE_REVISION } from '../workload/template-revision.js';
import { evaluateTenant } from '../policy/index.js';
import { resolvedClass } from '../../api/tenantclass.js';
import { coldId } from '../namespaces/ids.js';

function tenant(state?: TenantState, tweak: (t: Tenant) => void = () => undefined): Tenant {
  const t = validTenant();
  t.metadata.uid = 'uid-acme';
  if (state !== undefined) t.spec!.state = state;
  tweak(t);
  return t;
}

function children(t: Tenant): DesiredChild[] {
  const wanted = desiredState(t, testConfig());
  if (!wanted.ok) throw new Error(`refused: ${wanted.refusal.message}`);
  return wanted.children;
}

/**
 * What the operator applied for this Tenant before states existed, with the pod template additions
 * of the newest template revision (which leave the hash as it was).
 */
function beforeStates(t: Tenant): DesiredChild[] {
  const verdict = evaluateTenant(t, testConfig());
  if (!verdict.ok) throw new Error('the fixture must be valid');
  const owner = { tenant: t.metadata.name!, tenantClass: testConfig().tenantClass };
  return desiredChildren(t, verdict.children).map((d) =>
    d.ref.kind === 'Deployment' ? atRevision(d, TEMPLATE_REVISION, owner) : d,
  );
}

const deploymentOf = (list: DesiredChild[]): V1Deployment => list[0]!.manifest;

const privileged = (t: Tenant): void => {
  containerContextOf(containerOf(t)).privileged = true;
};

describe('requestedState', () => {
  it('reads the spec, and an absent state as active', () => {
    expect(requestedState(tenant('archived'))).toBe('archived');
    expect(requestedState(tenant())).toBe('active');
  });

  it('reads a value the CRD would refuse as active rather than throwing', () => {
    expect(requestedState(tenant(undefined, (t) => Reflect.set(t.spec!, 'state', 'gone')))).toBe('active');
  });
});

describe('desiredState', () => {
  it('active: exactly the children of before, same manifests and hashes', () => {
    for (const t of [tenant(), tenant('active')]) expect(children(t)).toEqual(beforeStates(tenant()));
  });

  it('suspended: the Deployment at 0 replicas, everything else as the row says', () => {
    const active = children(tenant());
    const asleep = children(tenant('suspended'));
    expect(asleep.map((c) => c.ref)).toEqual(active.map((c) => c.ref));
    const spec = deploymentOf(asleep).spec!;
    expect(spec.replicas).toBe(0);
    expect({ ...spec, replicas: 2 }).toEqual(deploymentOf(active).spec);
    // A new hash, so the drift check applies it; the ConfigMaps are untouched.
    expect(asleep[0]!.hash).not.toBe(active[0]!.hash);
    expect(asleep.slice(1)).toEqual(active.slice(1));
  });

  it('suspended: sets replicas 0 when the row leaves them to the default', () => {
    const t = tenant('suspended', (x) => delete x.spec!.deployment!.spec!.replicas);
    expect(deploymentOf(children(t)).spec!.replicas).toBe(0);
  });

  it('suspended: still refused when the policy refuses the spec', () => {
    expect(desiredState(tenant('suspended', privileged), testConfig())).toMatchObject({
      ok: false,
      state: 'suspended',
      refusal: { reason: 'PodSecurityViolation' },
    });
  });

  it.each(['archived', 'purged'] as const)('%s: no children at all', (state) => {
    expect(desiredState(tenant(state), testConfig())).toMatchObject({ ok: true, state, children: [] });
  });

  it.each(['archived', 'purged'] as const)(
    '%s: no children even for a spec the policy refuses or a Tenant without one',
    (state) => {
      expect(desiredState(tenant(state, privileged), testConfig())).toMatchObject({
        ok: true,
        state,
        children: [],
      });
      const bare = tenant(state, (t) => delete t.spec!.deployment);
      expect(desiredState(bare, testConfig())).toMatchObject({ ok: true, state, children: [] });
    },
  );

  it('never writes into the Tenant it read', () => {
    const t = tenant('suspended');
    const copy = structuredClone(t);
    children(t);
    expect(t).toEqual(copy);
  });
});

describe('desiredState: "{id}" name templates', () => {
  const idClass = (warmPool?: {
    size: number;
    deployment: Record<string, unknown>;
    maxUnavailable: number;
  }) => {
    const policy = resolvedClass('pooled', 1, { namespace: { mode: 'PerTenant', nameTemplate: 't-{id}' } });
    return warmPool === undefined ? policy : { ...policy, warmPool };
  };
  const namespaceOf = (t: Tenant, namespaceId?: string): string | undefined => {
    const wanted = desiredState(t, testConfig({ tenantClass: idClass(), namespaceId }));
    return wanted.ok ? wanted.namespace : undefined;
  };

  it('a cold tenant: the id derived from its uid, the same every time, so its namespace is made once', () => {
    expect(namespaceOf(tenant())).toBe(`t-${coldId('uid-acme')}`);
    expect(namespaceOf(tenant())).toBe(namespaceOf(tenant()));
  });

  it('the id the reconciler found or claimed', () => {
    expect(namespaceOf(tenant(), 'ab12cd34')).toBe('t-ab12cd34');
  });

  it('the namespace and its tenant-specific objects carry the tenant, not the pool', () => {
    const wanted = desiredState(tenant(), testConfig({ tenantClass: idClass(), namespaceId: 'ab12cd34' }));
    if (!wanted.ok) throw new Error(wanted.refusal.message);
    const namespace = wanted.children.find((c) => c.ref.kind === 'Namespace')!;
    expect(namespace.manifest.metadata?.labels?.['landlord.dev/tenant']).toBe(validTenant().metadata.name);
    expect(namespace.manifest.metadata?.labels?.['landlord.dev/pool']).toBeUndefined();
  });
});
