// Issue 55, class 8: a tenant team's hand-made pods past its class's placement and priority rules.
// With `edit` in its namespace the team made pods (by hand, or through a Deployment of its own) with
// nodeName, a toleration of every taint and priorityClassName system-node-critical: the operator
// held only the row's pod template to the class. The shipped admission policy landlord-tenant-pods
// holds every pod of a tenant namespace to the same rules, reading what the class grants from the
// annotations the operator writes on the namespace (docs/isolation.md, "Hand-made pods").
// Real API server with the shipped policies; a class with a node pool (the kwok node's label, a
// toleration of a taint it does not have) and a PriorityClass of its own; the operator runs as the
// test's admin, the team is the impersonated group `<tenant>-devs`, bound to `edit` by the class.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod, V1PodSpec, V1ReplicaSet, V1Toleration } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { KWOK_NODE_NAME } from '../harness/readiness.js';
import { waitUntil } from '../harness/wait.js';
import { POD_GRANT_ANNOTATIONS } from '../operator/namespaces/pod-grants.js';
import { config } from './support/deploy.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready, tenantOf } from './support/escape.js';
import { kubectl, kubectlAttempt } from './support/kubectl.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTenant, deleteTenant } from './support/tenants.js';

const { apps, core, custom } = clients();
const id = uniqueName('hmp');
const className = `${id}-class`;
const tenant = `${id}-t`;
const priorityClass = `${id}-tenant`;
const POLICY = 'landlord-tenant-pods';
const HOSTNAME = 'kubernetes.io/hostname';
const POOL_SELECTOR = { type: 'kwok' };
const POOL_TOLERATION: V1Toleration = {
  key: 'dedicated',
  operator: 'Equal',
  value: 'tenants',
  effect: 'NoSchedule',
};
let operator: LandlordProcess;
let manifests: string;
let namespace: string;

/** A member of the tenant's team: user `dev` in group `<tenant>-devs`, which holds `edit`. */
const AS_DEV = ['--as=dev', `--as-group=${tenant}-devs`];

/** Runs `verb` on `body` as the team in its namespace: undefined when allowed, else the error. */
const asDev = (verb: string[], body: object): Promise<string | undefined> =>
  kubectlAttempt(manifests, verb, body, [...AS_DEV, '-n', namespace]);

/** Adds a toleration to the team's pod as the team: undefined when allowed, else the error. */
async function addTolerationAsDev(pod: string, toleration: V1Toleration): Promise<string | undefined> {
  const patch = JSON.stringify([{ op: 'add', path: '/spec/tolerations/-', value: toleration }]);
  try {
    await kubectl('patch', 'pod', pod, '--type=json', '-p', patch, ...AS_DEV, '-n', namespace);
    return undefined;
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
}

/** A pod within the class's rules: on its pool, at its PriorityClass. */
function honestSpec(): V1PodSpec {
  return {
    containers: [{ name: 'app', image: 'nginx:1.27' }],
    nodeSelector: { ...POOL_SELECTOR },
    tolerations: [{ ...POOL_TOLERATION }],
    priorityClassName: priorityClass,
  };
}

const podOf = (name: string, spec: V1PodSpec): V1Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { made: 'by-hand' } },
  spec,
});

const running = (namespace: string, selector: string): Promise<V1Pod[]> =>
  waitUntil(
    `a running pod ${selector} in ${namespace}`,
    async () => {
      const { items } = await core.listNamespacedPod({ namespace, labelSelector: selector });
      const up = items.filter((p) => p.status?.phase === 'Running' && p.metadata?.deletionTimestamp == null);
      return up.length > 0 ? up : undefined;
    },
    { timeoutMs: 90_000 },
  );

