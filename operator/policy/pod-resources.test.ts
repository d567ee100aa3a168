// Pinning a node through a label only it carries, and holding more of a node than the class allows
// (a long grace period, a large or unbounded emptyDir, a PersistentVolumeClaim per pod): each case
// starts from the valid Tenant and does one thing, refused with its own reason and a message that
// names the field. Then what stays allowed, and the emptyDir size the class sets.
import type { V1Volume } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Tenant } from '../../api/tenant.js';
import { resolvedClass } from '../../api/tenantclass.js';
import { podSpecOf, setField, testConfig, validTenant, type ConfigTweaks } from '../../testing/policy.js';
import { evaluateTenant } from './index.js';
import type { RefusalReason } from './refusals.js';

const TEMPLATE = 'spec.deployment.spec.template.spec';
const HOSTNAME = 'kubernetes.io/hostname';

interface Case {
  name: string;
  tweak: (tenant: Tenant) => void;
  config?: ConfigTweaks;
  reason: RefusalReason;
  says: string[];
}

const perTenantClass = (limits: Partial<ReturnType<typeof resolvedClass>['limits']> = {}): ConfigTweaks => {
  const tenantClass = resolvedClass('pt', 1, { limits });
  return { tenantClass };
};

function addVolume(tenant: Tenant, volume: V1Volume): void {
  const spec = podSpecOf(tenant);
  spec.volumes = [...(spec.volumes ?? []), volume];
}

function verdict(tenant: Tenant, config?: ConfigTweaks): ReturnType<typeof evaluateTenant> {
  return evaluateTenant(tenant, testConfig(config));
}

const CASES: Case[] = [
  {
    name: 'a node picked by its hostname label in nodeSelector',
    tweak: (t) => (podSpecOf(t).nodeSelector = { [HOSTNAME]: 'node-7' }),
    reason: 'PlacementNotAllowed',
    says: [`${TEMPLATE}.nodeSelector["${HOSTNAME}"]`, 'hostname label'],
  },
  {
    name: 'a node picked by its hostname label in a required node affinity term',
    tweak: (t) =>
      (podSpecOf(t).affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: HOSTNAME, operator: 'In', values: ['node-7'] }] },
            ],
          },
        },
      }),
    reason: 'PlacementNotAllowed',
    says: ['nodeSelectorTerms[0].matchExpressions[0]', 'hostname label'],
  },
  {
    name: 'a node picked by excluding the others (NotIn) in a preferred term',
    tweak: (t) =>
      (podSpecOf(t).affinity = {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              preference: {
                matchExpressions: [
                  { key: 'zone', operator: 'In', values: ['a'] },
                  { key: HOSTNAME, operator: 'NotIn', values: ['node-1', 'node-2'] },
                ],
              },
            },
          ],
        },
      }),
    reason: 'PlacementNotAllowed',
    says: ['preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[1]'],
  },
  {
    name: 'a node picked by excluding the others through matchFields',
    tweak: (t) =>
      (podSpecOf(t).affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }] },
            ],
          },
        },
      }),
    reason: 'PlacementNotAllowed',
    says: ['matchFields[0]', 'by name'],
  },
  {
    name: 'a grace period over the default limit',
    tweak: (t) => (podSpecOf(t).terminationGracePeriodSeconds = 86_400),
    reason: 'LimitExceeded',
    says: [`${TEMPLATE}.terminationGracePeriodSeconds`, '86400', 'maxTerminationGracePeriodSeconds of 300'],
  },
  {
    name: "a grace period over a class's own limit",
    tweak: (t) => (podSpecOf(t).terminationGracePeriodSeconds = 61),
    config: perTenantClass({ maxTerminationGracePeriodSeconds: 60 }),
    reason: 'LimitExceeded',
    says: ['61', 'maxTerminationGracePeriodSeconds of 60'],
  },
  {
    name: 'an active deadline',
    tweak: (t) => (podSpecOf(t).activeDeadlineSeconds = 10),
    reason: 'InvalidSpec',
    says: [`${TEMPLATE}.activeDeadlineSeconds`, 'remove it'],
  },
  {
    name: 'an emptyDir larger than the class allows',
    tweak: (t) => addVolume(t, { name: 'scratch', emptyDir: { sizeLimit: '100Gi' } }),
    reason: 'LimitExceeded',
    says: [`${TEMPLATE}.volumes[1].emptyDir.sizeLimit`, '"100Gi"', 'maxEmptyDirSizeLimit of 8Gi'],
  },
  {
    name: 'a memory-backed emptyDir larger than a class allows, in decimal units',
    tweak: (t) => addVolume(t, { name: 'ram', emptyDir: { medium: 'Memory', sizeLimit: '2G' } }),
    config: perTenantClass({ maxEmptyDirSizeLimit: '1Gi' }),
    reason: 'LimitExceeded',
    says: ['volumes[1].emptyDir.sizeLimit', '"2G"'],
  },
  {
    name: 'an emptyDir size that is not a quantity',
    tweak: (t) => addVolume(t, { name: 'scratch', emptyDir: { sizeLimit: 'lots' } }),
    reason: 'InvalidSpec',
    says: ['volumes[1].emptyDir.sizeLimit', '"lots" is not a quantity'],
  },
  {
    name: 'a generic ephemeral volume in a PerTenant namespace',
    tweak: (t) =>
      addVolume(t, {
        name: 'claim',
        ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'] } } },
      }),
    config: perTenantClass(),
    reason: 'VolumeNotAllowed',
    says: [`${TEMPLATE}.volumes[1].ephemeral`, 'allowEphemeralVolumes'],
  },
];

