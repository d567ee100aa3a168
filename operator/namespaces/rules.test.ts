// The namespace rules for both uses: a Shared class's children in a namespace others share, and a
// PerTenant tenant's own namespace made from its class's name template.
import { describe, expect, it } from 'vitest';
import { resolvedClass, type ClassPolicy, type TenantClass } from '../../api/tenantclass.js';
import {
  classTemplates,
  DEFAULT_RESERVED_NAMESPACES,
  describeAllowed,
  globMatches,
  isNamespaceAllowed,
  namespaceProblem,
  SYSTEM_NAMESPACES,
  tenantNameFor,
  tenantNamespaceName,
  type NamespaceScope,
} from './rules.js';

const OPEN: NamespaceScope = {
  allowedNamespaces: [],
  operatorNamespace: 'landlord-system',
  reservedNamespaces: DEFAULT_RESERVED_NAMESPACES,
};
const LISTED: NamespaceScope = { ...OPEN, allowedNamespaces: ['team-a', 'team-b'] };

/** A PerTenant class with this template, Isolated, trusting nothing unless a case says so. */
function classWith(nameTemplate: string, tweaks: Partial<ClassPolicy> = {}): ClassPolicy {
  return { ...resolvedClass('mine', 1, { namespace: { nameTemplate } }), ...tweaks };
}

describe('tenantNamespaceName', () => {
  it.each([
    ['{name}', 'acme', 'acme'],
    ['t-{name}', 'acme', 't-acme'],
    ['{name}-{name}', 'ab', 'ab-ab'],
  ])('fills %j for %s: %s', (template, tenant, namespace) => {
    expect(tenantNamespaceName(tenant, classWith(template), OPEN)).toEqual({ ok: true, namespace });
  });

  it.each([
    ['default', '{name}', 'notAllowed', 'system namespace'],
    ['kube-system', '{name}', 'notAllowed', 'system namespace'],
    ['kube-public', '{name}', 'notAllowed', 'system namespace'],
    ['kube-node-lease', '{name}', 'notAllowed', 'system namespace'],
    ['landlord-system', '{name}', 'notAllowed', "landlord's own namespace"],
    ['acme', 'Tenants/{name}', 'notAllowed', 'not a namespace name'],
    ['a'.repeat(60), 'tenant-{name}', 'notAllowed', 'not a namespace name'],
    ['kube-anything', '{name}', 'reserved', '"kube-*"'],
    ['system', 'kube-{name}', 'notAllowed', 'system namespace'],
    ['foo', 'kube-{name}', 'reserved', '"kube-*"'],
    ['foo-system', '{name}', 'reserved', '"*-system"'],
    ['ingress-nginx', '{name}', 'reserved', '"ingress-*"'],
    ['istio-gateways', '{name}', 'reserved', '"istio-*"'],
    ['cert-manager', '{name}', 'reserved', '"cert-manager"'],
    ['monitoring', '{name}', 'reserved', '"monitoring"'],
  ])('refuses tenant %s under template %j: %s, %s', (tenant, template, kind, says) => {
    const result = tenantNamespaceName(tenant, classWith(template), OPEN);
    expect(result).toMatchObject({ ok: false, kind });
    if (result.ok) return;
    expect(result.problem).toContain(says);
  });

  it('holds kube-* reserved even when the setting leaves it out', () => {
    const result = tenantNamespaceName('kube-foo', classWith('{name}'), { ...OPEN, reservedNamespaces: [] });
    expect(result).toMatchObject({ ok: false, kind: 'reserved' });
  });

  it('reserves only what the setting lists once it is set', () => {
    const scope = { ...OPEN, reservedNamespaces: ['payments'] };
    expect(tenantNamespaceName('monitoring', classWith('{name}'), scope).ok).toBe(true);
    expect(tenantNamespaceName('payments', classWith('{name}'), scope)).toMatchObject({ kind: 'reserved' });
  });

  it('is not held to the allow-list, which is for Shared children', () => {
    expect(tenantNamespaceName('acme', classWith('{name}'), LISTED)).toEqual({ ok: true, namespace: 'acme' });
  });

  it('reserves every secret source namespace, whether or not it exists, under any template', () => {
    const scope = { ...OPEN, secretSourceNamespaces: ['platform-secrets', 'db-creds'] };
    for (const [tenant, template] of [
      ['platform-secrets', '{name}'],
      ['creds', 'db-{name}'],
    ]) {
      const result = tenantNamespaceName(tenant!, classWith(template!), scope);
      expect(result).toMatchObject({ ok: false, kind: 'reserved' });
      if (!result.ok) expect(result.problem).toContain('secret source namespace');
    }
    expect(tenantNamespaceName('platform', classWith('{name}'), scope).ok).toBe(true);
  });
});

