// The contract between the two components, as properties: whatever sync makes of a row, the
// operator can judge. The whole mapping a row goes through: DynamoDB item → parseRow → the Tenant sync
// applies (as JSON, the way the API server stores and returns it) → the operator's evaluateTenant.
// Each step has its own tests; these check that they fit together: whatever a row holds, the chain
// never throws and ends in children to apply or a specific, bounded refusal, and how the row spells
// its manifests (JSON text or native maps) never changes the verdict. The generators of rows are
// most of its length, and every property here draws on all of them.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant, type TenantSpec } from './tenant.js';
import { validConfigMaps, validDeployment } from '../testing/policy.js';
import { DEFAULT_RESERVED_NAMESPACES } from '../operator/namespaces/rules.js';
import {
  REFUSAL_REASONS,
  builtInClass,
  evaluateTenant,
  type PodSecurityLevel,
  type PolicyConfig,
  type PolicyResult,
} from '../operator/policy/index.js';
import { nativeForm } from '../testing/rows.js';
import { parseRow } from '../sync/row/index.js';

type Item = Record<string, AttributeValue>;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The CRD's limit on a condition message: a longer one would make the status write itself fail. */
const MAX_CONDITION_MESSAGE = 32_768;

/** The Tenant sync applies for a parsed row (see TenantWriter.apply), as the API server returns it. */
function tenantFor(name: string, spec: TenantSpec): Tenant {
  const tenant: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name, uid: '6f1c0f0e-0000-4000-8000-000000000001', generation: 1 },
    spec: { deployment: spec.deployment, configMaps: spec.configMaps ?? [] },
  };
  return JSON.parse(JSON.stringify(tenant)) as Tenant;
}

function expectSpecific(result: PolicyResult, spec: TenantSpec): void {
  if (result.ok) {
    expect(typeof result.children.deployment.metadata?.name).toBe('string');
    expect(typeof result.children.deployment.metadata?.namespace).toBe('string');
    expect(result.children.configMaps).toHaveLength(spec.configMaps?.length ?? 0);
    return;
  }
  expect(REFUSAL_REASONS).toContain(result.refusal.reason);
  expect(result.refusal.message.trim()).not.toBe('');
  expect(result.refusal.message.length).toBeLessThanOrEqual(MAX_CONDITION_MESSAGE);
}

/** Runs the chain; returns the verdict, or undefined when the row is not a tenant to judge. */
function judge(item: Item, config: PolicyConfig): PolicyResult | undefined {
  const row = parseRow(item);
  if (row.kind === 'invalid') {
    expect(row.problem.message.length).toBeLessThanOrEqual(MAX_CONDITION_MESSAGE);
    return undefined;
  }
  // A row of several Deployments is judged one Deployment at a time by the workload facet
  // (operator/workload/), which its own tests cover.
  if (row.kind === 'deleted' || row.spec.deployments !== undefined) return undefined;
  const result = evaluateTenant(tenantFor(row.name, row.spec), config);
  expectSpecific(result, row.spec);
  return result;
}

const config: fc.Arbitrary<PolicyConfig> = fc.record({
  allowedNamespaces: fc.constantFrom([], ['team-a', 'team-b'], ['team-a']),
  operatorNamespace: fc.constant('landlord'),
  reservedNamespaces: fc.constant(DEFAULT_RESERVED_NAMESPACES),
  tenantClass: fc.constantFrom<PodSecurityLevel>('privileged', 'baseline', 'restricted').map(builtInClass),
});

