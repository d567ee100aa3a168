// The namespace rules for both uses: a Shared class's children in a namespace others share, and a
// PerTenant tenant's own namespace made from its class's name template.
import { describe, expect, it } from 'vitest';
import {
  describeAllowed,
  isNamespaceAllowed,
  namespaceProblem,
  SYSTEM_NAMESPACES,
  tenantNamespaceName,
  type NamespaceScope,
} from './rules.js';

const OPEN: NamespaceScope = { allowedNamespaces: [], operatorNamespace: 'landlord-system' };
const LISTED: NamespaceScope = { ...OPEN, allowedNamespaces: ['team-a', 'team-b'] };

describe('tenantNamespaceName', () => {
  it.each([
    ['{name}', 'acme', 'acme'],
    ['t-{name}', 'acme', 't-acme'],
    ['{name}-{name}', 'ab', 'ab-ab'],
  ])('fills %j for %s: %s', (template, tenant, namespace) => {
    expect(tenantNamespaceName(tenant, template, OPEN)).toEqual({ ok: true, namespace });
  });

  it.each([
    ['default', '{name}', 'system namespace'],
    ['kube-system', '{name}', 'system namespace'],
    ['kube-public', '{name}', 'system namespace'],
    ['kube-node-lease', '{name}', 'system namespace'],
    ['kube-anything', '{name}', 'system namespace'],
    ['system', 'kube-{name}', 'system namespace'],
    ['landlord-system', '{name}', "landlord's own namespace"],
    ['acme', 'Tenants/{name}', 'not a namespace name'],
    ['a'.repeat(60), 'tenant-{name}', 'not a namespace name'],
  ])('refuses tenant %s under template %j: %s', (tenant, template, says) => {
    const result = tenantNamespaceName(tenant, template, OPEN);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toContain(says);
  });

  it('is not held to the allow-list, which is for Shared children', () => {
    expect(tenantNamespaceName('acme', '{name}', LISTED)).toEqual({ ok: true, namespace: 'acme' });
  });
});

describe("namespaceProblem for a Shared class's children", () => {
  it.each(SYSTEM_NAMESPACES)('refuses %s, even when listed', (namespace) => {
    const scope = { ...OPEN, allowedNamespaces: [namespace] };
    expect(namespaceProblem(namespace, 'children', scope)).toContain('Kubernetes system namespace');
  });

  it("refuses the operator's own namespace, even when nothing is listed", () => {
    expect(namespaceProblem('landlord-system', 'children', OPEN)).toContain("operator's own namespace");
  });

  it.each(['default', 'kube-anything', 'team-c'])('allows %s when nothing is listed', (namespace) => {
    expect(isNamespaceAllowed(namespace, OPEN)).toBe(true);
  });

  it('allows only what is listed or matches the pattern', () => {
    const scope = { ...LISTED, allowedNamespacePattern: /^tenant-/ };
    expect(isNamespaceAllowed('team-a', scope)).toBe(true);
    expect(isNamespaceAllowed('tenant-x', scope)).toBe(true);
    expect(namespaceProblem('team-c', 'children', scope)).toBe('is not one landlord is configured to manage');
  });

  it('gives the same answer every time for a /g pattern', () => {
    const scope = { ...OPEN, allowedNamespacePattern: /^tenant-/g };
    expect([1, 2, 3].map(() => isNamespaceAllowed('tenant-x', scope))).toEqual([true, true, true]);
  });
});

describe('describeAllowed', () => {
  it("names the system namespaces and the operator's when anything else goes", () => {
    expect(describeAllowed(OPEN)).toBe(
      'use any namespace except kube-system, kube-public, kube-node-lease and landlord-system',
    );
  });

  it('lists what is allowed, then what never is', () => {
    expect(describeAllowed({ ...LISTED, allowedNamespacePattern: /^tenant-/ })).toBe(
      'use team-a, team-b or a namespace matching /^tenant-/ (never kube-system, kube-public, kube-node-lease or landlord-system)',
    );
  });

  it('summarises a long list', () => {
    const allowedNamespaces = Array.from({ length: 12 }, (_, i) => `team-${i}`);
    expect(describeAllowed({ ...OPEN, allowedNamespaces })).toContain('team-9 or 2 more listed namespaces');
  });
});
