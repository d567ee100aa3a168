// Which objects the operator's caches keep whole, and what the stub of any other holds: bounded
// whatever the object carries, and enough for ownership, the child index and the pool's leftovers.
import type { KubernetesObject, V1OwnerReference } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { API_VERSION, FIELD_MANAGER, KIND, LABEL, MANAGED_BY } from '../api/tenant.js';
import { childStub, madeForTenant, stubOf } from './foreign-objects.js';

const tenantOwner = (name = 'acme', uid = 'u1'): V1OwnerReference => ({
  apiVersion: API_VERSION,
  kind: KIND,
  name,
  uid,
  controller: true,
  blockOwnerDeletion: true,
});

const secret = (labels: Record<string, string>, ownerReferences?: V1OwnerReference[]): KubernetesObject =>
  ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 's',
      namespace: 'tenant-acme',
      uid: 'o1',
      resourceVersion: '7',
      labels: { ...labels, team: 'x'.repeat(60) },
      annotations: { blob: 'x'.repeat(200_000) },
      ...(ownerReferences === undefined ? {} : { ownerReferences }),
      managedFields: [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': {} },
        },
        { manager: FIELD_MANAGER.operator, operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: {} },
        { manager: FIELD_MANAGER.operator, operation: 'Update', subresource: 'status' },
      ],
    },
    data: { k: 'dmFsdWU=' },
  }) as KubernetesObject;

describe('madeForTenant', () => {
  it('holds for a child controlled by the Tenant its label names', () => {
    expect(madeForTenant(secret({ [LABEL.tenant]: 'acme' }, [tenantOwner()]))).toBe(true);
  });

  it.each([
    ['labelled only', secret({ [LABEL.tenant]: 'acme', [LABEL.managedBy]: MANAGED_BY.operator })],
    [
      'controlled by a Tenant its label does not name',
      secret({ [LABEL.tenant]: 'acme' }, [tenantOwner('other')]),
    ],
    [
      'owned by a Tenant that is not its controller',
      secret({ [LABEL.tenant]: 'acme' }, [{ ...tenantOwner(), controller: false }]),
    ],
    [
      'controlled by a Tenant kind of another group',
      secret({ [LABEL.tenant]: 'acme' }, [{ ...tenantOwner(), apiVersion: 'evil.dev/v1' }]),
    ],
    [
      'controlled by something else',
      secret({ [LABEL.tenant]: 'acme' }, [{ ...tenantOwner(), kind: 'ReplicaSet' }]),
    ],
  ])('fails for an object %s', (_, object) => {
    expect(madeForTenant(object)).toBe(false);
  });
});

describe('stubOf', () => {
  it("keeps identity, landlord's labels, the controller and landlord's updaters, nothing else", () => {
    const owners = [{ ...tenantOwner('b', 'u2'), controller: false }, tenantOwner('other')];
    const labels = { [LABEL.tenant]: 'acme', [LABEL.managedBy]: MANAGED_BY.operator };
    expect(stubOf(secret(labels, owners))).toStrictEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 's',
        namespace: 'tenant-acme',
        uid: 'o1',
        resourceVersion: '7',
        labels,
        ownerReferences: [
          { apiVersion: API_VERSION, kind: KIND, name: 'other', uid: 'u1', controller: true },
        ],
        managedFields: [{ manager: FIELD_MANAGER.operator, operation: 'Update' }],
      },
    });
  });

  it('names a first owner when none controls it, and none when it has none', () => {
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u3' };
    expect(stubOf(secret({}, [owner])).metadata?.ownerReferences).toStrictEqual([owner]);
    expect(stubOf(secret({})).metadata).not.toHaveProperty('ownerReferences');
    expect(stubOf(secret({})).metadata).not.toHaveProperty('labels');
  });

  it('stays small whatever the object holds', () => {
    expect(JSON.stringify(stubOf(secret({ [LABEL.tenant]: 'acme' }))).length).toBeLessThan(400);
  });
});

describe('childStub', () => {
  it('keeps a child made for its Tenant whole, and stubs a look-alike', () => {
    expect(childStub(secret({ [LABEL.tenant]: 'acme' }, [tenantOwner()]))).toBeUndefined();
    expect(childStub(secret({ [LABEL.tenant]: 'acme' }))?.metadata).not.toHaveProperty('annotations');
  });
});
