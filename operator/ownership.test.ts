import type { KubernetesObject, V1OwnerReference } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { statusTenant } from '../testing/operator-status.js';
import { childRef } from './child-ref.js';
import { lostByTenant, namespaceClaim, ownership, type Ownership } from './ownership.js';

const REF = childRef('ConfigMap', 'team-a', 'settings');

/** The child as this Tenant left it: controlled by the Tenant named acme with uid-acme. */
function live(
  tweak: (owner: V1OwnerReference, child: KubernetesObject) => void = () => undefined,
): KubernetesObject {
  const owner: V1OwnerReference = {
    apiVersion: 'landlord.dev/v1alpha1',
    kind: 'Tenant',
    name: 'acme',
    uid: 'uid-acme',
    controller: true,
    blockOwnerDeletion: true,
  };
  const child: KubernetesObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'team-a', ownerReferences: [owner] },
  };
  tweak(owner, child);
  return child;
}

const conflict = (holder: string): Ownership => ({
  verdict: 'conflict',
  message: `ConfigMap team-a/settings already exists and ${holder}; rename the child or remove the other owner's claim`,
});

describe('ownership', () => {
  it('lets the Tenant create a child that does not exist', () => {
    expect(ownership(statusTenant(), REF, undefined)).toEqual({ verdict: 'ok' });
  });

  it.each<[string, (owner: V1OwnerReference, child: KubernetesObject) => void, Ownership]>([
    ['a child this Tenant controls', () => undefined, { verdict: 'ok' }],
    [
      'a child of an earlier Tenant of the same name, which the garbage collector is removing',
      (o) => (o.uid = 'uid-earlier'),
      {
        verdict: 'earlierTenant',
        message:
          'ConfigMap team-a/settings still belongs to an earlier Tenant named acme; waiting for the garbage collector to remove it',
      },
    ],
    [
      'a child another Tenant controls',
      (o) => Object.assign(o, { name: 'rival', uid: 'uid-rival' }),
      conflict('is owned by Tenant rival'),
    ],
    [
      'a child controlled by something other than a Tenant, though of the same name',
      (o) => Object.assign(o, { apiVersion: 'apps/v1', kind: 'ReplicaSet', uid: 'uid-rs' }),
      conflict('is owned by ReplicaSet acme'),
    ],
    [
      'an object nobody controls',
      (_o, c) => delete c.metadata!.ownerReferences,
      conflict('is not managed by landlord'),
    ],
    [
      'an object that names this Tenant only as a non-controlling owner',
      (o) => (o.controller = false),
      conflict('is not managed by landlord'),
    ],
  ])('decides on %s', (_case, tweak, expected) => {
    expect(ownership(statusTenant(), REF, live(tweak))).toEqual(expected);
  });
});

describe('a child landlord made that lost its owner', () => {
  /** As landlord labels its children, with the ownerReference removed by the tenant's team. */
  const stripped = (labels: Record<string, string> = {}): KubernetesObject =>
    live((_o, c) => {
      delete c.metadata!.ownerReferences;
      c.metadata!.labels = {
        'app.kubernetes.io/managed-by': 'landlord-operator',
        'landlord.dev/tenant': 'acme',
        ...labels,
      };
    });

  it("is taken back in the Tenant's own namespace: applied (the owner named again) or pruned", () => {
    expect(lostByTenant(statusTenant(), stripped(), true)).toBe(true);
    expect(ownership(statusTenant(), REF, stripped(), true)).toEqual({ verdict: 'ok' });
  });

  it('is taken back when the team left the Tenant as a non-controlling owner', () => {
    const child = stripped();
    child.metadata!.ownerReferences = [
      {
        apiVersion: 'landlord.dev/v1alpha1',
        kind: 'Tenant',
        name: 'acme',
        uid: 'uid-acme',
        controller: false,
      },
    ];
    expect(ownership(statusTenant(), REF, child, true)).toEqual({ verdict: 'ok' });
  });

  it.each<[string, KubernetesObject, boolean]>([
    ['outside the Tenant’s own namespace (a Shared one)', stripped(), false],
    ['labelled for another Tenant', stripped({ 'landlord.dev/tenant': 'rival' }), true],
    ['not labelled as the operator’s', stripped({ 'app.kubernetes.io/managed-by': 'someone' }), true],
    ['labelled for nobody', live((_o, c) => delete c.metadata!.ownerReferences), true],
  ])('is never taken %s: it stays a conflict', (_case, child, inOwnNamespace) => {
    expect(lostByTenant(statusTenant(), child, inOwnNamespace)).toBe(false);
    expect(ownership(statusTenant(), REF, child, inOwnNamespace)).toEqual(
      conflict('is not managed by landlord'),
    );
  });

  it('is not taken from another controller that holds it', () => {
    const child = stripped();
    child.metadata!.ownerReferences = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'mine', uid: 'uid-mine', controller: true },
    ];
    expect(lostByTenant(statusTenant(), child, true)).toBe(false);
    expect(ownership(statusTenant(), REF, child, true)).toEqual(conflict('is owned by ConfigMap mine'));
  });
});

describe('namespaceClaim', () => {
  const namespace = (owner?: Partial<V1OwnerReference>): KubernetesObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: 'team-a',
      ...(owner === undefined
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: 'landlord.dev/v1alpha1',
                kind: 'Tenant',
                name: 'other',
                uid: 'uid-other',
                controller: true,
                ...owner,
              },
            ],
          }),
    },
  });

  it("refuses another Tenant's own namespace, naming that Tenant", () => {
    expect(namespaceClaim(statusTenant(), namespace())).toBeUndefined();
    expect(namespaceClaim(statusTenant(), namespace({}))).toContain('the namespace of Tenant other');
  });

  it('leaves alone a namespace that is no Tenant’s, this one’s, or not known', () => {
    const tenant = statusTenant();
    expect(namespaceClaim(tenant, undefined)).toBeUndefined();
    expect(namespaceClaim(tenant, namespace({ kind: 'Deployment' }))).toBeUndefined();
    expect(namespaceClaim(tenant, namespace({ uid: tenant.metadata.uid }))).toBeUndefined();
  });
});
