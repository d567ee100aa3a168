// The checks that hold in every tenancy mode, one attack per case: each starts from the valid Tenant
// and does one thing a hostile row writer would, and is refused with its own reason and a message
// naming the field. Then what the class sets on every pod template, and the neighbours view.
import type { V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Tenant } from '../../api/tenant.js';
import {
  configMapOf,
  containerOf,
  deploymentOf,
  podSpecOf,
  perTenant,
  testConfig,
  validTenant,
  type ConfigTweaks,
} from '../../testing/policy.js';
import { builtInClass, evaluateTenant, neighbourOf, type Neighbour, type Neighbours } from './index.js';
import type { RefusalReason } from './refusals.js';

const TEMPLATE = 'spec.deployment.spec.template.spec';

interface Case {
  name: string;
  tweak: (tenant: Tenant) => void;
  config?: ConfigTweaks;
  reason: RefusalReason;
  says: string[];
}

function refusalOf(tenant: Tenant, config = testConfig(), neighbours?: Neighbours) {
  const result = evaluateTenant(tenant, config, neighbours);
  if (result.ok) throw new Error('expected a refusal, got ok');
  return result.refusal;
}

function accepted(tenant: Tenant, config = testConfig(), neighbours?: Neighbours) {
  const result = evaluateTenant(tenant, config, neighbours);
  if (!result.ok) throw new Error(result.refusal.message);
  return result.children;
}

function run(cases: Case[]): void {
  it.each(cases)('$name', ({ tweak, config, reason, says }) => {
    const tenant = validTenant();
    tweak(tenant);
    const refusal = refusalOf(tenant, testConfig(config));
    expect(refusal.reason).toBe(reason);
    expect(refusal.message).toContain('Deployment team-a/web');
    for (const text of says) expect(refusal.message).toContain(text);
  });
}

const withPool = (pool: Partial<ReturnType<typeof builtInClass>['nodePool']>): ConfigTweaks => ({
  tenantClass: { nodePool: { nodeSelector: {}, tolerations: [], ...pool } },
});

describe('ServiceAccountNotAllowed', () => {
  run([
    {
      name: 'another ServiceAccount',
      tweak: (t) => (podSpecOf(t).serviceAccountName = 'landlord-operator'),
      reason: 'ServiceAccountNotAllowed',
      says: [`${TEMPLATE}.serviceAccountName`, '"landlord-operator"', 'remove serviceAccountName'],
    },
    {
      name: 'another ServiceAccount by the deprecated field',
      tweak: (t) => (podSpecOf(t).serviceAccount = 'admin'),
      reason: 'ServiceAccountNotAllowed',
      says: [`${TEMPLATE}.serviceAccount:`, '"admin"'],
    },
    {
      name: 'a token automount the class does not allow',
      tweak: (t) => (podSpecOf(t).automountServiceAccountToken = true),
      reason: 'ServiceAccountNotAllowed',
      says: [`${TEMPLATE}.automountServiceAccountToken`, 'sets it to false'],
    },
  ]);

  it('accepts the default ServiceAccount named outright, and the class value for automount', () => {
    const tenant = validTenant();
    podSpecOf(tenant).serviceAccountName = 'default';
    podSpecOf(tenant).automountServiceAccountToken = false;
    expect(accepted(tenant).deployment.spec?.template.spec?.serviceAccountName).toBe('default');
  });
});

