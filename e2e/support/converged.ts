// What "converged" means after a fault, checked against the cluster as it is: every expected Tenant
// exists and is Ready for its current generation; every child carrying the tenant label has exactly
// one controller owner, an existing Tenant with that uid; each Tenant has exactly the children its
// spec names, at the spec's hash; nothing unexpected exists. A helper reports every problem at once,
// so a failure after a fault says all that went wrong, not just the first thing.
import type { KubernetesObject, V1ConfigMap, V1Deployment, V1Node, V1Pod } from '@kubernetes/client-node';
import { desiredChildren, SPEC_HASH_ANNOTATION } from '../../operator/desired.js';
import { evaluateTenant, type PolicyConfig } from '../../operator/policy/index.js';
import { CONDITION, GROUP, KIND, LABEL, PLURAL, VERSION, type Tenant } from '../../api/tenant.js';
import { isReady } from '../../harness/readiness.js';
import { waitUntil } from '../../harness/wait.js';
import { clients } from './env.js';

const { apps, core, custom } = clients();

/** The operator's defaults: the children it would apply, exactly as it computes them. */
const POLICY: PolicyConfig = {
  allowedNamespaces: [],
  operatorNamespace: 'landlord-system',
  podSecurity: 'baseline',
};

export interface Expectation {
  /** Names of the Tenants that must exist (and no other Tenant matching `selector`). */
  tenants: readonly string[];
  /** A label selector for the Tenants of this test, to find ones that should not exist. */
  selector: string;
  /** Namespaces where the children live: every labelled child there is checked. */
  namespaces: readonly string[];
}

export interface Snapshot {
  /** kind/namespace/name → uid, for Tenants and their children. */
  uids: Map<string, string>;
}

interface Observed {
  /** Every Tenant in the cluster by name: a child's owner may be any of them. */
  all: Map<string, Tenant>;
  /** The Tenants matching the selector. */
  selected: Tenant[];
  children: KubernetesObject[];
}

/**
 * The condition convergence waits for: Ready (the children match and the Deployment has rolled out,
 * which also takes kube-controller-manager), or Applied (the operator's own part: the children
 * match this generation).
 */
export type Goal = typeof CONDITION.ready | typeof CONDITION.applied;

/** Undefined when the Tenant reports the goal for its current generation, else why not. */
function shortOf(tenant: Tenant, goal: Goal): string | undefined {
  const c = tenant.status?.conditions?.find((x) => x.type === goal);
  if (c?.status === 'True' && c.observedGeneration === tenant.metadata.generation) return undefined;
  const where = `generation ${tenant.metadata.generation}`;
  return c === undefined
    ? `has no ${goal} condition (${where})`
    : `is ${goal}=${c.status} ${c.reason}: ${c.message.slice(0, 80)} (${where})`;
}

/**
 * What the Deployment itself says, next to a Tenant that is not Ready: tells a rollout still under
 * way (kube-controller-manager's part) from a Tenant status the operator failed to bring up to date.
 */
function deploymentFacts(tenant: Tenant, children: readonly KubernetesObject[]): string {
  const d: V1Deployment | undefined = children.find(
    (c) => c.kind === 'Deployment' && c.metadata?.labels?.[LABEL.tenant] === tenant.metadata.name,
  );
  if (d === undefined) return '[no Deployment]';
  const st = d.status ?? {};
  return (
    `[Deployment generation ${d.metadata?.generation}, observed ${st.observedGeneration}, ` +
    `updated ${st.updatedReplicas ?? 0}, available ${st.availableReplicas ?? 0} of ${d.spec?.replicas}]`
  );
}

const readyFor = (tenant: Tenant): boolean => shortOf(tenant, CONDITION.ready) === undefined;

