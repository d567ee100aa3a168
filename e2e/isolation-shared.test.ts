// A hostile row writer in a shared namespace, against the real control plane: next to a running
// tenant, one Tenant per attack (another ServiceAccount, a Secret, another tenant's ConfigMap,
// system-node-critical, a control-plane node, 100000 replicas, a controller's annotation, another
// tenant's pod labels, ...). Each is refused with its own reason on Applied and Ready, a Warning
// Event and a log line, and applies nothing; the running tenant's children stay exactly as they
// were, also when its own row turns hostile. One file: the attacks share one operator and one
// running tenant, which is the point (they sit together in one namespace).
import type { V1ConfigMap, V1Deployment, V1PodSpec } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import { SPEC_HASH_ANNOTATION } from '../operator/desired.js';
import { clients, uniqueName } from './support/env.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { listTenants } from './support/observe.js';
import { eventsWritten } from './support/sync.js';
import {
  condition,
  configMapManifest,
  createTenant,
  deleteTenant,
  deploymentManifest,
  readTenant,
  setSpec,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';

const { core, apps, custom } = clients();
const ns = uniqueName('iso');
const running = `${ns}-running`;
let operator: LandlordProcess;

interface Attack {
  name: string;
  reason: string;
  /** Substrings the Applied message must hold. */
  says: string[];
  tenant: (name: string) => Tenant;
}

/** A Tenant whose Deployment's pod spec is changed by `change`. */
function withPod(change: (spec: V1PodSpec, d: V1Deployment) => void): (name: string) => Tenant {
  return (name) => {
    const tenant = tenantManifest(name, ns, 1);
    const deployment = tenant.spec!.deployment!;
    change(deployment.spec!.template.spec!, deployment);
    return tenant;
  };
}

const ATTACKS: Attack[] = [
  {
    name: 'runs as another ServiceAccount',
    reason: 'ServiceAccountNotAllowed',
    says: ['spec.template.spec.serviceAccountName', '"landlord-operator"'],
    tenant: withPod((spec) => (spec.serviceAccountName = 'landlord-operator')),
  },
  {
    name: 'mounts a ServiceAccount token',
    reason: 'ServiceAccountNotAllowed',
    says: ['automountServiceAccountToken'],
    tenant: withPod((spec) => (spec.automountServiceAccountToken = true)),
  },
  {
    name: 'mounts a Secret',
    reason: 'ReferenceNotAllowed',
    says: ['spec.template.spec.volumes[0].secret'],
    tenant: withPod((spec) => (spec.volumes = [{ name: 's', secret: { secretName: 'other-db' } }])),
  },
  {
    name: 'reads a Secret through envFrom in an init container',
    reason: 'ReferenceNotAllowed',
    says: ['initContainers[0].envFrom[0].secretRef'],
    tenant: withPod(
      (spec) =>
        (spec.initContainers = [
          { name: 'init', image: 'busybox:1.36', envFrom: [{ secretRef: { name: 'db' } }] },
        ]),
    ),
  },
  {
    name: "uses another tenant's imagePullSecrets",
    reason: 'ReferenceNotAllowed',
    says: ['spec.template.spec.imagePullSecrets'],
    tenant: withPod((spec) => (spec.imagePullSecrets = [{ name: 'other-registry' }])),
  },
  {
    name: "mounts another tenant's PersistentVolumeClaim",
    reason: 'ReferenceNotAllowed',
    says: ['persistentVolumeClaim'],
    tenant: withPod((spec) => (spec.volumes = [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }])),
  },
  {
    name: 'projects a ServiceAccount token for an audience',
    reason: 'ReferenceNotAllowed',
    says: ['projected.sources[0].serviceAccountToken'],
    tenant: withPod(
      (spec) =>
        (spec.volumes = [
          { name: 't', projected: { sources: [{ serviceAccountToken: { audience: 'vault', path: 't' } }] } },
        ]),
    ),
  },
  {
    name: "mounts the running tenant's ConfigMap",
    reason: 'ReferenceNotAllowed',
    says: [`"${running}-config-0"`],
    tenant: withPod((spec) => (spec.volumes = [{ name: 'c', configMap: { name: `${running}-config-0` } }])),
  },
  {
    name: 'takes priority system-node-critical',
    reason: 'PriorityNotAllowed',
    says: ['priorityClassName', '"system-node-critical"'],
    tenant: withPod((spec) => (spec.priorityClassName = 'system-node-critical')),
  },
  {
    name: 'pins a node with nodeName',
    reason: 'PlacementNotAllowed',
    says: ['spec.template.spec.nodeName'],
    tenant: withPod((spec) => (spec.nodeName = 'kwok-node-0')),
  },
  {
    name: 'tolerates every taint',
    reason: 'PlacementNotAllowed',
    says: ['tolerations[0]', 'every taint'],
    tenant: withPod((spec) => (spec.tolerations = [{ operator: 'Exists' }])),
  },
  {
    name: 'selects control-plane nodes',
    reason: 'PlacementNotAllowed',
    says: ['node-role.kubernetes.io/control-plane'],
    tenant: withPod((spec) => (spec.nodeSelector = { 'node-role.kubernetes.io/control-plane': '' })),
  },
  {
    name: 'asks for 100000 replicas',
    reason: 'LimitExceeded',
    says: ['spec.replicas: 100000', 'maxReplicas of 50'],
    tenant: withPod((_spec, d) => (d.spec!.replicas = 100_000)),
  },
  {
    name: 'asks for 60 ConfigMaps',
    reason: 'LimitExceeded',
    says: ['spec.configMaps: 60', 'maxConfigMaps of 50'],
    tenant: (name) => {
      const tenant = tenantManifest(name, ns, 0);
      tenant.spec!.configMaps = Array.from({ length: 60 }, (_, i): V1ConfigMap =>
        configMapManifest(`${name}-${i}`, ns),
      );
      return tenant;
    },
  },
  {
    name: "sets the Deployment controller's revision annotation",
    reason: 'ForbiddenMetadata',
    says: ['"deployment.kubernetes.io/revision"'],
    tenant: withPod((_spec, d) => (d.metadata!.annotations = { 'deployment.kubernetes.io/revision': '99' })),
  },
  {
    name: "gives its pods the running tenant's labels",
    reason: 'LabelConflict',
    says: ['spec.template.metadata.labels', `Tenant ${running}`],
    tenant: withPod((_spec, d) => {
      d.spec!.selector = { matchLabels: { app: `${running}-app` } };
      d.spec!.template.metadata!.labels = { app: `${running}-app` };
    }),
  },
];