describe("tenantNamespaceName: a namespace the class's own network rules trust", () => {
  const byName = { matchLabels: { 'kubernetes.io/metadata.name': 'edge-proxy' } };

  it('refuses the namespace allowIngressFrom selects by name, and allows the others', () => {
    const tenantClass = classWith('{name}', { allowIngressFrom: byName });
    const result = tenantNamespaceName('edge-proxy', tenantClass, OPEN);
    expect(result).toMatchObject({ ok: false, kind: 'trusted' });
    if (!result.ok) expect(result.problem).toContain('allowIngressFrom');
    expect(
      tenantNamespaceName('edge-proxy', classWith('t-{name}', { allowIngressFrom: byName }), OPEN).ok,
    ).toBe(true);
  });

  it("reads the labels the namespace would carry: the class labels, filled in, and landlord's own", () => {
    const labelled = classWith('{name}', {
      namespace: { ...classWith('{name}').namespace, labels: { team: '{name}' } },
      allowIngressFrom: { matchLabels: { team: 'ops' } },
    });
    expect(tenantNamespaceName('ops', labelled, OPEN)).toMatchObject({ ok: false, kind: 'trusted' });
    expect(tenantNamespaceName('web', labelled, OPEN).ok).toBe(true);
    const everyTenant = classWith('{name}', {
      allowIngressFrom: { matchExpressions: [{ key: 'landlord.dev/tenant', operator: 'Exists' }] },
    });
    expect(tenantNamespaceName('web', everyTenant, OPEN)).toMatchObject({ ok: false, kind: 'trusted' });
  });

  it('refuses the namespace an allowEgressTo entry selects, and names the entry', () => {
    const tenantClass = classWith('{name}', {
      allowEgressTo: [{ ipBlock: { cidr: '0.0.0.0/0' } }, { namespaceSelector: byName }],
    });
    const result = tenantNamespaceName('edge-proxy', tenantClass, OPEN);
    expect(result).toMatchObject({ ok: false, kind: 'trusted' });
    if (!result.ok) expect(result.problem).toContain('allowEgressTo[1].namespaceSelector');
  });

  it('trusts nothing through an empty selector, nor when the class is not Isolated', () => {
    expect(tenantNamespaceName('edge-proxy', classWith('{name}', { allowIngressFrom: {} }), OPEN).ok).toBe(
      true,
    );
    const open = classWith('{name}', { allowIngressFrom: byName, networkIsolation: 'None' });
    expect(tenantNamespaceName('edge-proxy', open, OPEN).ok).toBe(true);
  });
});

describe('tenantNamespaceName: a name another class makes for another tenant', () => {
  const legacy = { className: 'legacy', template: '{name}' };
  const standard = { className: 'standard', template: 'tenant-{name}' };
  const scope = { ...OPEN, classTemplates: [legacy, standard] };
  const underLegacy = { ...classWith('{name}'), name: 'legacy' };
  const underStandard = { ...classWith('tenant-{name}'), name: 'standard' };

  it('refuses the looser template the name the prefixed one makes for another tenant', () => {
    const result = tenantNamespaceName('tenant-victim', underLegacy, scope);
    expect(result).toMatchObject({ ok: false, kind: 'overlap' });
    if (!result.ok)
      expect(result.problem).toContain(
        `class standard's namespace template "tenant-{name}" makes for tenant victim`,
      );
  });

  it('leaves the prefixed template its names, and the looser one the names the other cannot make', () => {
    expect(tenantNamespaceName('victim', underStandard, scope)).toEqual({
      ok: true,
      namespace: 'tenant-victim',
    });
    expect(tenantNamespaceName('acme', underLegacy, scope)).toEqual({ ok: true, namespace: 'acme' });
  });

  it('never sets two classes with the same template against each other', () => {
    const twin = { className: 'large', template: 'tenant-{name}' };
    const result = tenantNamespaceName('acme', underStandard, { ...scope, classTemplates: [standard, twin] });
    expect(result.ok).toBe(true);
  });

  it('refuses both sides when two templates are as specific and can make one name', () => {
    const pre = { className: 'pre', template: 'a-{name}' };
    const post = { className: 'post', template: '{name}-a' };
    const both = { ...OPEN, classTemplates: [pre, post] };
    const asPre = tenantNamespaceName('x-a', { ...classWith('a-{name}'), name: 'pre' }, both);
    const asPost = tenantNamespaceName('a-x', { ...classWith('{name}-a'), name: 'post' }, both);
    expect([asPre, asPost]).toMatchObject([{ kind: 'overlap' }, { kind: 'overlap' }]);
    expect(tenantNamespaceName('b', { ...classWith('a-{name}'), name: 'pre' }, both).ok).toBe(true);
  });

  it('counts a template without {name} as the one name all its tenants get', () => {
    const fixed = { className: 'fixed', template: 'shared-box' };
    const result = tenantNamespaceName('shared-box', underLegacy, { ...OPEN, classTemplates: [fixed] });
    expect(result).toMatchObject({ ok: false, kind: 'overlap' });
    if (!result.ok) expect(result.problem).toContain('every tenant of it');
  });
});