describe('placement and resources', () => {
  it.each(CASES)('refuses $name', ({ tweak, config, reason, says }) => {
    const tenant = validTenant();
    tweak(tenant);
    const result = verdict(tenant, config);
    if (result.ok) throw new Error('expected a refusal, got ok');
    expect(result.refusal.reason).toBe(reason);
    for (const text of says) expect(result.refusal.message).toContain(text);
  });

  it.each<[string, (tenant: Tenant) => void, ConfigTweaks | undefined]>([
    [
      'spreading over nodes by hostname',
      (t) =>
        (podSpecOf(t).topologySpreadConstraints = [
          { maxSkew: 1, topologyKey: HOSTNAME, whenUnsatisfiable: 'DoNotSchedule' },
        ]),
      undefined,
    ],
    [
      'anti-affinity between its own pods by hostname',
      (t) =>
        (podSpecOf(t).affinity = {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: HOSTNAME, labelSelector: { matchLabels: { app: 'web' } } },
            ],
          },
        }),
      undefined,
    ],
    ['a grace period at the limit', (t) => (podSpecOf(t).terminationGracePeriodSeconds = 300), undefined],
    [
      'an emptyDir at the limit',
      (t) => addVolume(t, { name: 'scratch', emptyDir: { sizeLimit: '8Gi' } }),
      undefined,
    ],
    [
      'a generic ephemeral volume the class allows',
      (t) => addVolume(t, { name: 'claim', ephemeral: { volumeClaimTemplate: { spec: {} } } }),
      perTenantClass({ allowEphemeralVolumes: true }),
    ],
  ])('accepts %s', (_name, tweak, config) => {
    const tenant = validTenant();
    tweak(tenant);
    const result = verdict(tenant, config);
    expect(result.ok ? 'ok' : result.refusal.message).toBe('ok');
  });

  it("sets the class's size on an emptyDir without one, and keeps a size the row set", () => {
    const tenant = validTenant();
    addVolume(tenant, { name: 'a', emptyDir: {} });
    addVolume(tenant, { name: 'b', emptyDir: { sizeLimit: '64Mi' } });
    const result = verdict(tenant, perTenantClass({ defaultEmptyDirSizeLimit: '256Mi' }));
    if (!result.ok) throw new Error(result.refusal.message);
    const volumes = result.children.deployment.spec?.template.spec?.volumes ?? [];
    expect(volumes.map((v) => v.emptyDir?.sizeLimit)).toEqual([undefined, '256Mi', '64Mi']);
    expect(podSpecOf(tenant).volumes?.[1]?.emptyDir).toEqual({});
  });

  it('leaves an emptyDir that is not an object to the shape the API server checks', () => {
    const tenant = validTenant();
    const volume: V1Volume = { name: 'odd' };
    setField(volume, 'emptyDir', 'yes');
    addVolume(tenant, volume);
    expect(() => verdict(tenant)).not.toThrow();
  });
});
