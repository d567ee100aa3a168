import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tenant } from '../../api/tenant.js';
import { setField, testConfig, validDeployment, validTenant } from '../../testing/policy.js';
import { isRecord } from './json.js';
import {
  REFUSAL_REASONS,
  evaluateTenant,
  neighbourOf,
  type Neighbours,
  type PodSecurityLevel,
  type PolicyResult,
} from './index.js';

/** Every value fast-check can make: the spec comes from a table row, so anything can be in it. */
const anyValue = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
});

function expectWellFormed(result: PolicyResult): void {
  if (result.ok) {
    expect(isRecord(result.children.deployment)).toBe(true);
    expect(Array.isArray(result.children.configMaps)).toBe(true);
  } else {
    expect(REFUSAL_REASONS).toContain(result.refusal.reason);
    expect(result.refusal.message.trim().length).toBeGreaterThan(0);
  }
}

/** Field paths inside a valid Deployment where a bad value can hide: the ones the checks read. */
const DEPLOYMENT_PATHS: readonly (readonly (string | number)[])[] = [
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'labels'],
  ['metadata', 'labels', 'landlord.dev/tenant'],
  ['metadata', 'ownerReferences'],
  ['metadata', 'generateName'],
  ['spec', 'selector'],
  ['spec', 'selector', 'matchExpressions'],
  ['spec', 'template', 'metadata'],
  ['spec', 'template', 'metadata', 'annotations'],
  ['spec', 'template', 'metadata', 'annotations', 'container.apparmor.security.beta.kubernetes.io/app'],
  ['spec', 'template', 'spec'],
  ['spec', 'template', 'spec', 'hostNetwork'],
  ['spec', 'template', 'spec', 'os'],
  ['spec', 'template', 'spec', 'volumes'],
  ['spec', 'template', 'spec', 'volumes', 0],
  ['spec', 'template', 'spec', 'volumes', 0, 'hostPath'],
  ['spec', 'template', 'spec', 'initContainers'],
  ['spec', 'template', 'spec', 'ephemeralContainers'],
  ['spec', 'template', 'spec', 'securityContext'],
  ['spec', 'template', 'spec', 'securityContext', 'sysctls'],
  ['spec', 'template', 'spec', 'securityContext', 'seLinuxOptions'],
  ['spec', 'template', 'spec', 'securityContext', 'seccompProfile'],
  ['spec', 'template', 'spec', 'securityContext', 'windowsOptions'],
  ['spec', 'template', 'spec', 'containers'],
  ['spec', 'template', 'spec', 'containers', 0],
  ['spec', 'template', 'spec', 'containers', 0, 'ports'],
  ['spec', 'template', 'spec', 'containers', 0, 'livenessProbe'],
  ['spec', 'template', 'spec', 'containers', 0, 'lifecycle'],
  ['spec', 'template', 'spec', 'containers', 0, 'securityContext'],
  ['spec', 'template', 'spec', 'containers', 0, 'securityContext', 'capabilities'],
  ['spec', 'template', 'spec', 'containers', 0, 'securityContext', 'capabilities', 'add'],
  ['spec', 'template', 'spec', 'containers', 0, 'securityContext', 'appArmorProfile'],
  ['spec', 'template', 'spec', 'containers', 0, 'securityContext', 'runAsNonRoot'],
  ['spec', 'template', 'spec', 'containers', 0, 'securityContext', 'procMount'],
];

/** Writes value at path, creating objects along the way. */
function putAt(root: object, path: readonly (string | number)[], value: unknown): void {
  let node: object = root;
  for (const key of path.slice(0, -1)) {
    const next: unknown = Reflect.get(node, key);
    if (typeof next === 'object' && next !== null) {
      node = next;
    } else {
      const created = {};
      Reflect.set(node, key, created);
      node = created;
    }
  }
  Reflect.set(node, path.at(-1) ?? '', value);
}

const edits = fc.array(fc.tuple(fc.constantFrom(...DEPLOYMENT_PATHS), fc.jsonValue({ maxDepth: 3 })), {
  minLength: 1,
  maxLength: 4,
});

function editedTenant(changes: [readonly (string | number)[], unknown][]): Tenant {
  const deployment = validDeployment();
  for (const [path, value] of changes) putAt(deployment, path, value);
  const tenant = validTenant();
  setField(tenant.spec ?? {}, 'deployment', deployment);
  return tenant;
}

const levels: readonly PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];