const attackName = (i: number): string => `${ns}-attack-${i}`;

async function deploymentOf(name: string): Promise<V1Deployment | undefined> {
  return apps.readNamespacedDeployment({ name, namespace: ns }).catch(() => undefined);
}

/** The Tenant once Applied=False with `reason` for its current generation. */
function refused(name: string, reason: string): Promise<Tenant> {
  return waitForCondition(custom, name, { type: CONDITION.applied, status: 'False', reason }, 90_000);
}

async function expectWarning(name: string, reason: string): Promise<void> {
  const events = await eventsWritten(name, reason);
  expect(events[0]?.type).toBe('Warning');
  expect(events[0]?.source?.component).toBe('landlord-operator');
}

let before: V1Deployment;

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: ns } } });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }),
  );
  await operator.ready();
  await createTenant(custom, tenantManifest(running, ns, 1));
  await waitForCondition(custom, running, { type: CONDITION.ready, status: 'True' }, 90_000);
  before = (await deploymentOf(`${running}-app`))!;
  // creationTimestamp has one-second resolution and Tenants created in the same second are ordered
  // by name, where "-attack-" sorts before "-running": the attacks must be created a second later
  // for the running tenant to be the older one, as it is in life.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  for (const [i, attack] of ATTACKS.entries()) await createTenant(custom, attack.tenant(attackName(i)));
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  // The Tenants go first: left behind, their children's namespace gone, every later file's operator
  // would keep retrying them (and, with least-privilege RBAC, be refused).
  const names = (await listTenants())
    .map((t) => t.metadata.name ?? '')
    .filter((name) => name.startsWith(`${ns}-`));
  await Promise.all(names.map((name) => deleteTenant(custom, name).catch(() => undefined)));
  await core.deleteNamespace({ name: ns });
});