/** Where a manifest's bad value can hide: the fields the checks read, and a few they do not. */
const DEPLOYMENT_PATHS: readonly (readonly (string | number)[])[] = [
  [],
  ['apiVersion'],
  ['kind'],
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'labels'],
  ['metadata', 'ownerReferences'],
  ['metadata', 'finalizers'],
  ['metadata', 'annotations', 'landlord.dev/spec-hash'],
  ['spec'],
  ['spec', 'replicas'],
  // Twice: only one suspicious value (100000) is over the replicas limit, so it needs the odds.
  ['spec', 'replicas'],
  ['spec', 'selector'],
  ['spec', 'template', 'metadata', 'labels'],
  ['spec', 'template', 'spec'],
  ['spec', 'template', 'spec', 'hostNetwork'],
  ['spec', 'template', 'spec', 'volumes'],
  ['spec', 'template', 'spec', 'volumes', 0, 'hostPath'],
  ['spec', 'template', 'spec', 'containers'],
  ['spec', 'template', 'spec', 'containers', 0],
  ['spec', 'template', 'spec', 'containers', 0, 'securityContext', 'privileged'],
  ['spec', 'template', 'spec', 'containers', 0, 'securityContext', 'capabilities', 'add'],
  ['spec', 'template', 'spec', 'initContainers'],
  ['spec', 'template', 'spec', 'serviceAccountName'],
  ['spec', 'template', 'spec', 'imagePullSecrets'],
  ['spec', 'template', 'spec', 'priorityClassName'],
  ['spec', 'template', 'spec', 'nodeName'],
];

const CONFIG_MAP_PATHS: readonly (readonly (string | number)[])[] = [
  [],
  ['kind'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'labels', 'app.kubernetes.io/managed-by'],
  ['data'],
  ['binaryData'],
];

/** Any JSON value, typed as this file's Json. */
const anyJson = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>;

/** Values a row's author might really write there, besides any JSON at all. */
const suspicious: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    true,
    'kube-system',
    'landlord',
    'Service',
    'v1',
    '',
    null,
    [],
    {},
    [{ name: 'root', hostPath: { path: '/' } }],
    { privileged: true },
    ['SYS_ADMIN'],
    100_000,
    'system-node-critical',
    'kube-root-ca.crt',
    'x'.repeat(70_000),
  ),
);

/** A copy as plain JSON. */
const plain = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;

type Container = Record<string | number, Json>;
const isContainer = (value: Json | undefined): value is Container =>
  typeof value === 'object' && value !== null;

/** Writes `value` at `path`, making objects on the way; a scalar root becomes an object first.
 * fast-check hands out the same constant objects again: callers pass copies, never shared values. */
function putAt(root: Json, path: readonly (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const top = isContainer(root) ? root : {};
  let node: Container = top;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = isContainer(next) ? next : (node[key] = {});
  }
  node[path.at(-1)!] = value;
  return top;
}

const edits = (paths: readonly (readonly (string | number)[])[]) =>
  fc.array(fc.tuple(fc.constantFrom(...paths), suspicious), { maxLength: 3 });

/** Valid manifests with a few fields replaced; often still valid, often not, always JSON. */
const manifests = fc
  .tuple(edits(DEPLOYMENT_PATHS), fc.array(edits(CONFIG_MAP_PATHS), { minLength: 0, maxLength: 3 }))
  .map(([deploymentEdits, configMapEdits]) => {
    let deployment = plain(validDeployment());
    for (const [path, value] of deploymentEdits) deployment = putAt(deployment, path, structuredClone(value));
    const configMaps = configMapEdits.map((changes, i) => {
      let configMap = plain(validConfigMaps()[i % 2]);
      for (const [path, value] of changes) configMap = putAt(configMap, path, structuredClone(value));
      return configMap;
    });
    return { deployment, configMaps };
  });

function textItem(name: string, m: { deployment: Json; configMaps: Json[] }): Item {
  return {
    name: { S: name },
    spec: { S: JSON.stringify(m.deployment) },
    customizations: { S: JSON.stringify(m.configMaps) },
  };
}

function nativeItem(name: string, m: { deployment: Json; configMaps: Json[] }): Item {
  return { name: { S: name }, spec: nativeForm(m.deployment), customizations: nativeForm(m.configMaps) };
}

const tenantName = fc.stringMatching(/^[a-z0-9](?:[-a-z0-9]{0,20}[a-z0-9])?$/);

