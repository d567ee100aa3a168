// What the operator would do to one Tenant's children now, for `landlord plan`: the reconcile's own
// steps asked without applying. The same pause check and class resolution, the same
// desiredState over the same cluster view (ClusterView, filled by cluster-indexes.ts from a
// listing as the operator fills it from its watches), the same ownership and namespace checks as
// the converger, and the same prune rule (prune.ts's staleChildren): a preview that could differ
// from the decision would be worse than none.
import type { KubernetesObject } from '@kubernetes/client-node';
import { HOSTS_ANNOTATION } from '../api/exposure.js';
import { isPaused, type Tenant } from '../api/tenant.js';
import type { TenantClass } from '../api/tenantclass.js';
import { drifted } from './apply.js';
import { childKey, childRef, type ChildChange, type ChildRef } from './child-ref.js';
import type { DesiredChild } from './desired.js';
import { NO_HOST_HOLDERS } from './exposure/claims.js';
import type { StrayRoute, WithheldHost } from './exposure/exposure.js';
import { exposureFacet } from './exposure/facet.js';
import type { ClusterView } from './facets/contract.js';
import { desiredState, type Wanted } from './facets/engine.js';
import { NO_CLUSTER } from './facets/view.js';
import { idFor, usesId } from './namespaces/ids.js';
import { classTemplates } from './namespaces/rules.js';
import { controlledBy, namespaceClaim, ownership } from './ownership.js';
import type { PolicyConfig } from './policy/index.js';
import { staleChildren } from './prune.js';
import { needsReplacement } from './replacement.js';
import { LIFECYCLE_MESSAGE, OPERATOR_REASON } from './reasons.js';
import { fallbackClass, resolveClass } from './tenancy/resolve-class.js';

/** The children as they exist, read however the caller can (a listing, a GET), and the cluster around them. */
export interface ChildReader {
  get(ref: ChildRef): Promise<KubernetesObject | undefined>;
  /** The children labelled for this Tenant: the ones the operator would consider pruning. */
  labelledFor(tenant: string): ChildRef[];
  /** The TenantClasses, to resolve the Tenant's class as a reconcile does; absent: none exist. */
  classes?: readonly TenantClass[];
  /**
   * What a reconcile knows beyond the Tenant: the other Tenants' labels, who holds each host, the
   * secret sources. Absent: nothing (no neighbour, no host held, every copy kept as it is).
   */
  cluster?: ClusterView;
}

/** What the exposure decision does with the tenant's hosts, when it does more than route them all. */
export interface HostsPreview {
  /** The row's hosts it would not route, and who holds each (the HostsReady condition's facts). */
  withheld: WithheldHost[];
  /** Hosts it would route that another Tenant's namespace announces now: that Tenant loses them. */
  takenFrom: { host: string; tenant: string }[];
  /** Hand-made routes in its namespace for hosts it does not hold: reported, never deleted. */
  strays: StrayRoute[];
}

export type ChildrenPreview =
  /** The policy refuses the spec: nothing is applied, the Tenant reports the reason. */
  | { kind: 'refused'; reason: string; message: string }
  /** A child is held by another owner (or an earlier Tenant of this name): nothing is applied. */
  | { kind: 'blocked'; reason: typeof OPERATOR_REASON.conflict; message: string }
  /**
   * The children it would create, update and prune; none when they already match. `pruneHeld`: the
   * prunes wait until this Deployment, which replaces one in another namespace, has rolled out.
   */
  | {
      kind: 'converge';
      changes: ChildChange[];
      pruneHeld?: { until: ChildRef; gap: string };
      /** Where the tenant would be reached (status.url), when its class exposes it. */
      url?: string;
      /** Withheld hosts, takeovers and stray routes; absent: none of them. */
      hosts?: HostsPreview;
    }
  /** A person paused the Tenant: the operator leaves its children as they are. */
  | { kind: 'paused'; message: string };

/**
 * The Tenant's class, then what it asks for under it: a reconcile's first two steps. A "{id}" class
 * places the Tenant in the namespace it holds (a claimed pool member or its cold one), as a
 * reconcile does; a tenant that holds none yet is shown in its cold namespace.
 */
async function askedChildren(
  tenant: Tenant,
  policy: PolicyConfig,
  children: ChildReader,
): Promise<Wanted | { ok: false; refusal: { reason: string; message: string } }> {
  const classes = children.classes ?? [];
  const resolved = resolveClass(tenant, classes, fallbackClass(policy));
  if (!resolved.ok) return resolved;
  const config = { ...policy, tenantClass: resolved.policy, classTemplates: classTemplates(classes) };
  const namespaceId = await heldNamespaceId(tenant, config, children);
  const placed = namespaceId === undefined ? config : { ...config, namespaceId };
  return desiredState(tenant, placed, children.cluster ?? NO_CLUSTER);
}

/** The id of the namespace a Tenant of a "{id}" class holds: labelled for it and controlled by it. */
async function heldNamespaceId(
  tenant: Tenant,
  policy: PolicyConfig,
  children: ChildReader,
): Promise<string | undefined> {
  const template = policy.tenantClass.namespace.nameTemplate;
  if (policy.tenantClass.mode !== 'PerTenant' || !usesId(template)) return undefined;
  for (const ref of children.labelledFor(tenant.metadata.name ?? '')) {
    if (ref.kind === 'Namespace' && controlledBy(tenant, await children.get(ref)))
      return idFor(template, ref.name);
  }
  return undefined;
}