describe('ReferenceNotAllowed, in a shared namespace', () => {
  run([
    {
      name: 'a Secret volume',
      tweak: (t) => podSpecOf(t).volumes?.push({ name: 's', secret: { secretName: 'other-tenant-db' } }),
      reason: 'ReferenceNotAllowed',
      says: [`${TEMPLATE}.volumes[1].secret`, 'a Secret', 'shared namespace'],
    },
    {
      name: 'a projected Secret',
      tweak: (t) =>
        podSpecOf(t).volumes?.push({ name: 'p', projected: { sources: [{ secret: { name: 'creds' } }] } }),
      reason: 'ReferenceNotAllowed',
      says: [`${TEMPLATE}.volumes[1].projected.sources[0].secret`],
    },
    {
      name: 'a projected ServiceAccount token for any audience',
      tweak: (t) =>
        podSpecOf(t).volumes?.push({
          name: 'p',
          projected: { sources: [{ serviceAccountToken: { audience: 'vault', path: 'token' } }] },
        }),
      reason: 'ReferenceNotAllowed',
      says: ['projected.sources[0].serviceAccountToken', 'a ServiceAccount token'],
    },
    {
      name: 'a PersistentVolumeClaim',
      tweak: (t) =>
        podSpecOf(t).volumes?.push({ name: 'd', persistentVolumeClaim: { claimName: 'other-data' } }),
      reason: 'ReferenceNotAllowed',
      says: ['volumes[1].persistentVolumeClaim', 'PersistentVolumeClaim'],
    },
    {
      name: 'an ephemeral volume (it makes a PersistentVolumeClaim)',
      tweak: (t) => podSpecOf(t).volumes?.push({ name: 'e', ephemeral: {} }),
      reason: 'ReferenceNotAllowed',
      says: ['volumes[1].ephemeral'],
    },
    {
      name: "a CSI volume's nodePublishSecretRef",
      tweak: (t) =>
        podSpecOf(t).volumes?.push({
          name: 'c',
          csi: { driver: 'secrets-store.csi.k8s.io', nodePublishSecretRef: { name: 'creds' } },
        }),
      reason: 'ReferenceNotAllowed',
      says: ['volumes[1].csi.nodePublishSecretRef'],
    },
    {
      name: "a CSI volume's secretProviderClass",
      tweak: (t) =>
        podSpecOf(t).volumes?.push({
          name: 'c',
          csi: {
            driver: 'secrets-store.csi.k8s.io',
            volumeAttributes: { secretProviderClass: 'other-vault' },
          },
        }),
      reason: 'ReferenceNotAllowed',
      says: ['volumes[1].csi.volumeAttributes.secretProviderClass'],
    },
    {
      name: "another driver's secretRef",
      tweak: (t) =>
        podSpecOf(t).volumes?.push({
          name: 'c',
          cephfs: { monitors: ['m'], secretRef: { name: 'ceph' } },
        }),
      reason: 'ReferenceNotAllowed',
      says: ['volumes[1].cephfs.secretRef'],
    },
    {
      name: 'imagePullSecrets',
      tweak: (t) => (podSpecOf(t).imagePullSecrets = [{ name: 'other-tenant-registry' }]),
      reason: 'ReferenceNotAllowed',
      says: [`${TEMPLATE}.imagePullSecrets`],
    },
    {
      name: 'env from a secretKeyRef',
      tweak: (t) =>
        (containerOf(t).env = [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }]),
      reason: 'ReferenceNotAllowed',
      says: ['containers[0].env[0].valueFrom.secretKeyRef'],
    },
    {
      name: 'envFrom a Secret in an init container',
      tweak: (t) =>
        (podSpecOf(t).initContainers = [
          { name: 'init', image: 'busybox', envFrom: [{ secretRef: { name: 'db' } }] },
        ]),
      reason: 'ReferenceNotAllowed',
      says: ['initContainers[0].envFrom[0].secretRef'],
    },
    {
      name: 'a Secret in an ephemeral container',
      tweak: (t) =>
        (podSpecOf(t).ephemeralContainers = [
          { name: 'debug', image: 'busybox', envFrom: [{ secretRef: { name: 'db' } }] },
        ]),
      reason: 'ReferenceNotAllowed',
      says: ['ephemeralContainers[0].envFrom[0].secretRef'],
    },
    {
      name: "another tenant's ConfigMap as a volume",
      tweak: (t) => podSpecOf(t).volumes?.push({ name: 'o', configMap: { name: 'other-tenant-settings' } }),
      reason: 'ReferenceNotAllowed',
      says: ['volumes[1].configMap.name', '"other-tenant-settings"', 'customizations'],
    },
    {
      name: "a ConfigMap of the row, but in another namespace than the Deployment's",
      tweak: (t) => podSpecOf(t).volumes?.push({ name: 'x', configMap: { name: 'extra' } }),
      reason: 'ReferenceNotAllowed',
      says: ['"extra"'],
    },
    {
      name: "another tenant's ConfigMap by configMapKeyRef",
      tweak: (t) =>
        (containerOf(t).env = [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'other', key: 'k' } } }]),
      reason: 'ReferenceNotAllowed',
      says: ['env[0].valueFrom.configMapKeyRef.name'],
    },
    {
      name: "another tenant's ConfigMap by envFrom",
      tweak: (t) => (containerOf(t).envFrom = [{ configMapRef: { name: 'other' } }]),
      reason: 'ReferenceNotAllowed',
      says: ['envFrom[0].configMapRef.name'],
    },
    {
      name: "another tenant's ConfigMap in a projected volume",
      tweak: (t) =>
        podSpecOf(t).volumes?.push({ name: 'p', projected: { sources: [{ configMap: { name: 'other' } }] } }),
      reason: 'ReferenceNotAllowed',
      says: ['projected.sources[0].configMap.name'],
    },
    {
      name: 'a ResourceClaim',
      tweak: (t) => (podSpecOf(t).resourceClaims = [{ name: 'gpu', resourceClaimName: 'other-gpu' }]),
      reason: 'ReferenceNotAllowed',
      says: [`${TEMPLATE}.resourceClaims`],
    },
  ]);

  it("accepts the row's own ConfigMaps by every route", () => {
    const tenant = validTenant();
    containerOf(tenant).env = [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'settings', key: 'k' } } }];
    containerOf(tenant).envFrom = [{ configMapRef: { name: 'settings' } }];
    podSpecOf(tenant).volumes?.push(
      { name: 'p', projected: { sources: [{ configMap: { name: 'settings' } }, { downwardAPI: {} }] } },
      { name: 'scratch', emptyDir: {} },
    );
    expect(evaluateTenant(tenant, testConfig()).ok).toBe(true);
  });

  it('allows them all in PerTenant mode, where the namespace is the tenant’s own', () => {
    const tenant = validTenant();
    podSpecOf(tenant).volumes?.push({ name: 's', secret: { secretName: 'db' } });
    podSpecOf(tenant).imagePullSecrets = [{ name: 'registry' }];
    containerOf(tenant).envFrom = [{ configMapRef: { name: 'made-by-hand' } }];
    expect(evaluateTenant(tenant, testConfig({ tenantClass: perTenant('team-a') })).ok).toBe(true);
  });
});

