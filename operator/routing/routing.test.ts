import { describe, expect, it } from 'vitest';
import { API_VERSION, CONDITION, KIND, type Tenant } from '../../api/tenant.js';
import { REFUSAL_REASON } from '../policy/index.js';
import { awaited } from './awaited.js';
import { Generations } from './generations.js';
import { RefusedTenants } from './refused-tenants.js';

describe('Generations', () => {
  it('calls a first sighting and a new spec fresh, and only a known one respecified', () => {
    const generations = new Generations();
    expect(generations.observe('a', 1, false)).toEqual({ fresh: true, respecified: false });
    expect(generations.observe('a', 1, false)).toEqual({ fresh: false, respecified: false });
    expect(generations.observe('a', 2, false)).toEqual({ fresh: true, respecified: true });
  });

  it('forgets a deleted Tenant, so one made again under its name is new', () => {
    const generations = new Generations();
    generations.observe('a', 3, false);
    expect(generations.observe('a', 3, true)).toEqual({ fresh: false, respecified: false });
    expect(generations.observe('a', 1, false)).toEqual({ fresh: true, respecified: false });
  });
});

const refused = (name: string, reason: string): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name },
  status: {
    conditions: [
      {
        type: CONDITION.applied,
        status: 'False',
        reason,
        message: 'm',
        lastTransitionTime: '2026-12-01T00:00:00Z',
      },
    ],
  },
});

describe('RefusedTenants', () => {
  const inTeam = (tenant: string): boolean => ({ a: 'team', b: 'team', c: 'other' })[tenant] === 'team';

  it('names the Tenants refused for its reason, but the one that changed, that the filter keeps', () => {
    const conflicts = new RefusedTenants(REFUSAL_REASON.labelConflict);
    for (const name of ['a', 'b', 'c']) conflicts.track(refused(name, REFUSAL_REASON.labelConflict), false);
    conflicts.track(refused('d', REFUSAL_REASON.hostConflict), false);
    expect(conflicts.others('a', inTeam)).toEqual(['b']);
    expect(conflicts.others('a')).toEqual(['b', 'c']);
  });

  it('drops a Tenant refused for another reason now, or deleted', () => {
    const conflicts = new RefusedTenants(REFUSAL_REASON.hostConflict);
    conflicts.track(refused('a', REFUSAL_REASON.hostConflict), false);
    conflicts.track(refused('b', REFUSAL_REASON.hostConflict), false);
    conflicts.track(refused('a', 'PodSecurityViolation'), false);
    conflicts.track(refused('b', REFUSAL_REASON.hostConflict), true);
    expect(conflicts.others('x')).toEqual([]);
  });
});

describe('awaited', () => {
  const tenant = (generation: number, status?: Tenant['status']): Tenant => ({
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 't', generation },
    ...(status === undefined ? {} : { status }),
  });
  const available = (status: 'True' | 'False'): Tenant['status'] => ({
    observedGeneration: 2,
    conditions: [{ type: CONDITION.available, status, reason: 'r', message: '', lastTransitionTime: '' }],
  });

  it('names a Tenant never reconciled, and one whose new spec is not acted on yet', () => {
    expect([awaited(tenant(1)), awaited(tenant(3, available('True')))]).toEqual([true, true]);
  });

  it('names an active Tenant with no Available Deployment, not a running one', () => {
    expect([awaited(tenant(2, available('False'))), awaited(tenant(2, available('True')))]).toEqual([
      true,
      false,
    ]);
  });

  it('leaves out a suspended or archived Tenant, and one no longer in the cache', () => {
    const suspended = tenant(2, { ...available('False'), state: 'suspended' });
    expect([awaited(suspended), awaited(undefined)]).toEqual([false, false]);
  });
});
