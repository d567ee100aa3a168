// The versions `landlord migrate-storage` rewrites objects out of, read from a CRD's status.
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { storedVersions } from './stored-versions.js';

const crd = (storage: string, stored: string[] | undefined): V1CustomResourceDefinition => ({
  spec: {
    group: 'landlord.dev',
    scope: 'Cluster',
    names: { plural: 'tenants', kind: 'Tenant' },
    versions: ['v1alpha1', 'v1beta1'].map((name) => ({ name, served: true, storage: name === storage })),
  },
  ...(stored === undefined
    ? {}
    : { status: { storedVersions: stored, acceptedNames: { plural: 'tenants', kind: 'Tenant' } } }),
});

describe('storedVersions', () => {
  it('names the versions some object may still be stored under, besides the storage version', () => {
    expect(storedVersions(crd('v1beta1', ['v1alpha1', 'v1beta1']))).toEqual({
      storage: 'v1beta1',
      stale: ['v1alpha1'],
    });
  });

  it('has nothing stale once only the storage version is stored, or nothing is', () => {
    expect(storedVersions(crd('v1beta1', ['v1beta1']))).toEqual({ storage: 'v1beta1', stale: [] });
    expect(storedVersions(crd('v1beta1', undefined))).toEqual({ storage: 'v1beta1', stale: [] });
  });

  it('keeps an older storage version as it is: a CRD rolled back is not migrated forward', () => {
    expect(storedVersions(crd('v1alpha1', ['v1alpha1', 'v1beta1']))).toEqual({
      storage: 'v1alpha1',
      stale: ['v1beta1'],
    });
  });
});
