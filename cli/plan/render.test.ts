import { describe, expect, it } from 'vitest';
import type { Plan, TenantPlan } from './plan.js';
import { planText } from './render.js';

const plan = (tenants: TenantPlan[]): Plan => ({
  tenants,
  counts: {
    create: 0,
    update: 0,
    delete: 0,
    heldBack: 0,
    notOwned: 0,
    refused: 0,
    unchanged: tenants.length,
  },
  unnamedRows: [],
  budget: { allowed: 1, tenants: 1, wanted: 0 } as unknown as Plan['budget'],
  changes: false,
});

const base = { kind: 'unchanged' as const, writes: false, specChanges: [], children: [] };

describe('planText and hosts', () => {
  it('shows an unchanged tenant only for the hosts it does not route, as the operator decides them', () => {
    const text = planText(
      plan([
        { ...base, name: 'quiet' },
        {
          ...base,
          name: 'newer',
          hosts: {
            withheld: [
              { host: 'shop.example.org', reason: 'HostConflict', holder: 'Tenant older' },
              { host: 'victim.apps.example.com', reason: 'HostTemplated', holder: 'tenant victim' },
            ],
            takenFrom: [{ host: 'www.example.org', tenant: 'other' }],
            strays: [{ route: 'Ingress newer/by-hand', hosts: ['old.example.org'] }],
          },
        },
      ]),
      'heading',
    );
    expect(text).not.toContain('quiet');
    expect(text).toContain('= newer (unchanged)');
    expect(text).toContain('    host shop.example.org: withheld (HostConflict: Tenant older)');
    expect(text).toContain('    host victim.apps.example.com: withheld (HostTemplated: tenant victim)');
    expect(text).toContain('    host www.example.org: taken from Tenant other');
    expect(text).toContain(
      '    Ingress newer/by-hand: not made by landlord, serves old.example.org (not held)',
    );
  });
});
