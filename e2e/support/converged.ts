// What "converged" means after a fault, checked against the cluster as it is: every expected Tenant
// exists and is Ready for its current generation; every child carrying the tenant label has exactly
// one controller owner, an existing Tenant with that uid; each Tenant has exactly the children its
// spec names, at the spec's hash; nothing unexpected exists. A helper reports every problem at once,
// so a failure after a fault says all that went wrong, not just the first thing.
// Its neighbours: observe.ts reads the cluster, cluster-facts.ts says what the nodes and pods say
// when convergence times out, and snapshot.ts tells what a fault deleted or replaced.
import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import { desiredChildren, SPEC_HASH_ANNOTATION } from '../../operator/desired.js';
import { DEFAULT_RESERVED_NAMESPACES } from '../../operator/namespaces/rules.js';
import { builtInClass, evaluateTenant, type PolicyConfig } from '../../operator/policy/index.js';
import { CONDITION, KIND, LABEL, type Tenant } from '../../api/tenant.js';
import { waitUntil } from '../../harness/wait.js';
import { clusterFacts } from './cluster-facts.js';
import { keyOf, listChildren, listTenants } from './observe.js';

/** The operator's defaults: the children it would apply, exactly as it computes them. */
const POLICY: PolicyConfig = {
  allowedNamespaces: [],
  operatorNamespace: 'landlord-system',
  reservedNamespaces: DEFAULT_RESERVED_NAMESPACES,
  tenantClass: builtInClass('baseline'),
};

export interface Expectation {
  /** Names of the Tenants that must exist (and no other Tenant matching `selector`). */
  tenants: readonly string[];
  /** A label selector for the Tenants of this test, to find ones that should not exist. */
  selector: string;
  /** Namespaces where the children live: every labelled child there is checked. */
  namespaces: readonly string[];
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
/** How many of the expected Tenants are Ready for their generation right now. */
export async function readyCount(expectation: Pick<Expectation, 'selector' | 'tenants'>): Promise<number> {
  const wanted = new Set(expectation.tenants);
  const tenants = await listTenants(expectation.selector);
  return tenants.filter((t) => wanted.has(t.metadata.name!) && readyFor(t)).length;
}