beforeAll(async () => {
  manifests = await mkdtemp(join(tmpdir(), 'landlord-hand-made-'));
  // The policies first: the operator makes the tenant, and the ReplicaSet controller its pods,
  // through them.
  await kubectl('apply', '--server-side', '-k', config('admission'));
  await kubectlAttempt(manifests, ['create'], {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: priorityClass },
    value: 1000,
  });
  await createClass(custom, className, {
    namespace: { mode: 'PerTenant', nameTemplate: 'tenant-{name}' },
    rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
    nodePool: { nodeSelector: POOL_SELECTOR, tolerations: [POOL_TOLERATION] },
    limits: { allowedPriorityClasses: [priorityClass] },
  });
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await operator.ready();
  // The row's pods ask for the class's PriorityClass; the operator adds the pool.
  const row = tenantOf(tenant, className);
  row.spec!.deployment!.spec!.template.spec!.priorityClassName = priorityClass;
  await createTenant(custom, row);
  const made: Tenant = await ready(custom, tenant);
  namespace = made.status!.namespace!;
  // In force once a pinned pod is refused (a dry run).
  const pinned = podOf('probe', { ...honestSpec(), nodeName: KWOK_NODE_NAME });
  await waitUntil(
    'the admission policy on pods to be in force',
    async () => (await asDev(['create', '--dry-run=server'], pinned))?.includes(POLICY) || undefined,
    { timeoutMs: 60_000 },
  );
});

afterAll(async () => {
  await deleteTenant(custom, tenant).catch(() => undefined);
  expect(await operator?.stop()).toBe(0);
  await deleteClass(custom, className);
  await kubectl('delete', 'priorityclass', priorityClass, '--ignore-not-found');
  await kubectl('delete', '-k', config('admission'), '--ignore-not-found');
  await rm(manifests, { recursive: true, force: true });
});

describe('the honest path', () => {
  it('announces what the class grants a pod on the tenant namespace', async () => {
    const ns = await core.readNamespace({ name: namespace });
    expect(ns.metadata?.annotations).toMatchObject({
      [POD_GRANT_ANNOTATIONS.nodeSelector]: 'type=kwok',
      [POD_GRANT_ANNOTATIONS.tolerations]: 'dedicated:Equal:tenants:NoSchedule:',
      [POD_GRANT_ANNOTATIONS.priorityClasses]: priorityClass,
    });
  });

  it("runs the row's pods, made by the ReplicaSet controller, and makes them again", async () => {
    const [pod] = await running(namespace, `app=${tenant}-app`);
    expect(pod!.spec?.priorityClassName).toBe(priorityClass);
    expect(pod!.spec?.nodeSelector).toEqual(POOL_SELECTOR);
    expect(pod!.spec?.tolerations).toContainEqual(POOL_TOLERATION);
    await core.deleteNamespacedPod({ name: pod!.metadata!.name!, namespace, gracePeriodSeconds: 0 });
    const [again] = await running(namespace, `app=${tenant}-app`);
    expect(again!.metadata?.name).not.toBe(pod!.metadata?.name);
    // The Deployment controller counts the new pod after the kubelet reports it, so wait for it.
    await waitUntil(
      'the Deployment to count its new pod available',
      async () => {
        const deployment = await apps.readNamespacedDeployment({ name: `${tenant}-app`, namespace });
        return deployment.status?.availableReplicas === 1 || undefined;
      },
      { timeoutMs: 30_000 },
    );
  });

  it("admits a pod the team makes within the class's rules, and it runs", async () => {
    expect(await asDev(['create'], podOf('honest', honestSpec()))).toBeUndefined();
    const [pod] = await running(namespace, 'made=by-hand');
    expect(pod!.spec?.nodeName).toBe(KWOK_NODE_NAME);
    // An update keeps the node the scheduler chose, and may add what the API server gives every pod.
    const unreachable = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 60,
    };
    expect(await addTolerationAsDev('honest', unreachable)).toBeUndefined();
  });
});