export async function previewChildren(
  tenant: Tenant,
  policy: PolicyConfig,
  children: ChildReader,
): Promise<ChildrenPreview> {
  if (isPaused(tenant)) return { kind: 'paused', message: LIFECYCLE_MESSAGE.paused };
  const asked = await askedChildren(tenant, policy, children);
  if (!asked.ok) return { kind: 'refused', ...asked.refusal };
  const desired = asked.children;
  const seen = await seenChildren(tenant, desired, children);
  const conflict = ownershipConflict(tenant, desired, seen);
  if (conflict !== undefined) return { kind: 'blocked', reason: OPERATOR_REASON.conflict, message: conflict };
  const changes: ChildChange[] = [];
  for (const child of desired) {
    const current = seen.get(childKey(child.ref));
    if (current === undefined) changes.push({ action: 'created', ref: child.ref });
    else if (drifted(child, current))
      changes.push({ action: needsReplacement(child, current) ? 'replaced' : 'updated', ref: child.ref });
  }
  const labelled = children.labelledFor(tenant.metadata.name ?? '');
  const wanted = { desired, retained: asked.retained };
  const stale = staleChildren(tenant, wanted, { labelled, child: (ref) => seen.get(childKey(ref)) });
  changes.push(...stale.refs.map((ref) => ({ action: 'pruned' as const, ref })));
  const held = stale.held === undefined ? {} : { pruneHeld: stale.held };
  const url = asked.status.url === undefined ? {} : { url: asked.status.url };
  const hosts = await hostsPreview(tenant, asked, children);
  return { kind: 'converge', changes, ...held, ...url, ...(hosts === undefined ? {} : { hosts }) };
}

/** The other Tenants that claim `host` and whose namespace announces it now (landlord.dev/hosts). */
async function announcersOf(host: string, tenant: Tenant, children: ChildReader): Promise<string[]> {
  const holders = children.cluster?.of(exposureFacet) ?? NO_HOST_HOLDERS;
  const others = holders.claimants(host).filter((t) => t !== tenant.metadata.name);
  const announcing: string[] = [];
  for (const other of others) {
    const namespace = holders.namespaceOf(other);
    const object =
      namespace === undefined ? undefined : await children.get(childRef('Namespace', '', namespace));
    const announced = object?.metadata?.annotations?.[HOSTS_ANNOTATION]?.split(',') ?? [];
    if (announced.includes(host)) announcing.push(other);
  }
  return announcing;
}

/**
 * The exposure facet's decision as the plan shows it: what it withholds and reports, and the hosts
 * it takes from another Tenant whose namespace announces them now (that Tenant's reconcile, woken by
 * the same claims, drops them from its route and annotation).
 */
async function hostsPreview(
  tenant: Tenant,
  asked: Extract<Wanted, { ok: true }>,
  children: ChildReader,
): Promise<HostsPreview | undefined> {
  const exposed = asked.decisions.of(exposureFacet);
  if (exposed === undefined) return undefined;
  const takenFrom: HostsPreview['takenFrom'] = [];
  for (const host of exposed.hosts) {
    for (const other of await announcersOf(host, tenant, children)) takenFrom.push({ host, tenant: other });
  }
  const { withheld, strays } = exposed;
  if (withheld.length === 0 && strays.length === 0 && takenFrom.length === 0) return undefined;
  return { withheld, takenFrom, strays };
}

/**
 * Every child the converger and the pruner would look at, read once: the wanted ones, the
 * namespaces they go in, and those labelled for the Tenant.
 */
async function seenChildren(
  tenant: Tenant,
  desired: readonly DesiredChild[],
  children: ChildReader,
): Promise<Map<string, KubernetesObject | undefined>> {
  const namespaces = new Set(desired.map((d) => d.ref.namespace).filter((ns) => ns !== ''));
  const refs = [
    ...desired.map((d) => d.ref),
    ...[...namespaces].map((ns) => childRef('Namespace', '', ns)),
    ...children.labelledFor(tenant.metadata.name ?? ''),
  ];
  const objects = await Promise.all(refs.map((ref) => children.get(ref)));
  return new Map(refs.map((ref, i) => [childKey(ref), objects[i]]));
}

/**
 * What the converger refuses before it applies anything (converge.ts): a child another owner holds,
 * in order, then a namespace that is another Tenant's.
 */
function ownershipConflict(
  tenant: Tenant,
  desired: readonly DesiredChild[],
  seen: ReadonlyMap<string, KubernetesObject | undefined>,
): string | undefined {
  const namespaceOf = (ns: string): KubernetesObject | undefined =>
    ns === '' ? undefined : seen.get(childKey(childRef('Namespace', '', ns)));
  for (const { ref } of desired) {
    const inOwn = controlledBy(tenant, namespaceOf(ref.namespace));
    const owner = ownership(tenant, ref, seen.get(childKey(ref)), inOwn);
    if (owner.verdict !== 'ok') return owner.message;
  }
  for (const ns of new Set(desired.map((d) => d.ref.namespace))) {
    const problem = namespaceClaim(tenant, namespaceOf(ns));
    if (problem !== undefined) return problem;
  }
  return undefined;
}