describe('evaluateTenant, for any input', () => {
  it('never throws with anything as spec.deployment and spec.configMaps', () => {
    fc.assert(
      fc.property(anyValue, anyValue, (deployment, configMaps) => {
        const tenant = validTenant();
        setField(tenant.spec ?? {}, 'deployment', deployment);
        setField(tenant.spec ?? {}, 'configMaps', configMaps);
        expectWellFormed(evaluateTenant(tenant, testConfig()));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws with anything as the spec itself', () => {
    fc.assert(
      fc.property(anyValue, (spec) => {
        const tenant = validTenant();
        setField(tenant, 'spec', spec);
        expectWellFormed(evaluateTenant(tenant, testConfig()));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws with anything among valid ConfigMaps', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyValue, fc.jsonValue())), (extra) => {
        const tenant = validTenant();
        tenant.spec?.configMaps?.push(...(extra as never[]));
        expectWellFormed(evaluateTenant(tenant, testConfig({ podSecurity: 'restricted' })));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws with any JSON written into the fields the checks read', () => {
    fc.assert(
      fc.property(edits, fc.constantFrom(...levels), (changes, podSecurity) => {
        expectWellFormed(evaluateTenant(editedTenant(changes), testConfig({ podSecurity })));
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the same answer twice and never changes the tenant', () => {
    fc.assert(
      fc.property(edits, (changes) => {
        const tenant = editedTenant(changes);
        const before = structuredClone(tenant);
        const first = evaluateTenant(tenant, testConfig());
        expect(evaluateTenant(tenant, testConfig())).toStrictEqual(first);
        expect(tenant).toStrictEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts under a looser level whatever a stricter level accepts', () => {
    fc.assert(
      fc.property(edits, (changes) => {
        const tenant = editedTenant(changes);
        const accepted = levels.map((podSecurity) => evaluateTenant(tenant, testConfig({ podSecurity })).ok);
        const [privileged, baseline, restricted] = accepted;
        if (restricted === true) expect(baseline).toBe(true);
        if (baseline === true) expect(privileged).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never refuses for Pod Security when the level is privileged', () => {
    fc.assert(
      fc.property(edits, (changes) => {
        const result = evaluateTenant(editedTenant(changes), testConfig({ podSecurity: 'privileged' }));
        expect(result.ok || result.refusal.reason).not.toBe('PodSecurityViolation');
      }),
      { numRuns: 300 },
    );
  });
});

describe('two Tenants in one namespace, whatever their labels', () => {
  const labels = fc.dictionary(fc.constantFrom('app', 'tier', 'team'), fc.constantFrom('a', 'b'), {
    minKeys: 1,
  });
  const timestamps = fc.constantFrom('2026-01-01T00:00:00Z', '2026-06-01T00:00:00Z');

  /** A Tenant whose pods carry `podLabels` and whose selector is `selected` (a subset, so it is valid). */
  function tenantWith(name: string, createdAt: string, podLabels: Record<string, string>): Tenant {
    const tenant = validTenant();
    tenant.metadata.name = name;
    tenant.metadata.creationTimestamp = createdAt as unknown as Date;
    const deployment = tenant.spec!.deployment!;
    deployment.metadata!.name = `${name}-app`;
    const [key, value] = Object.entries(podLabels)[0]!;
    deployment.spec!.selector = { matchLabels: { [key]: value } };
    deployment.spec!.template.metadata!.labels = podLabels;
    return tenant;
  }

  const asNeighbours = (tenant: Tenant): Neighbours => {
    const made = neighbourOf(
      { tenant: tenant.metadata.name!, createdAt: String(tenant.metadata.creationTimestamp) },
      tenant.spec?.deployment,
    );
    return { candidates: (ns) => (made !== undefined && made.namespace === ns ? [made.neighbour] : []) };
  };

  it('never refuses both for their labels, and refuses only the younger, naming the older', () => {
    fc.assert(
      fc.property(labels, labels, timestamps, timestamps, (labelsA, labelsB, createdA, createdB) => {
        const a = tenantWith('tenant-a', createdA, labelsA);
        const b = tenantWith('tenant-b', createdB, labelsB);
        const verdictA = evaluateTenant(a, testConfig(), asNeighbours(b));
        const verdictB = evaluateTenant(b, testConfig(), asNeighbours(a));
        const conflictA = !verdictA.ok && verdictA.refusal.reason === 'LabelConflict';
        const conflictB = !verdictB.ok && verdictB.refusal.reason === 'LabelConflict';
        expect(conflictA && conflictB).toBe(false);
        const aIsOlder = createdA < createdB || (createdA === createdB && 'tenant-a' < 'tenant-b');
        if (conflictA) expect(aIsOlder).toBe(false);
        if (conflictB) expect(aIsOlder).toBe(true);
        if (!verdictA.ok && conflictA) expect(verdictA.refusal.message).toContain('Tenant tenant-b');
        if (!verdictB.ok && conflictB) expect(verdictB.refusal.message).toContain('Tenant tenant-a');
      }),
      { numRuns: 300 },
    );
  });
});