describe('row → Tenant → policy', () => {
  it('never throws, and ends in children to apply or a specific refusal, for rows in either form', () => {
    fc.assert(
      fc.property(tenantName, manifests, fc.boolean(), config, (name, m, native, policy) => {
        judge(native ? nativeItem(name, m) : textItem(name, m), policy);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws for rows whose attributes hold any AttributeValue-shaped JSON', () => {
    const attribute = fc.oneof(
      anyJson.map((value) => nativeForm(value)),
      anyJson.map((value) => ({ S: JSON.stringify(value) })),
      fc.string().map((S) => ({ S })),
    );
    const item = fc.record(
      {
        name: tenantName.map((S) => ({ S })),
        spec: attribute,
        customizations: attribute,
        deleted: attribute,
      },
      { requiredKeys: ['name'] },
    );
    fc.assert(
      fc.property(item, config, (generated, policy) => {
        judge(generated, policy);
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the same verdict whether the manifests are JSON text or native maps and lists', () => {
    fc.assert(
      fc.property(tenantName, manifests, config, (name, m, policy) => {
        const text = parseRow(textItem(name, m));
        const native = parseRow(nativeItem(name, m));
        // A refused row's message words each form its own way; the attribute it blames is the same.
        if (text.kind === 'invalid' && native.kind === 'invalid')
          expect(native.problem.attribute).toBe(text.problem.attribute);
        else expect(native).toEqual(text);
        expect(judge(nativeItem(name, m), policy)).toEqual(judge(textItem(name, m), policy));
      }),
      { numRuns: 500 },
    );
  });

  it('maps valid manifests to exactly those children, in order', () => {
    const valid = fc.record({
      image: fc.stringMatching(/^[a-z]{1,10}(:[0-9]{1,3})?$/),
      replicas: fc.integer({ min: 0, max: 50 }),
      data: fc.dictionary(fc.stringMatching(/^[a-zA-Z0-9._-]{1,20}$/), fc.string({ maxLength: 50 })),
      native: fc.boolean(),
    });
    fc.assert(
      fc.property(tenantName, valid, (name, v) => {
        const deployment = validDeployment();
        deployment.spec!.replicas = v.replicas;
        deployment.spec!.template.spec!.containers[0]!.image = v.image;
        const configMaps = validConfigMaps();
        configMaps[0]!.data = v.data;
        const m = JSON.parse(JSON.stringify({ deployment, configMaps })) as {
          deployment: Json;
          configMaps: Json[];
        };
        const result = judge(v.native ? nativeItem(name, m) : textItem(name, m), {
          allowedNamespaces: [],
          operatorNamespace: 'landlord',
          reservedNamespaces: DEFAULT_RESERVED_NAMESPACES,
          tenantClass: builtInClass('restricted'),
        });
        // The manifests as written, with the one field the built-in class sets on every pod template.
        const template = (m.deployment as { spec: { template: { spec: Record<string, Json> } } }).spec
          .template;
        template.spec.automountServiceAccountToken = false;
        expect(result).toEqual({ ok: true, children: m });
      }),
      { numRuns: 300 },
    );
  });

  it('reaches every refusal reason a synced row can earn (so the properties above are not vacuous)', () => {
    const seen = new Set<string>();
    const sample = fc.sample(fc.tuple(tenantName, manifests, fc.boolean(), config), {
      seed: 42,
      numRuns: 6000,
    });
    for (const [name, m, native, policy] of sample) {
      const verdict = judge(native ? nativeItem(name, m) : textItem(name, m), policy);
      if (verdict !== undefined) seen.add(verdict.ok ? 'ok' : verdict.refusal.reason);
    }
    // SpecMissing cannot come from a row: a row without a spec is refused by sync itself; a
    // LabelConflict needs another Tenant, which a row judged alone does not have; under the
    // built-in (Shared) class an ephemeral volume is a ReferenceNotAllowed before VolumeNotAllowed;
    // EgressNotAllowed, SecretsNotAllowed and PoolNeedsIdTemplate are about a class, never a row;
    // the namespace reasons but NamespaceNotAllowed are a PerTenant tenant's, and the built-in class
    // is Shared; the exposure reasons are about a class's expose, which the built-in class has none of.
    const unreachable = new Set([
      'SpecMissing',
      'LabelConflict',
      'VolumeNotAllowed',
      'EgressNotAllowed',
      'SecretsNotAllowed',
      'NamespaceReserved',
      'NamespaceTrusted',
      'NamespaceOverlap',
      'ExposeNotAllowed',
      'InvalidHost',
      'HostNotAllowed',
      'GatewayApiMissing',
      'HostConflict',
      'PoolNeedsIdTemplate',
    ]);
    const reachable = REFUSAL_REASONS.filter((reason) => !unreachable.has(reason));
    expect([...seen].sort()).toEqual(['ok', ...reachable].sort());
  });
});