describe('PriorityNotAllowed', () => {
  run([
    {
      name: 'system-node-critical',
      tweak: (t) => (podSpecOf(t).priorityClassName = 'system-node-critical'),
      reason: 'PriorityNotAllowed',
      says: [`${TEMPLATE}.priorityClassName`, '"system-node-critical"', 'allows no PriorityClass'],
    },
    {
      name: 'a class the tenant class does not list',
      tweak: (t) => (podSpecOf(t).priorityClassName = 'high'),
      config: { tenantClass: { limits: { ...builtInClass().limits, allowedPriorityClasses: ['low'] } } },
      reason: 'PriorityNotAllowed',
      says: ['"high"', 'allows: "low"'],
    },
    {
      name: 'the priority number itself',
      tweak: (t) => (podSpecOf(t).priority = 2_000_001_000),
      reason: 'PriorityNotAllowed',
      says: [`${TEMPLATE}.priority:`, 'must not be set'],
    },
  ]);

  it('accepts a class the tenant class lists', () => {
    const tenant = validTenant();
    podSpecOf(tenant).priorityClassName = 'low';
    const limits = { ...builtInClass().limits, allowedPriorityClasses: ['low'] };
    expect(evaluateTenant(tenant, testConfig({ tenantClass: { limits } })).ok).toBe(true);
  });
});

