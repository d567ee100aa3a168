import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type ClassSource, type Tenant } from '../../api/tenant.js';
import { BUILT_IN_CLASS_NAME } from '../../api/tenantclass.js';
import { classChange, spreadDelays, tenantsOfClass } from './class-changes.js';

const mark = (generation: number, isDefault = false) => ({ generation, isDefault });

function tenant(
  name: string,
  specClass?: string,
  statusClass?: string,
  source: ClassSource = 'Default',
): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name },
    spec: specClass === undefined ? {} : { class: specClass },
    status: statusClass === undefined ? {} : { class: statusClass, classSource: source },
  };
}

describe('classChange', () => {
  it('is nothing when neither the spec nor the default mark changed', () => {
    expect(classChange('a', mark(2), mark(2))).toBeUndefined();
    expect(classChange('a', mark(2, true), mark(2, true))).toBeUndefined();
  });

  it('is a change of that class alone when its spec changes, appears or goes', () => {
    for (const [before, after] of [
      [mark(1), mark(2)],
      [undefined, mark(1)],
      [mark(1), undefined],
    ] as const)
      expect(classChange('a', before, after)).toEqual({ name: 'a', defaultsChanged: false });
  });

  it('changes the defaults when the annotation comes or goes, or a default class appears, changes or goes', () => {
    for (const [before, after] of [
      [mark(1), mark(1, true)],
      [mark(1, true), mark(1)],
      [undefined, mark(1, true)],
      [mark(1, true), undefined],
      [mark(1, true), mark(2, true)],
    ] as const)
      expect(classChange('a', before, after)).toEqual({ name: 'a', defaultsChanged: true });
  });
});

describe('tenantsOfClass', () => {
  const tenants = [
    tenant('named', 'gold'),
    tenant('under', undefined, 'gold'),
    tenant('moving', 'silver', 'gold'),
    tenant('elsewhere', 'silver', 'silver'),
    tenant('kept', undefined, 'silver'),
    tenant('dropped', undefined, 'silver', 'Row'),
    tenant('built-in', undefined, BUILT_IN_CLASS_NAME),
    tenant('new'),
  ];

  it('names the Tenants whose row names the class or that are under it, sorted', () => {
    expect(tenantsOfClass(tenants, { name: 'gold', defaultsChanged: false })).toEqual([
      'moving',
      'named',
      'under',
    ]);
  });

  it('adds those that follow the default when the defaults changed, never those kept under another class', () => {
    expect(tenantsOfClass(tenants, { name: 'gold', defaultsChanged: true })).toEqual([
      'built-in',
      'dropped',
      'moving',
      'named',
      'new',
      'under',
    ]);
  });
});

describe('spreadDelays', () => {
  it('spaces Tenants at the rate, the first at once', () => {
    expect(spreadDelays(4, 2)).toEqual([0, 500, 1000, 1500]);
    expect(spreadDelays(0, 50)).toEqual([]);
  });
});