const keyOf = (obj: KubernetesObject): string =>
  `${obj.kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

async function listTenants(labelSelector?: string): Promise<Tenant[]> {
  const list = (await custom.listClusterCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL,
    labelSelector,
  })) as { items: Tenant[] };
  return list.items;
}

/** The labelled Deployments and ConfigMaps of the namespaces, with kind set (lists omit it). */
async function listChildren(namespaces: readonly string[]): Promise<KubernetesObject[]> {
  const children: KubernetesObject[] = [];
  for (const namespace of namespaces) {
    const labelSelector = LABEL.tenant;
    const deployments = await apps.listNamespacedDeployment({ namespace, labelSelector });
    const configMaps = await core.listNamespacedConfigMap({ namespace, labelSelector });
    children.push(...deployments.items.map((d): V1Deployment => ({ ...d, kind: 'Deployment' })));
    children.push(...configMaps.items.map((c): V1ConfigMap => ({ ...c, kind: 'ConfigMap' })));
  }
  return children;
}

async function observe(expectation: Expectation): Promise<Observed> {
  const everything = await listTenants();
  const all = new Map(everything.map((t) => [t.metadata.name!, t]));
  const selected = await listTenants(expectation.selector);
  return { all, selected, children: await listChildren(expectation.namespaces) };
}

function tenantProblems(expectation: Expectation, observed: Observed, goal: Goal): string[] {
  const problems: string[] = [];
  const names = new Set(observed.selected.map((t) => t.metadata.name!));
  const expected = new Set(expectation.tenants);
  for (const name of expected) if (!names.has(name)) problems.push(`Tenant ${name} is missing`);
  for (const tenant of observed.selected) {
    const name = tenant.metadata.name!;
    if (!expected.has(name)) problems.push(`Tenant ${name} should not exist`);
    else if (tenant.metadata.deletionTimestamp !== undefined)
      problems.push(`Tenant ${name} is being deleted`);
    else {
      const short = shortOf(tenant, goal);
      if (short !== undefined)
        problems.push(`Tenant ${name} ${short} ${deploymentFacts(tenant, observed.children)}`);
    }
  }
  return problems;
}

/** A labelled child must have one controller: the Tenant its label names, with that Tenant's uid. */
function ownerProblem(child: KubernetesObject, all: Map<string, Tenant>): string | undefined {
  const controllers = (child.metadata?.ownerReferences ?? []).filter((o) => o.controller === true);
  const label = child.metadata?.labels?.[LABEL.tenant];
  if (controllers.length !== 1) return `${keyOf(child)} has ${controllers.length} controller owners`;
  const [owner] = controllers;
  if (owner!.kind !== KIND || owner!.name !== label)
    return `${keyOf(child)} is labelled for ${label} but controlled by ${owner!.kind} ${owner!.name}`;
  const tenant = all.get(owner!.name);
  if (tenant === undefined) return `${keyOf(child)} is an orphan: Tenant ${owner!.name} does not exist`;
  if (tenant.metadata.uid !== owner!.uid) return `${keyOf(child)} points at an earlier Tenant ${owner!.name}`;
  return undefined;
}

/** The labelled children, grouped by the tenant their label names, by key. */
function childrenByTenant(children: readonly KubernetesObject[]): Map<string, Map<string, KubernetesObject>> {
  const byTenant = new Map<string, Map<string, KubernetesObject>>();
  for (const child of children) {
    const label = child.metadata?.labels?.[LABEL.tenant] ?? '';
    const mine = byTenant.get(label) ?? new Map<string, KubernetesObject>();
    mine.set(keyOf(child), child);
    byTenant.set(label, mine);
  }
  return byTenant;
}

/** The Tenant owns exactly the children its spec names, each at the hash of this generation's spec. */
function ownsExactlyItsSpec(tenant: Tenant, have: ReadonlyMap<string, KubernetesObject>): string[] {
  const name = tenant.metadata.name!;
  const verdict = evaluateTenant(tenant, POLICY);
  if (!verdict.ok) return [`Tenant ${name} is refused: ${verdict.refusal.reason}`];
  const desired = desiredChildren(tenant, verdict.children);
  const problems: string[] = [];
  const want = new Set(desired.map((d) => `${d.ref.kind}/${d.ref.namespace}/${d.ref.name}`));
  for (const key of have.keys()) if (!want.has(key)) problems.push(`${key} is not in Tenant ${name}'s spec`);
  for (const child of desired) {
    const live = have.get(`${child.ref.kind}/${child.ref.namespace}/${child.ref.name}`);
    if (live === undefined) problems.push(`Tenant ${name} lacks ${child.ref.kind} ${child.ref.name}`);
    else if (live.metadata?.annotations?.[SPEC_HASH_ANNOTATION] !== child.hash)
      problems.push(`${keyOf(live)} does not match generation ${tenant.metadata.generation} of ${name}`);
  }
  return problems;
}

function childSetProblems(expectation: Expectation, observed: Observed): string[] {
  const byTenant = childrenByTenant(observed.children);
  const expected = new Set(expectation.tenants);
  return observed.selected
    .filter((tenant) => expected.has(tenant.metadata.name!))
    .flatMap((tenant) => ownsExactlyItsSpec(tenant, byTenant.get(tenant.metadata.name!) ?? new Map()));
}

/** Every problem that keeps the cluster from being converged; empty when it is. */
export async function convergenceProblems(
  expectation: Expectation,
  goal: Goal = CONDITION.ready,
): Promise<string[]> {
  const observed = await observe(expectation);
  const owners = observed.children
    .map((child) => ownerProblem(child, observed.all))
    .filter((p): p is string => p !== undefined);
  return [
    ...tenantProblems(expectation, observed, goal),
    ...owners,
    ...childSetProblems(expectation, observed),
  ];
}

/** Throws, listing every problem (the first 40), unless the cluster is converged. */
export async function assertConverged(expectation: Expectation): Promise<void> {
  const problems = await convergenceProblems(expectation);
  if (problems.length > 0) {
    const shown = problems.slice(0, 40).join('\n  ');
    throw new Error(`not converged (${problems.length} problems):\n  ${shown}`);
  }
}