describe('PlacementNotAllowed', () => {
  run([
    {
      name: 'nodeName',
      tweak: (t) => (podSpecOf(t).nodeName = 'control-plane-1'),
      reason: 'PlacementNotAllowed',
      says: [`${TEMPLATE}.nodeName`],
    },
    {
      name: 'another scheduler',
      tweak: (t) => (podSpecOf(t).schedulerName = 'my-scheduler'),
      reason: 'PlacementNotAllowed',
      says: [`${TEMPLATE}.schedulerName`],
    },
    {
      name: 'a toleration of every taint',
      tweak: (t) => (podSpecOf(t).tolerations = [{ operator: 'Exists' }]),
      reason: 'PlacementNotAllowed',
      says: [`${TEMPLATE}.tolerations[0]`, 'every taint'],
    },
    {
      name: 'an empty-key Exists toleration even when the pool grants one',
      tweak: (t) => (podSpecOf(t).tolerations = [{ operator: 'Exists' }]),
      config: withPool({ tolerations: [{ operator: 'Exists' }] }),
      reason: 'PlacementNotAllowed',
      says: ['every taint'],
    },
    {
      name: 'a toleration the pool does not grant',
      tweak: (t) =>
        (podSpecOf(t).tolerations = [
          { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
        ]),
      reason: 'PlacementNotAllowed',
      says: ['"node-role.kubernetes.io/control-plane"', 'grants no such toleration'],
    },
    {
      name: 'a toleration wider than the one granted (any effect)',
      tweak: (t) => (podSpecOf(t).tolerations = [{ key: 'pool', operator: 'Exists' }]),
      config: withPool({ tolerations: [{ key: 'pool', operator: 'Exists', effect: 'NoSchedule' }] }),
      reason: 'PlacementNotAllowed',
      says: ['"pool"'],
    },
    {
      name: 'a nodeSelector on control-plane nodes',
      tweak: (t) => (podSpecOf(t).nodeSelector = { 'node-role.kubernetes.io/control-plane': '' }),
      reason: 'PlacementNotAllowed',
      says: ['nodeSelector["node-role.kubernetes.io/control-plane"]', 'control-plane'],
    },
    {
      name: 'a nodeSelector on master nodes',
      tweak: (t) => (podSpecOf(t).nodeSelector = { 'node-role.kubernetes.io/master': 'true' }),
      reason: 'PlacementNotAllowed',
      says: ['control-plane'],
    },
    {
      name: "a nodeSelector that contradicts the pool's",
      tweak: (t) => (podSpecOf(t).nodeSelector = { pool: 'gpu' }),
      config: withPool({ nodeSelector: { pool: 'tenants' } }),
      reason: 'PlacementNotAllowed',
      says: ['nodeSelector.pool', '"gpu" contradicts the node pool', '"tenants"'],
    },
    {
      name: 'a required node affinity for control-plane nodes',
      tweak: (t) =>
        (podSpecOf(t).affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] },
              ],
            },
          },
        }),
      reason: 'PlacementNotAllowed',
      says: ['nodeSelectorTerms[0].matchExpressions[0]'],
    },
    {
      name: 'a preferred node affinity for master nodes',
      tweak: (t) =>
        (podSpecOf(t).affinity = {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 1,
                preference: {
                  matchExpressions: [{ key: 'node-role.kubernetes.io/master', operator: 'In', values: [''] }],
                },
              },
            ],
          },
        }),
      reason: 'PlacementNotAllowed',
      says: ['preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0]'],
    },
    {
      name: 'a node picked by name through matchFields',
      tweak: (t) =>
        (podSpecOf(t).affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['control-plane-1'] }] },
              ],
            },
          },
        }),
      reason: 'PlacementNotAllowed',
      says: ['matchFields[0]', 'by name'],
    },
  ]);

  it('accepts keeping away from control-plane nodes, and a toleration the pool grants', () => {
    const tenant = validTenant();
    podSpecOf(tenant).affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'DoesNotExist' }],
            },
          ],
        },
      },
    };
    podSpecOf(tenant).tolerations = [
      { key: 'pool', operator: 'Equal', value: 'tenants', effect: 'NoSchedule' },
    ];
    const pool = { tolerations: [{ key: 'pool', operator: 'Equal', value: 'tenants' }] };
    expect(evaluateTenant(tenant, testConfig(withPool(pool))).ok).toBe(true);
  });
});

