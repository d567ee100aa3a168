// landlord validate's verdicts, one row per case, in both ways a row is written: as the
// DocumentClient takes it (manifests as JSON text or as objects) and as DynamoDB AttributeValues.
import { describe, expect, it } from 'vitest';
import {
  CLASS_API_VERSION,
  CLASS_KIND,
  DEFAULT_CLASS_ANNOTATION,
  type TenantClass,
} from '../api/tenantclass.js';
import { testConfig, validConfigMaps, validDeployment } from '../testing/policy.js';
import { nativeForm } from '../testing/rows.js';
import { EXIT, exitCode, validateRow, type PolicyConfig, type RowVerdict } from './validate.js';

const POLICY: PolicyConfig = testConfig({ allowedNamespaces: [], operatorNamespace: 'landlord-system' });

/** The valid Deployment with `change` applied to a copy. */
function deployment(change: (d: ReturnType<typeof validDeployment>) => void = () => undefined): object {
  const d = validDeployment();
  change(d);
  return d;
}

/** A DocumentClient row with its manifests as JSON text, the seed format. */
function textRow(name: unknown, spec: object, configMaps: object[] = validConfigMaps()): object {
  return { name, spec: JSON.stringify(spec), customizations: JSON.stringify(configMaps), deleted: false };
}

const VALID_CHILDREN = [
  { kind: 'Deployment', namespace: 'team-a', name: 'web' },
  { kind: 'ConfigMap', namespace: 'team-a', name: 'settings' },
  { kind: 'ConfigMap', namespace: 'team-b', name: 'extra' },
];

interface Case {
  name: string;
  row: unknown;
  policy?: Partial<PolicyConfig>;
  expected: Partial<RowVerdict> & { verdict: RowVerdict['verdict'] };
  /** The refusal's condition, when refused; the message is matched, it names the attribute or field. */
  condition?: { type: string; reason: string; message: RegExp };
  exit: number;
}