const ATTACKS: [string, (spec: V1PodSpec) => void, string][] = [
  [
    'a node named outright',
    (spec) => (spec.nodeName = KWOK_NODE_NAME),
    `spec.nodeName (${KWOK_NODE_NAME}) is not allowed in a tenant namespace`,
  ],
  [
    'a node by its hostname label',
    (spec) => (spec.nodeSelector = { ...POOL_SELECTOR, [HOSTNAME]: KWOK_NODE_NAME }),
    `spec.nodeSelector ${HOSTNAME} is not allowed in a tenant namespace`,
  ],
  [
    'a node by hostname in required node affinity',
    (spec) =>
      (spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: HOSTNAME, operator: 'In', values: [KWOK_NODE_NAME] }] },
            ],
          },
        },
      }),
    'spec.affinity.nodeAffinity picks nodes by their hostname label',
  ],
  [
    'a node by name in matchFields',
    (spec) =>
      (spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: [KWOK_NODE_NAME] }] },
            ],
          },
        },
      }),
    'spec.affinity.nodeAffinity picks nodes by their hostname',
  ],
  [
    'a toleration of every taint',
    (spec) => spec.tolerations!.push({ operator: 'Exists' }),
    'a toleration without a key tolerates every taint, which is not allowed in a tenant namespace',
  ],
  [
    "a toleration of the control plane's taint",
    (spec) =>
      spec.tolerations!.push({
        key: 'node-role.kubernetes.io/control-plane',
        operator: 'Exists',
        effect: 'NoSchedule',
      }),
    'tolerating the taint node-role.kubernetes.io/control-plane is not allowed in a tenant namespace',
  ],
  [
    'priorityClassName system-node-critical',
    (spec) => (spec.priorityClassName = 'system-node-critical'),
    `the PriorityClass system-node-critical is not allowed in this tenant namespace; its class allows ${priorityClass}`,
  ],
  [
    "a pod off the class's node pool",
    (spec) => delete spec.nodeSelector,
    'spec.nodeSelector must hold type=kwok',
  ],
];

describe('attacks by a tenant team with edit', () => {
  it.each(ATTACKS)('refuses a hand-made pod with %s, and says why', async (_, tweak, says) => {
    const spec = honestSpec();
    tweak(spec);
    const name = uniqueName('attack');
    const error = await asDev(['create'], podOf(name, spec));
    expect(error).toContain(`ValidatingAdmissionPolicy '${POLICY}'`);
    expect(error).toContain(`Pod ${name}: ${says}`);
    const pods = await core.listNamespacedPod({ namespace, fieldSelector: `metadata.name=${name}` });
    expect(pods.items).toEqual([]);
  });

  it("refuses an update that makes the team's running pod tolerate every taint", async () => {
    const error = await addTolerationAsDev('honest', { operator: 'Exists' });
    expect(error).toContain(`ValidatingAdmissionPolicy '${POLICY}'`);
    expect(error).toContain('Pod honest: a toleration without a key tolerates every taint');
  });

  it("refuses the pods of the team's own Deployment at system-node-critical: its ReplicaSet says why", async () => {
    const spec = { ...honestSpec(), priorityClassName: 'system-node-critical' };
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'team-critical' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'team-critical' } },
        template: { metadata: { labels: { app: 'team-critical' } }, spec },
      },
    };
    // The Deployment itself is the team's to make; its pods are what the policy holds.
    expect(await asDev(['create'], deployment)).toBeUndefined();
    const failure = await waitUntil(
      "the team's ReplicaSet to report its refused pods",
      async () => {
        const { items } = await apps.listNamespacedReplicaSet({
          namespace,
          labelSelector: 'app=team-critical',
        });
        const set: V1ReplicaSet | undefined = items[0];
        return set?.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
      },
      { timeoutMs: 60_000 },
    );
    expect(failure.message).toContain(`ValidatingAdmissionPolicy '${POLICY}'`);
    expect(failure.message).toContain('the PriorityClass system-node-critical is not allowed');
    const pods = await core.listNamespacedPod({ namespace, labelSelector: 'app=team-critical' });
    expect(pods.items).toEqual([]);
    // The row's own Deployment runs on.
    await running(namespace, `app=${tenant}-app`);
  });
});