describe('LimitExceeded', () => {
  it('refuses replicas over maxReplicas, naming the limit and the value', () => {
    const tenant = validTenant();
    deploymentOf(tenant).spec!.replicas = 100_000;
    const refusal = refusalOf(tenant);
    expect(refusal.reason).toBe('LimitExceeded');
    expect(refusal.message).toContain('spec.deployment.spec.replicas: 100000');
    expect(refusal.message).toContain('maxReplicas of 50');
  });

  it('takes a Deployment without replicas as 1', () => {
    const tenant = validTenant();
    delete deploymentOf(tenant).spec!.replicas;
    const limits = { ...builtInClass().limits, maxReplicas: 1 };
    expect(evaluateTenant(tenant, testConfig({ tenantClass: { limits } })).ok).toBe(true);
  });

  it('refuses more ConfigMaps than maxConfigMaps, before checking any of them', () => {
    const tenant = validTenant();
    const many = Array.from({ length: 5000 }, (_, i): unknown => (i === 4999 ? 'not a ConfigMap' : {}));
    tenant.spec!.configMaps = many as V1ConfigMap[];
    const refusal = refusalOf(tenant);
    expect(refusal.reason).toBe('LimitExceeded');
    expect(refusal.message).toContain('spec.configMaps: 5000');
    expect(refusal.message).toContain('maxConfigMaps of 50');
  });

  it('refuses a row over maxRowBytes and admits a 300 KB one', () => {
    const big = validTenant();
    configMapOf(big, 0).data = { blob: 'x'.repeat(300 * 1024) };
    expect(evaluateTenant(big, testConfig()).ok).toBe(true);
    configMapOf(big, 0).data = { blob: 'x'.repeat(500 * 1024) };
    const refusal = refusalOf(big);
    expect(refusal.reason).toBe('LimitExceeded');
    expect(refusal.message).toMatch(
      /the row: .*: \d+ is over the tenant class's limit maxRowBytes of 409600/,
    );
  });
});

describe('ForbiddenMetadata: keys Kubernetes controllers and kubectl own', () => {
  it.each([
    ['deployment.kubernetes.io/revision', 'annotations'],
    ['deployment.kubernetes.io/desired-replicas', 'annotations'],
    ['kubectl.kubernetes.io/last-applied-configuration', 'annotations'],
    ['pod-template-hash', 'labels'],
    ['controller-revision-hash', 'labels'],
  ] as const)('refuses %s in the Deployment %s', (key, map) => {
    const tenant = validTenant();
    const metadata = deploymentOf(tenant).metadata!;
    metadata[map] = { ...metadata[map], [key]: '7' };
    const refusal = refusalOf(tenant);
    expect(refusal.reason).toBe('ForbiddenMetadata');
    expect(refusal.message).toContain(`spec.deployment.metadata.${map}["${key}"]`);
    expect(refusal.message).toContain('set by Kubernetes controllers or kubectl');
  });

  it('refuses one on the pod template and on a ConfigMap', () => {
    const onTemplate = validTenant();
    deploymentOf(onTemplate).spec!.template.metadata!.labels!['pod-template-hash'] = 'abc';
    expect(refusalOf(onTemplate).message).toContain('spec.template.metadata.labels["pod-template-hash"]');
    const onConfigMap = validTenant();
    configMapOf(onConfigMap, 0).metadata!.annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
    };
    expect(refusalOf(onConfigMap).reason).toBe('ForbiddenMetadata');
  });

  it('accepts kubectl.kubernetes.io/default-container, which people set', () => {
    const tenant = validTenant();
    deploymentOf(tenant).spec!.template.metadata!.annotations = {
      'kubectl.kubernetes.io/default-container': 'app',
    };
    expect(evaluateTenant(tenant, testConfig()).ok).toBe(true);
  });
});