const CASES: Case[] = [
  {
    name: 'a valid row in the seed format (manifests as JSON text)',
    row: textRow('tenant-1', validDeployment()),
    expected: {
      verdict: 'valid',
      form: 'document',
      name: 'tenant-1',
      state: 'active',
      children: VALID_CHILDREN,
    },
    exit: EXIT.valid,
  },
  {
    name: 'a valid row with the manifests as an object and an array',
    row: { name: 'tenant-1', spec: validDeployment(), customizations: validConfigMaps() },
    expected: { verdict: 'valid', form: 'document', name: 'tenant-1', children: VALID_CHILDREN },
    exit: EXIT.valid,
  },
  {
    name: 'a valid row as DynamoDB AttributeValues',
    row: {
      name: { S: 'tenant-1' },
      spec: nativeForm(validDeployment()),
      customizations: nativeForm(validConfigMaps()),
    },
    expected: { verdict: 'valid', form: 'attribute-values', name: 'tenant-1', children: VALID_CHILDREN },
    exit: EXIT.valid,
  },
  {
    name: 'a row without customizations',
    row: {
      name: 'tenant-1',
      // Without its ConfigMaps the pod may not mount one: in a shared namespace it is someone else's.
      spec: JSON.stringify(
        deployment((d) => {
          delete d.spec!.template.spec!.volumes;
          delete d.spec!.template.spec!.containers[0]!.volumeMounts;
        }),
      ),
    },
    expected: { verdict: 'valid', children: VALID_CHILDREN.slice(0, 1) },
    exit: EXIT.valid,
  },
  {
    name: 'bad JSON in spec',
    row: { name: 'tenant-1', spec: '{"apiVersion": "apps/v1",' },
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: { type: 'Synced', reason: 'InvalidRecord', message: /^spec: invalid JSON/ },
    exit: EXIT.refused,
  },
  {
    name: 'customizations that are not a list',
    row: {
      name: 'tenant-1',
      spec: JSON.stringify(validDeployment()),
      customizations: '{"kind": "ConfigMap"}',
    },
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: { type: 'Synced', reason: 'InvalidRecord', message: /^customizations/ },
    exit: EXIT.refused,
  },
  {
    name: 'deleted as a string instead of a boolean',
    row: { ...textRow('tenant-1', validDeployment()), deleted: 'yes' },
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: { type: 'Synced', reason: 'InvalidRecord', message: /^deleted/ },
    exit: EXIT.refused,
  },
  {
    name: 'a number as the name',
    row: textRow(42, validDeployment()),
    expected: { verdict: 'refused', name: undefined },
    condition: { type: 'Synced', reason: 'InvalidRecord', message: /^name/ },
    exit: EXIT.refused,
  },
  {
    name: 'a name that is not a DNS-1123 label',
    row: textRow('Tenant_1', validDeployment()),
    expected: { verdict: 'refused', name: undefined },
    condition: {
      type: 'Synced',
      reason: 'InvalidRecord',
      message: /^name: "Tenant_1" is not a DNS-1123 label/,
    },
    exit: EXIT.refused,
  },
  {
    name: 'a privileged container (Pod Security baseline)',
    row: textRow(
      'tenant-1',
      deployment((d) => (d.spec!.template.spec!.containers[0]!.securityContext = { privileged: true })),
    ),
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: {
      type: 'Applied',
      reason: 'PodSecurityViolation',
      message:
        /^Deployment team-a\/web: .*containers\[0\]\.securityContext\.privileged.* baseline Pod Security Standard/,
    },
    exit: EXIT.refused,
  },
  {
    name: 'a privileged container passes when the operator allows privileged pods',
    row: textRow(
      'tenant-1',
      deployment((d) => (d.spec!.template.spec!.containers[0]!.securityContext = { privileged: true })),
    ),
    policy: { tenantClass: testConfig({ podSecurity: 'privileged' }).tenantClass },
    expected: { verdict: 'valid' },
    exit: EXIT.valid,
  },
  {
    name: 'a system namespace',
    row: textRow(
      'tenant-1',
      deployment((d) => (d.metadata!.namespace = 'kube-system')),
    ),
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: { type: 'Applied', reason: 'NamespaceNotAllowed', message: /kube-system/ },
    exit: EXIT.refused,
  },
  {
    name: "the operator's own namespace",
    row: textRow('tenant-1', validDeployment(), [
      { ...validConfigMaps()[0]!, metadata: { name: 'c', namespace: 'ops' } },
    ]),
    policy: { operatorNamespace: 'ops' },
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: { type: 'Applied', reason: 'NamespaceNotAllowed', message: /^ConfigMap ops\/c: / },
    exit: EXIT.refused,
  },
  {
    name: 'a namespace outside LANDLORD_ALLOWED_NAMESPACES',
    row: textRow('tenant-1', validDeployment()),
    policy: { allowedNamespaces: ['team-a'] },
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: { type: 'Applied', reason: 'NamespaceNotAllowed', message: /^ConfigMap team-b\/extra: / },
    exit: EXIT.refused,
  },
  {
    name: 'a Service instead of a Deployment: refused by sync, before any write',
    row: textRow('tenant-1', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'team-a' },
    }),
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: { type: 'Synced', reason: 'InvalidRecord', message: /^spec\.apiVersion: must be "apps\/v1"/ },
    exit: EXIT.refused,
  },
  {
    name: 'a suspended row: the same children, the Deployment at 0 replicas',
    row: { ...textRow('tenant-1', validDeployment()), state: 'suspended' },
    expected: { verdict: 'valid', state: 'suspended', children: VALID_CHILDREN },
    exit: EXIT.valid,
  },
  {
    name: 'an archived row: no children, whatever the policy says of its spec',
    row: {
      ...textRow(
        'tenant-1',
        deployment((d) => (d.spec!.template.spec!.hostNetwork = true)),
      ),
      state: 'archived',
    },
    expected: { verdict: 'valid', state: 'archived', children: [] },
    exit: EXIT.valid,
  },
  {
    name: 'an unknown state, naming the allowed values',
    row: { ...textRow('tenant-1', validDeployment()), state: 'paused' },
    expected: { verdict: 'refused', name: 'tenant-1' },
    condition: {
      type: 'Synced',
      reason: 'InvalidRecord',
      message: /^state: "paused" is not a state; allowed: active, suspended, archived, purged/,
    },
    exit: EXIT.refused,
  },
  {
    name: 'a deleted row, however broken its spec',
    row: { name: 'tenant-1', spec: '{broken', deleted: true },
    expected: { verdict: 'deleted', form: 'document', name: 'tenant-1' },
    exit: EXIT.valid,
  },
  {
    name: 'a deleted row as AttributeValues',
    row: { name: { S: 'tenant-1' }, deleted: { BOOL: true } },
    expected: { verdict: 'deleted', form: 'attribute-values', name: 'tenant-1' },
    exit: EXIT.valid,
  },
  {
    name: 'JSON that is not an object',
    row: [{ name: 'tenant-1' }],
    expected: { verdict: 'unreadable' },
    exit: EXIT.usage,
  },
  {
    name: 'a number the DocumentClient refuses to put',
    row: { name: 'tenant-1', spec: { ...validDeployment(), replicas: 1e20 } },
    expected: { verdict: 'unreadable' },
    exit: EXIT.usage,
  },
];

describe('validateRow', () => {
  it.each(CASES)('$name', ({ row, policy, expected, condition, exit }) => {
    const verdict = validateRow(row, { ...POLICY, ...policy });
    expect(verdict).toMatchObject(expected);
    expect(exitCode(verdict)).toBe(exit);
    if (condition === undefined) {
      expect(verdict).not.toHaveProperty('condition');
      return;
    }
    expect(verdict).toMatchObject({
      condition: { type: condition.type, status: 'False', reason: condition.reason },
    });
    if (verdict.verdict === 'refused') expect(verdict.condition.message).toMatch(condition.message);
  });

  it('judges both forms of the same row alike', () => {
    const spec = deployment((d) => (d.spec!.template.spec!.hostNetwork = true));
    const document = validateRow(textRow('tenant-1', spec), POLICY);
    const native = validateRow(
      { name: { S: 'tenant-1' }, spec: nativeForm(spec), customizations: nativeForm(validConfigMaps()) },
      POLICY,
    );
    expect(document).toMatchObject({ verdict: 'refused', condition: { reason: 'PodSecurityViolation' } });
    expect({ ...native, form: 'document' }).toEqual(document);
  });
});