describe('the running tenant', () => {
  it('is Ready on the kwok node with the built-in class: no ServiceAccount token mounted', () => {
    expect(before.spec?.template.spec?.automountServiceAccountToken).toBe(false);
    expect(before.status?.readyReplicas).toBe(1);
  });
});

describe('each attack in a shared namespace', () => {
  it.each(ATTACKS.map((attack, i) => ({ ...attack, i })))(
    '$name: refused with $reason, an Event and a log line, nothing applied',
    async ({ i, reason, says }) => {
      const name = attackName(i);
      const tenant = await refused(name, reason);
      const applied = condition(tenant, CONDITION.applied)!;
      for (const text of says) expect(applied.message).toContain(text);
      expect(condition(tenant, CONDITION.ready)).toMatchObject({ status: 'False', reason });
      await expectWarning(name, reason);
      await operator.waitForLog((l) => l.tenant === name && l.reason === reason);
      expect(await deploymentOf(`${name}-app`)).toBeUndefined();
    },
  );

  it("left the running tenant's children as they were", async () => {
    await waitForCondition(custom, running, { type: CONDITION.ready, status: 'True' });
    const now = (await deploymentOf(`${running}-app`))!;
    expect(now.metadata?.generation).toBe(before.metadata?.generation);
    expect(now.metadata?.annotations?.[SPEC_HASH_ANNOTATION]).toBe(
      before.metadata?.annotations?.[SPEC_HASH_ANNOTATION],
    );
  });
});

describe('a running tenant whose row turns hostile', () => {
  it('is refused and keeps its children running as they were; the old row back, it is Ready again', async () => {
    const good = (await readTenant(custom, running)).spec!;
    const hostile = structuredClone(good);
    hostile.deployment!.spec!.template.spec!.volumes = [{ name: 's', secret: { secretName: 'other-db' } }];
    await setSpec(custom, running, hostile);
    await refused(running, 'ReferenceNotAllowed');
    const kept = (await deploymentOf(`${running}-app`))!;
    expect(kept.metadata?.generation).toBe(before.metadata?.generation);
    expect(kept.spec?.template.spec?.volumes).toBeUndefined();
    expect(kept.status?.readyReplicas).toBe(1);
    await setSpec(custom, running, good);
    await waitForCondition(custom, running, { type: CONDITION.ready, status: 'True' }, 90_000);
  });
});

describe('labels: the older tenant keeps them', () => {
  it('the younger one converges once the older one is gone', async () => {
    const younger = attackName(ATTACKS.findIndex((a) => a.reason === 'LabelConflict'));
    await deleteTenant(custom, running);
    // Woken by the deletion (or the resync at the latest): Ready with the labels it asked for.
    const tenant = await waitForCondition(custom, younger, { type: CONDITION.ready, status: 'True' }, 90_000);
    expect(condition(tenant, CONDITION.applied)?.status).toBe('True');
    const deployment = (await deploymentOf(`${younger}-app`))!;
    // The labels it asked for, and the one landlord puts on every tenant pod.
    expect(deployment.spec?.template.metadata?.labels).toEqual({
      app: `${running}-app`,
      [LABEL.tenant]: younger,
    });
  });

  it('a second Deployment selecting the same pods is refused as well, naming the first', async () => {
    const first = attackName(ATTACKS.findIndex((a) => a.reason === 'LabelConflict'));
    const name = `${ns}-selector`;
    const tenant = tenantManifest(name, ns, 0);
    const deployment = deploymentManifest(`${name}-app`, ns);
    deployment.spec!.selector = { matchLabels: { app: `${running}-app` } };
    deployment.spec!.template.metadata!.labels = { app: `${running}-app`, extra: 'yes' };
    tenant.spec!.deployment = deployment;
    await createTenant(custom, tenant);
    const seen = await refused(name, 'LabelConflict');
    expect(condition(seen, CONDITION.applied)?.message).toContain(`Tenant ${first}`);
  });
});
