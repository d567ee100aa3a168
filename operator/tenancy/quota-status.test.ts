import type { V1ResourceQuota } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { readOfQuotaStatus, unenforcedResources } from './quota-status.js';

const quota = (hard: Record<string, string>, status?: V1ResourceQuota['status']): V1ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'landlord-quota', namespace: 'team-a' },
  spec: { hard },
  ...(status === undefined ? {} : { status }),
});

describe('readOfQuotaStatus', () => {
  it('keeps what the quota enforces and drops the usage the controller recounts as pods come', () => {
    const status = { hard: { pods: '3' }, used: { pods: '2' } };
    expect(readOfQuotaStatus(status)).toEqual({ hard: { pods: '3' } });
    expect(readOfQuotaStatus({})).toEqual({});
    expect(readOfQuotaStatus(undefined)).toBeUndefined();
  });
});

describe('unenforcedResources', () => {
  it('names every limit of a quota the controller has not counted yet, as a create returns it', () => {
    expect(unenforcedResources(quota({ pods: '3', 'requests.cpu': '1' }))).toEqual(['pods', 'requests.cpu']);
    expect(unenforcedResources(quota({ pods: '3' }, {}))).toEqual(['pods']);
  });

  it('names a limit the spec adds until the status enforces it too', () => {
    const added = quota({ pods: '3', 'count/configmaps': '10' }, { hard: { pods: '3' } });
    expect(unenforcedResources(added)).toEqual(['count/configmaps']);
  });

  it('is empty once every limit is enforced, even at a value the controller has not caught up with', () => {
    expect(unenforcedResources(quota({ pods: '3' }, { hard: { pods: '3' }, used: { pods: '0' } }))).toEqual(
      [],
    );
    // The old limit holds until the controller copies the new one: nothing escapes meanwhile.
    expect(unenforcedResources(quota({ pods: '5' }, { hard: { pods: '3' } }))).toEqual([]);
  });
});
