// The gauges' counts: every Tenant counted once per tallied condition and once by state.
import { describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { validTenant } from '../testing/policy.js';
import { tallyTenants } from './tenant-tally.js';

function tenant(ready?: 'True' | 'False', state?: 'suspended', paused = false): Tenant {
  const t = validTenant();
  if (ready !== undefined)
    t.status = {
      conditions: [{ type: 'Ready', status: ready, reason: 'R', message: '', lastTransitionTime: '' }],
    };
  if (state !== undefined) t.spec!.state = state;
  if (paused) t.metadata.annotations = { 'landlord.dev/paused': 'true' };
  return t;
}

describe('tallyTenants', () => {
  it('counts conditions by status, states (all of them, 0 when empty) and pauses in one pass', () => {
    const tally = tallyTenants([
      tenant('True'),
      tenant('True'),
      tenant('False', 'suspended'),
      tenant(undefined, undefined, true),
    ]);
    expect(Object.fromEntries(tally.conditions.get('Ready')!)).toEqual({ True: 2, False: 1, Unknown: 1 });
    expect(Object.fromEntries(tally.conditions.get('Degraded')!)).toEqual({ Unknown: 4 });
    expect(tally.states).toEqual({ active: 3, suspended: 1, archived: 0, purged: 0 });
    expect(tally.paused).toBe(1);
  });
});
