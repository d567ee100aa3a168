import { describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../runtime/config.js';
import { SINGLE_CLUSTER } from './placement.js';
import { checkChanges, placementOf, SYNC_SETTINGS, type SyncSettings } from './settings.js';

type ClusterSettings = Pick<SyncSettings, 'cluster' | 'clusterClaimsUnassigned' | 'changes'>;

const load = (env: Record<string, string>): ClusterSettings =>
  loadSettings<ClusterSettings>(SYNC_SETTINGS, { DYNAMODB_TABLE: 'tenants', ...env });

describe('sync settings for many clusters', () => {
  it('is the single-cluster sync of before without LANDLORD_CLUSTER', () => {
    const settings = load({});
    expect(placementOf(settings)).toEqual(SINGLE_CLUSTER);
    expect(settings.changes).toBe('stream');
    // Claiming unassigned rows is given, whatever the setting says.
    expect(placementOf(load({ LANDLORD_CLUSTER_CLAIMS_UNASSIGNED: 'false' }))).toEqual(SINGLE_CLUSTER);
  });

  it("claims rows without a cluster only when told: they are one cluster's, not every cluster's", () => {
    expect(placementOf(load({ LANDLORD_CLUSTER: 'eu-1' }))).toEqual({
      cluster: 'eu-1',
      claimsUnassigned: false,
    });
    expect(
      placementOf(load({ LANDLORD_CLUSTER: 'eu.prod', LANDLORD_CLUSTER_CLAIMS_UNASSIGNED: 'true' })),
    ).toEqual({
      cluster: 'eu.prod',
      claimsUnassigned: true,
    });
  });

  it('refuses a cluster name that cannot be a label value', () => {
    for (const bad of ['EU', 'eu_1', 'a'.repeat(64), '-eu'])
      expect(() => load({ LANDLORD_CLUSTER: bad })).toThrow(/LANDLORD_CLUSTER/);
  });

  it('refuses index mode without a cluster, or claiming rows the index does not hold', () => {
    expect(() => checkChanges(load({ LANDLORD_SYNC_CHANGES: 'index' }))).toThrow(ConfigError);
    expect(() =>
      checkChanges(
        load({
          LANDLORD_SYNC_CHANGES: 'index',
          LANDLORD_CLUSTER: 'b',
          LANDLORD_CLUSTER_CLAIMS_UNASSIGNED: 'true',
        }),
      ),
    ).toThrow(/not in the cluster index/);
    expect(() => checkChanges(load({ LANDLORD_SYNC_CHANGES: 'index', LANDLORD_CLUSTER: 'b' }))).not.toThrow();
  });
});
