// transitions: one Event per state reached and per pause begun or ended, none when the status
// about to be written says the same as the one the Tenant holds (a resync, a restart).
import { describe, expect, it } from 'vitest';
import type { Tenant, TenantState } from '../api/tenant.js';
import { statusInput } from '../testing/operator-status.js';
import { stall } from './reconcile-error.js';
import { computeStatus, type StatusInput } from './status.js';
import { transitions } from './transitions.js';

/** The Tenant as the operator left it after a reconcile with this input. */
function written(tweak: (i: StatusInput) => void): Tenant {
  const input = statusInput(tweak);
  input.tenant.status = computeStatus(input);
  return input.tenant;
}

/** The Events announced when the next reconcile of `tenant` computes this input. */
function announced(tenant: Tenant, tweak: (i: StatusInput) => void): string[] {
  const next = computeStatus(
    statusInput((i) => {
      i.tenant = structuredClone(tenant);
      tweak(i);
    }),
  );
  return transitions(tenant, next).map((a) => `${a.type} ${a.reason}`);
}

const inState = (state: TenantState) => (i: StatusInput) => (i.state = state);
const paused = (i: StatusInput): void => {
  i.paused = true;
};

describe('transitions', () => {
  it.each<[TenantState, TenantState, string[]]>([
    ['active', 'suspended', ['Normal Suspended']],
    ['suspended', 'active', ['Normal Resumed']],
    ['active', 'archived', ['Normal Archived']],
    ['archived', 'active', ['Normal Resumed']],
    ['suspended', 'archived', ['Normal Archived']],
    ['archived', 'suspended', ['Normal Suspended']],
    ['active', 'purged', ['Normal PurgeRequested']],
    ['purged', 'active', ['Normal Resumed']],
  ])('announces %s → %s once', (from, to, expected) => {
    const before = written(inState(from));
    expect(announced(before, inState(to))).toEqual(expected);
    const after = written((i) => {
      i.tenant = before;
      i.state = to;
    });
    expect(announced(after, inState(to))).toEqual([]);
  });

  it('announces nothing for an unchanged state, active or not', () => {
    for (const state of ['active', 'suspended', 'archived', 'purged'] as const)
      expect(announced(written(inState(state)), inState(state))).toEqual([]);
  });

  it('announces nothing while a state cannot be reached (a refusal): the children did not change', () => {
    const before = written(inState('active'));
    expect(
      announced(before, (i) => {
        i.state = 'suspended';
        i.error = stall('PodSecurityViolation', 'no');
      }),
    ).toEqual([]);
  });

  it('announces a pause and its end, once each', () => {
    const running = written(() => undefined);
    expect(announced(running, paused)).toEqual(['Normal Paused']);
    const held = written(paused);
    expect(announced(held, paused)).toEqual([]);
    expect(announced(held, () => undefined)).toEqual(['Normal Unpaused']);
  });

  it('announces a state reached as the pause ends, after the end of the pause', () => {
    const held = written((i) => {
      i.paused = true;
    });
    expect(announced(held, inState('archived'))).toEqual(['Normal Unpaused', 'Normal Archived']);
  });

  it('announces no state while paused, even when the spec asks for another', () => {
    const held = written(paused);
    expect(
      announced(held, (i) => {
        i.paused = true;
        i.state = 'suspended';
      }),
    ).toEqual([]);
  });
});