describe("the class's pod template fields", () => {
  it('sets the token automount to the class value', () => {
    const template = accepted(validTenant()).deployment.spec?.template.spec;
    expect(template?.automountServiceAccountToken).toBe(false);
    const open = testConfig({ tenantClass: { serviceAccount: { automountToken: true } } });
    expect(accepted(validTenant(), open).deployment.spec?.template.spec?.automountServiceAccountToken).toBe(
      true,
    );
  });

  it("forces the pool's nodeSelector and tolerations, keeping the row's own that it allows", () => {
    const tenant = validTenant();
    podSpecOf(tenant).nodeSelector = { disk: 'ssd' };
    podSpecOf(tenant).tolerations = [
      { key: 'pool', operator: 'Equal', value: 'tenants', effect: 'NoSchedule' },
    ];
    const granted = { key: 'pool', operator: 'Equal', value: 'tenants', effect: 'NoSchedule' };
    const config = testConfig(withPool({ nodeSelector: { pool: 'tenants' }, tolerations: [granted] }));
    const spec = accepted(tenant, config).deployment.spec?.template.spec;
    expect(spec?.nodeSelector).toEqual({ disk: 'ssd', pool: 'tenants' });
    expect(spec?.tolerations).toEqual([granted]);
  });

  it('adds no nodeSelector or tolerations for an empty pool', () => {
    const spec = accepted(validTenant()).deployment.spec?.template.spec;
    expect(spec?.nodeSelector).toBeUndefined();
    expect(spec?.tolerations).toBeUndefined();
  });
});

describe('LabelConflict', () => {
  const neighbour = (over: Partial<Neighbour> = {}): Neighbour => ({
    tenant: 'older',
    createdAt: '2026-01-01T00:00:00Z',
    deployment: 'older-app',
    selector: { matchLabels: { app: 'web' } },
    podLabels: { app: 'web' },
    ...over,
  });
  const inTeamA = (...list: Neighbour[]): Neighbours => ({
    candidates: (namespace) => (namespace === 'team-a' ? list : []),
  });
  const younger = (): Tenant => {
    const t = validTenant();
    t.metadata.creationTimestamp = '2026-06-01T00:00:00Z' as unknown as Date;
    return t;
  };

  it("refuses pod labels that an older tenant's selector matches, naming it", () => {
    const refusal = refusalOf(younger(), testConfig(), inTeamA(neighbour()));
    expect(refusal.reason).toBe('LabelConflict');
    expect(refusal.message).toContain('spec.deployment.spec.template.metadata.labels');
    expect(refusal.message).toContain('Tenant older');
  });

  it("refuses a selector that matches an older tenant's pods", () => {
    const other = neighbour({
      selector: { matchLabels: { other: 'x' } },
      podLabels: { app: 'web', other: 'x' },
    });
    const refusal = refusalOf(younger(), testConfig(), inTeamA(other));
    expect(refusal.message).toContain(
      'spec.deployment.spec.selector: this selector matches the pods of Tenant older',
    );
  });

  it('lets the older tenant keep its labels', () => {
    const later = neighbour({ tenant: 'later', createdAt: '2027-01-01T00:00:00Z' });
    expect(evaluateTenant(younger(), testConfig(), inTeamA(later)).ok).toBe(true);
  });

  it('breaks a tie on creation time by name', () => {
    const t = younger();
    const same = neighbour({ tenant: 'aaa', createdAt: '2026-06-01T00:00:00Z' });
    expect(refusalOf(t, testConfig(), inTeamA(same)).message).toContain('Tenant aaa');
    expect(evaluateTenant(t, testConfig(), inTeamA({ ...same, tenant: 'zzz' })).ok).toBe(true);
  });

  it('matches selectors by expression too', () => {
    const other = neighbour({
      selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] },
      podLabels: { app: 'api' },
    });
    expect(refusalOf(younger(), testConfig(), inTeamA(other)).reason).toBe('LabelConflict');
    const apart = neighbour({
      selector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] },
      podLabels: { app: 'api' },
    });
    expect(evaluateTenant(younger(), testConfig(), inTeamA(apart)).ok).toBe(true);
  });

  it('ignores itself, other namespaces, and a neighbour naming the same Deployment (an ownership Conflict)', () => {
    const t = younger();
    const self = neighbour({ tenant: 'acme' });
    const sameDeployment = neighbour({ deployment: 'web' });
    expect(evaluateTenant(t, testConfig(), inTeamA(self, sameDeployment)).ok).toBe(true);
    const elsewhere: Neighbours = { candidates: (ns) => (ns === 'team-b' ? [neighbour()] : []) };
    expect(evaluateTenant(t, testConfig(), elsewhere).ok).toBe(true);
  });

  it('builds a neighbour from a Deployment manifest, and none from a broken one', () => {
    const made = neighbourOf({ tenant: 'acme', createdAt: 't' }, deploymentOf(validTenant()));
    expect(made).toEqual({
      namespace: 'team-a',
      neighbour: {
        tenant: 'acme',
        createdAt: 't',
        deployment: 'web',
        selector: { matchLabels: { app: 'web' } },
        podLabels: { app: 'web' },
      },
    });
    expect(neighbourOf({ tenant: 'acme', createdAt: 't' }, { metadata: {} })).toBeUndefined();
    expect(neighbourOf({ tenant: 'acme', createdAt: 't' }, 'nonsense')).toBeUndefined();
  });
});

