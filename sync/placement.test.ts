import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, LABEL, type Tenant } from '../api/tenant.js';
import type { Item } from './dynamo/table-source.js';
import { ownedAnnotations, ownedLabels, ownership, tableIdentity } from './identity.js';
import { placedHere, SINGLE_CLUSTER, type Placement } from './placement.js';

const row = (cluster?: Item[string]): Item => ({
  name: { S: 'a' },
  ...(cluster === undefined ? {} : { cluster }),
});

const eu: Placement = { cluster: 'eu', claimsUnassigned: false };
const euClaiming: Placement = { cluster: 'eu', claimsUnassigned: true };

describe('placedHere', () => {
  it("takes a row naming this cluster, and no other cluster's", () => {
    expect(placedHere(row({ S: 'eu' }), eu)).toBe(true);
    expect(placedHere(row({ S: 'us' }), eu)).toBe(false);
    expect(placedHere(row({ S: 'eu' }), { cluster: 'us', claimsUnassigned: true })).toBe(false);
  });

  it('takes rows without a cluster (absent or NULL) only where they are claimed', () => {
    for (const unassigned of [row(), row({ NULL: true })]) {
      expect(placedHere(unassigned, eu)).toBe(false);
      expect(placedHere(unassigned, euClaiming)).toBe(true);
      expect(placedHere(unassigned, SINGLE_CLUSTER)).toBe(true);
    }
  });

  it('lands an unreadable cluster where unassigned rows are claimed, so that it is refused once', () => {
    for (const bad of [row({ S: 'EU' }), row({ N: '1' })]) {
      expect(placedHere(bad, eu)).toBe(false);
      expect(placedHere(bad, euClaiming)).toBe(true);
    }
  });

  it('gives a single-cluster sync no row placed on a cluster', () => {
    expect(placedHere(row({ S: 'eu' }), SINGLE_CLUSTER)).toBe(false);
  });
});

const tenant = (labels: Record<string, string>): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name: 'a', uid: 'u1', labels, annotations: ownedAnnotations(tableIdentity('tenants')) },
});

describe('ownership with clusters', () => {
  const single = tableIdentity('tenants');
  const euSync = tableIdentity('tenants', eu);
  const euClaimingSync = tableIdentity('tenants', euClaiming);

  it("labels this cluster's Tenants with the cluster, and a single-cluster sync's as before", () => {
    expect(ownedLabels(euSync)[LABEL.cluster]).toBe('eu');
    expect(Object.keys(ownedLabels(single))).not.toContain(LABEL.cluster);
  });

  it("owns its cluster's Tenants, never another cluster's", () => {
    expect(ownership(tenant(ownedLabels(euSync)), euSync)).toEqual({ kind: 'own' });
    const us = tableIdentity('tenants', { cluster: 'us', claimsUnassigned: true });
    expect(ownership(tenant(ownedLabels(us)), euSync)).toEqual({ kind: 'foreign', cause: 'otherCluster' });
    expect(ownership(tenant(ownedLabels(euSync)), single)).toEqual({
      kind: 'foreign',
      cause: 'otherCluster',
    });
  });

  it('keeps a Tenant made before clusters only where unassigned rows are claimed', () => {
    const before = tenant(ownedLabels(single));
    expect(ownership(before, single)).toEqual({ kind: 'own' });
    expect(ownership(before, euClaimingSync)).toEqual({ kind: 'own' });
    expect(ownership(before, euSync)).toEqual({ kind: 'foreign', cause: 'otherCluster' });
  });
});
