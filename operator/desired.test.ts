// A child made when landlord wrote v1alpha1 names its Tenant so in its ownerReference. Under
// v1beta1 it must still read as in sync (same hash, no drift), or an upgrade would rewrite every
// child for the owner's version alone (ADR 0011).
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { contentHash } from '../util/canonical-json.js';
import { drifted } from './apply.js';
import { ownersAsLive, SPEC_HASH_ANNOTATION, withOwnership } from './desired.js';

const tenant: Tenant = { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'acme', uid: 'u-1' } };
const manifest: KubernetesObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'acme' },
};

/** The child as the previous release made it: its Tenant named under v1alpha1, hashed so. */
function previousRelease(): KubernetesObject {
  const owned = withOwnership(manifest, tenant, 'ConfigMap').manifest;
  const metadata = { ...owned.metadata };
  delete metadata.annotations;
  metadata.ownerReferences = metadata.ownerReferences!.map((o) => ({
    ...o,
    apiVersion: 'landlord.dev/v1alpha1',
  }));
  const before = { ...owned, metadata };
  const hash = contentHash(before);
  return { ...before, metadata: { ...metadata, annotations: { [SPEC_HASH_ANNOTATION]: hash } } };
}

describe('a child whose ownerReference names its Tenant under v1alpha1', () => {
  const child = withOwnership(manifest, tenant, 'ConfigMap');
  const live = previousRelease();

  it('is applied naming the Tenant under v1beta1', () => {
    expect(child.manifest.metadata?.ownerReferences?.[0]?.apiVersion).toBe('landlord.dev/v1beta1');
  });

  it('carries the hash the previous release gave it, and is not drift', () => {
    expect(child.hash).toBe(live.metadata?.annotations?.[SPEC_HASH_ANNOTATION]);
    expect(drifted(child, live)).toBe(false);
    expect(drifted(child, { ...live, metadata: { ...live.metadata, ownerReferences: [] } })).toBe(true);
  });

  it('is drift when it names another owner, under any version', () => {
    const other = live.metadata!.ownerReferences!.map((o) => ({ ...o, uid: 'u-2' }));
    expect(drifted(child, { ...live, metadata: { ...live.metadata, ownerReferences: other } })).toBe(true);
  });

  it("takes the live object's version only for a landlord owner with the same uid", () => {
    const foreign = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'u-1' };
    const wanted = { ...manifest, metadata: { ...manifest.metadata, ownerReferences: [foreign] } };
    expect(ownersAsLive(wanted, live)).toBe(wanted);
    expect(ownersAsLive(child.manifest, live).metadata?.ownerReferences?.[0]?.apiVersion).toBe(
      'landlord.dev/v1alpha1',
    );
  });
});