describe('ReferenceNotAllowed, in a PerTenant namespace whose class has secrets', () => {
  const secrets = [
    { name: 'sendgrid', from: { namespace: 'platform-secrets', name: 'sendgrid' } },
    { name: 'db', from: { namespace: 'platform-secrets', name: '{name}-db' } },
  ];
  const config = (): ConfigTweaks => ({ tenantClass: { ...perTenant(), secrets } });

  it("accepts the class's Secrets as a volume, a projection, envFrom and secretKeyRef", () => {
    const tenant = validTenant();
    podSpecOf(tenant).volumes?.push(
      { name: 'db', secret: { secretName: 'db' } },
      { name: 'p', projected: { sources: [{ secret: { name: 'sendgrid' } }] } },
    );
    containerOf(tenant).envFrom = [{ secretRef: { name: 'sendgrid' } }];
    containerOf(tenant).env = [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }];
    expect(() => accepted(tenant, testConfig(config()))).not.toThrow();
  });

  it.each<Case>([
    {
      name: "another tenant's Secret as a volume",
      tweak: (t) => podSpecOf(t).volumes?.push({ name: 's', secret: { secretName: 'other-db' } }),
      reason: 'ReferenceNotAllowed',
      says: [`${TEMPLATE}.volumes[1].secret.secretName`, '"other-db"', 'sendgrid, db'],
    },
    {
      name: 'a guessed name by secretKeyRef',
      tweak: (t) =>
        (containerOf(t).env = [{ name: 'X', valueFrom: { secretKeyRef: { name: 'admin', key: 'k' } } }]),
      reason: 'ReferenceNotAllowed',
      says: ['env[0].valueFrom.secretKeyRef.name', '"admin"'],
    },
    {
      name: 'a guessed name by envFrom',
      tweak: (t) => (containerOf(t).envFrom = [{ secretRef: { name: 'admin' } }]),
      reason: 'ReferenceNotAllowed',
      says: ['envFrom[0].secretRef.name'],
    },
  ])('$name', ({ tweak, reason, says }) => {
    const tenant = validTenant();
    tweak(tenant);
    const refusal = refusalOf(tenant, testConfig(config()));
    expect(refusal.reason).toBe(reason);
    expect(refusal.message).toContain('Deployment acme/web');
    for (const text of says) expect(refusal.message).toContain(text);
  });

  it('leaves a PerTenant class without secrets as it was: any reference resolves in its own namespace', () => {
    const tenant = validTenant();
    podSpecOf(tenant).volumes?.push({ name: 's', secret: { secretName: 'made-by-hand' } });
    expect(() => accepted(tenant, testConfig({ tenantClass: perTenant() }))).not.toThrow();
  });
});
