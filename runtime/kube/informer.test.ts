// Which watch updates reach the handlers of a cache kept without status: only those that change
// something it keeps.
import { describe, expect, it } from 'vitest';
import { sameBesidesVersion } from './informer.js';

const quota = (resourceVersion: string, pods = '3') => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'landlord-quota', namespace: 'acme', resourceVersion, labels: { a: 'b' } },
  spec: { hard: { pods } },
});

describe('sameBesidesVersion', () => {
  it('holds for a status write (only the resourceVersion moved once status is dropped)', () => {
    expect(sameBesidesVersion(quota('10'), quota('11'))).toBe(true);
  });

  it('fails for a change of the spec, labels or annotations', () => {
    expect(sameBesidesVersion(quota('10'), quota('11', '4'))).toBe(false);
    const relabelled = quota('11');
    relabelled.metadata.labels = { a: 'c' };
    expect(sameBesidesVersion(quota('10'), relabelled)).toBe(false);
  });
});