describe('tenantNameFor', () => {
  // How a template is read backwards is template-match.test.ts's; here, which names a tenant may have.
  it('gives the name that fills the template, or "" for a template that is the namespace', () => {
    expect(tenantNameFor('tenant-{name}', 'tenant-acme')).toBe('acme');
    expect(tenantNameFor('box', 'box')).toBe('');
  });

  it.each([
    ['t-{name}', 't--x'],
    ['{name}', 'a.b'],
    ['x{name}', `x${'a'.repeat(64)}`],
  ])('%j makes %s for no tenant: the name would not be a DNS label', (template, namespace) => {
    expect(tenantNameFor(template, namespace)).toBeUndefined();
  });
});

describe('globMatches', () => {
  it.each([
    ['kube-*', 'kube-foo', true],
    ['kube-*', 'kubex', false],
    ['*-system', 'foo-system', true],
    ['*-system', 'foo-systems', false],
    ['monitoring', 'monitoring', true],
    ['monitoring', 'monitoring-2', false],
    ['a*b*c', 'a-x-b-y-c', true],
  ])('%s against %s: %s', (glob, name, expected) => {
    expect(globMatches(glob, name)).toBe(expected);
  });
});

describe('classTemplates', () => {
  it("lists the PerTenant classes' templates, the default filled in, and leaves out Shared ones", () => {
    const tc = (name: string, spec: TenantClass['spec']): TenantClass => ({
      apiVersion: 'landlord.dev/v1beta1',
      kind: 'TenantClass',
      metadata: { name },
      spec,
    });
    const classes = [
      tc('standard', { namespace: { nameTemplate: 'tenant-{name}' } }),
      tc('plain', {}),
      tc('shared', { namespace: { mode: 'Shared' } }),
    ];
    expect(classTemplates(classes)).toEqual([
      { className: 'standard', template: 'tenant-{name}' },
      { className: 'plain', template: '{name}' },
    ]);
  });
});

describe("namespaceProblem for a Shared class's children", () => {
  it.each(SYSTEM_NAMESPACES)('refuses %s, even when listed', (namespace) => {
    const scope = { ...OPEN, allowedNamespaces: [namespace] };
    expect(namespaceProblem(namespace, 'children', scope)).toContain('Kubernetes system namespace');
  });

  it('refuses a secret source namespace, even when listed: its pods could mount every source', () => {
    const scope = {
      ...LISTED,
      allowedNamespaces: ['platform-secrets'],
      secretSourceNamespaces: ['platform-secrets'],
    };
    expect(namespaceProblem('platform-secrets', 'children', scope)).toContain('secret source namespace');
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

describe('tenantNamespaceName: "{id}" templates and warm pools', () => {
  const pool = { size: 2, deployment: {}, maxUnavailable: 1 };

  it('fills "{id}" with the id the caller gives', () => {
    const named = tenantNamespaceName('acme', classWith('t-{id}'), { ...OPEN, namespaceId: 'ab12cd34' });
    expect(named).toEqual({ ok: true, namespace: 't-ab12cd34' });
  });

  it.each([
    { template: 't-{id}', problem: undefined },
    { template: '{id}', problem: undefined },
    { template: 't-{name}', problem: 'must use "{id}" and not "{name}"' },
    { template: '{name}-{id}', problem: 'must use "{id}" and not "{name}"' },
  ])('a pooled class with $template: $problem', ({ template, problem }) => {
    const named = tenantNamespaceName('acme', classWith(template, { warmPool: pool }), {
      ...OPEN,
      namespaceId: 'ab12cd34',
    });
    if (problem === undefined) return expect(named.ok).toBe(true);
    expect(named).toMatchObject({ ok: false, kind: 'poolTemplate' });
    expect(named.ok ? '' : named.problem).toContain(problem);
  });

  it('a "{name}" template is fine without a pool', () => {
    expect(tenantNamespaceName('acme', classWith('t-{name}'), OPEN).ok).toBe(true);
  });
});