const conditionText = (c: { type: string; status: string; reason?: string; message?: string }): string =>
  `${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? ` (${c.message.slice(0, 80)})` : ''}`;

function nodeFact(node: V1Node): string {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const taints = (node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).join(',') || 'none';
  return `Node ${node.metadata?.name}: ${ready ? conditionText(ready) : 'no Ready condition'}, taints ${taints}`;
}

function podFact(pod: V1Pod): string {
  const conditions = (pod.status?.conditions ?? []).map(conditionText).join('; ');
  const deleting = pod.metadata?.deletionTimestamp ? ', being deleted' : '';
  return (
    `Pod ${pod.metadata?.name} created ${pod.metadata?.creationTimestamp?.toISOString()} ` +
    `${pod.status?.phase} on ${pod.spec?.nodeName ?? '(unscheduled)'}${deleting}: ${conditions}`
  );
}

/**
 * The nodes' readiness and taints and every pod of the namespaces that is not Ready, for a
 * timeout's message: a rollout that never finishes is as often the simulated node (kwok) or
 * kube-controller-manager as it is landlord, and the message should say which.
 */
async function clusterFacts(namespaces: readonly string[]): Promise<string[]> {
  const facts = (await core.listNode()).items.map(nodeFact);
  for (const namespace of namespaces) {
    const pods = (await core.listNamespacedPod({ namespace })).items;
    const unready = pods.filter((p) => !isReady(p));
    facts.push(`${unready.length} of ${pods.length} pods in ${namespace} are not Ready`);
    facts.push(...unready.slice(0, 20).map(podFact));
  }
  return facts;
}

/** Waits until assertConverged passes (or, for Applied, the operator's part of it); returns the ms it took. */
export async function waitConverged(
  expectation: Expectation,
  timeoutMs: number,
  goal: Goal = CONDITION.ready,
): Promise<number> {
  const started = Date.now();
  let last: string[] = [];
  try {
    await waitUntil(
      'convergence',
      async () => {
        last = await convergenceProblems(expectation, goal);
        if (process.env.LANDLORD_E2E_VERBOSE === '1')
          console.log(`${new Date().toISOString()} ${last.length} problems: ${last.slice(0, 3).join('; ')}`);
        return last.length === 0;
      },
      { timeoutMs, intervalMs: 1_000 },
    );
  } catch (err) {
    const problems = last.slice(0, 40).join('\n  ');
    const cluster = await clusterFacts(expectation.namespaces).catch((e: Error) => [e.message]);
    throw new Error(
      `${(err as Error).message}; still ${last.length} problems:\n  ${problems}\n` +
        `what the nodes and the pods that are not Ready say:\n  ${cluster.join('\n  ')}`,
      { cause: err },
    );
  }
  return Date.now() - started;
}

/** The uids of the Tenants matching the selector and of the children in the namespaces. */
export async function snapshot(expectation: Pick<Expectation, 'selector' | 'namespaces'>): Promise<Snapshot> {
  const uids = new Map<string, string>();
  for (const tenant of await listTenants(expectation.selector))
    uids.set(`Tenant//${tenant.metadata.name}`, tenant.metadata.uid!);
  for (const child of await listChildren(expectation.namespaces))
    uids.set(keyOf(child), child.metadata!.uid!);
  return { uids };
}

/**
 * The objects of `before` that were deleted or replaced since (a new uid), ignoring the keys
 * `allowed` says a test removed on purpose. A fault must never delete what is still wanted.
 */
export async function lostSince(
  before: Snapshot,
  expectation: Pick<Expectation, 'selector' | 'namespaces'>,
  allowed: (key: string) => boolean = () => false,
): Promise<string[]> {
  const now = await snapshot(expectation);
  const lost: string[] = [];
  for (const [key, uid] of before.uids) {
    if (allowed(key)) continue;
    const current = now.uids.get(key);
    if (current === undefined) lost.push(`${key} was deleted`);
    else if (current !== uid) lost.push(`${key} was replaced`);
  }
  return lost;
}

/** The key `snapshot` uses for a Tenant, for `allowed` filters. */
export const tenantKey = (name: string): string => `Tenant//${name}`;

/** How many of the expected Tenants are Ready for their generation right now. */
export async function readyCount(expectation: Pick<Expectation, 'selector' | 'tenants'>): Promise<number> {
  const wanted = new Set(expectation.tenants);
  const tenants = await listTenants(expectation.selector);
  return tenants.filter((t) => wanted.has(t.metadata.name!) && readyFor(t)).length;
}

/** For lostSince: the keys of these Tenants and of their children, named `<tenant>-…` in these tests. */
export function ofTenants(names: Iterable<string>): (key: string) => boolean {
  const list = [...names];
  return (key) => list.some((name) => key === tenantKey(name) || key.includes(`/${name}-`));
}