describe('validateRow under the platform classes', () => {
  const tenancy: TenantClass = {
    apiVersion: CLASS_API_VERSION,
    kind: CLASS_KIND,
    metadata: { name: 'standard', annotations: { [DEFAULT_CLASS_ANNOTATION]: 'true' } },
    spec: { namespace: { mode: 'PerTenant', nameTemplate: 't-{name}' }, limits: { maxReplicas: 2 } },
  };
  const row = (extra: object = {}): object => ({ ...textRow('tenant-1', validDeployment()), ...extra });

  it('judges a row that names no class under the default one: its namespace and the limits of that class', () => {
    const verdict = validateRow(row(), POLICY, [tenancy]);
    expect(verdict).toMatchObject({ verdict: 'valid', class: 'standard' });
    const children = verdict.verdict === 'valid' ? verdict.children : [];
    expect(children).toContainEqual({ kind: 'Namespace', namespace: undefined, name: 't-tenant-1' });
    expect(children).toContainEqual({ kind: 'Deployment', namespace: 't-tenant-1', name: 'web' });
    const many = textRow(
      'tenant-1',
      deployment((d) => (d.spec!.replicas = 3)),
    );
    expect(validateRow(many, POLICY, [tenancy])).toMatchObject({ verdict: 'refused' });
    expect(validateRow(many, POLICY)).toMatchObject({ verdict: 'valid', class: 'built-in' });
  });

  it('shows the Service, the route and the URL of a class that exposes its tenants', () => {
    const exposing: TenantClass = {
      ...tenancy,
      spec: {
        ...tenancy.spec,
        expose: { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' },
        allowedDomains: ['apps.example.com'],
      },
    };
    const verdict = validateRow(row(), POLICY, [exposing]);
    expect(verdict).toMatchObject({ verdict: 'valid', url: 'http://tenant-1.apps.example.com' });
    const children = verdict.verdict === 'valid' ? verdict.children : [];
    expect(children).toContainEqual({ kind: 'Service', namespace: 't-tenant-1', name: 'landlord-app' });
    expect(children).toContainEqual({ kind: 'Ingress', namespace: 't-tenant-1', name: 'landlord-app' });
    const outside = { ...exposing, spec: { ...exposing.spec, allowedDomains: ['example.org'] } };
    expect(validateRow(row(), POLICY, [outside])).toMatchObject({
      verdict: 'refused',
      condition: { reason: 'HostNotAllowed' },
    });
  });

  it('refuses a row naming a class that is not in the file, as the operator would (ClassNotFound)', () => {
    const verdict = validateRow(row({ class: 'gold' }), POLICY, [tenancy]);
    expect(verdict).toMatchObject({
      verdict: 'refused',
      condition: { type: 'Applied', status: 'False', reason: 'ClassNotFound' },
    });
    expect(exitCode(verdict)).toBe(EXIT.refused);
  });
});

describe('validateRow: which rows may use a class', () => {
  const trusted: TenantClass = {
    apiVersion: CLASS_API_VERSION,
    kind: CLASS_KIND,
    metadata: { name: 'trusted' },
    spec: { namespace: { mode: 'Shared' }, podSecurity: 'privileged', allowedTables: ['platform'] },
  };
  const row = textRow('tenant-1', validDeployment());
  const named = { ...row, class: 'trusted' };

  it('refuses a row of a table the class leaves out, or of no table given, with ClassNotAllowed', () => {
    for (const table of ['rows', undefined]) {
      const verdict = validateRow(named, POLICY, [trusted], table);
      expect(verdict).toMatchObject({
        verdict: 'refused',
        condition: { type: 'Applied', status: 'False', reason: 'ClassNotAllowed' },
      });
      expect(exitCode(verdict)).toBe(EXIT.refused);
    }
  });

  it('judges a row of a table the class lists under that class', () => {
    expect(validateRow(named, POLICY, [trusted], 'platform')).toMatchObject({
      verdict: 'valid',
      class: 'trusted',
    });
  });

  it('with no default class in the file: NoDefaultClass, unless the operator is set to use the built-in class', () => {
    expect(validateRow(row, POLICY, [trusted], 'rows')).toMatchObject({
      verdict: 'refused',
      condition: { reason: 'NoDefaultClass' },
    });
    expect(validateRow(row, { ...POLICY, useBuiltInClass: true }, [trusted], 'rows')).toMatchObject({
      verdict: 'valid',
      class: 'built-in',
    });
  });
});
