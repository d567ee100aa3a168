// What the operator would do to one Tenant's children now, for `landlord plan`: the same pause
// check, class resolution, policy, state, desired manifests, ownership rule and drift check a reconcile uses, asked
// without applying.
import type { KubernetesObject } from '@kubernetes/client-node';
import { isPaused, type Tenant } from '../api/tenant.js';
import type { TenantClass } from '../api/tenantclass.js';
import { drifted } from './apply.js';
import { childKey, type ChildChange, type ChildRef } from './child-ref.js';
import { desiredState, type Wanted } from './facets/engine.js';
import type { SecretSources } from './secrets/sources.js';
import { idFor, usesId } from './namespaces/ids.js';
import { classTemplates } from './namespaces/rules.js';
import { controlledBy, ownership } from './ownership.js';
import type { PolicyConfig } from './policy/index.js';
import { replacementPending } from './prune.js';
import { LIFECYCLE_MESSAGE, OPERATOR_REASON } from './reasons.js';
import { fallbackClass, resolveClass } from './tenancy/resolve-class.js';

/** The children as they exist, read however the caller can (a listing, a GET). */
export interface ChildReader {
  get(ref: ChildRef): Promise<KubernetesObject | undefined>;
  /** The children labelled for this Tenant: the ones the operator would consider pruning. */
  labelledFor(tenant: string): ChildRef[];
  /** The TenantClasses, to resolve the Tenant's class as a reconcile does; absent: none exist. */
  classes?: readonly TenantClass[];
  /** The sources a class's secrets copy from; absent: none found (every copy kept as it is). */
  secretSources?: SecretSources;
}

export type ChildrenPlan =
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
  return desiredState(tenant, namespaceId === undefined ? config : { ...config, namespaceId }, {
    sources: children.secretSources,
  });
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

export async function planChildren(
  tenant: Tenant,
  policy: PolicyConfig,
  children: ChildReader,
): Promise<ChildrenPlan> {
  if (isPaused(tenant)) return { kind: 'paused', message: LIFECYCLE_MESSAGE.paused };
  const asked = await askedChildren(tenant, policy, children);
  if (!asked.ok) return { kind: 'refused', ...asked.refusal };
  const retained = asked.ok ? asked.retained : [];
  const desired = asked.children;
  const live = await Promise.all(desired.map((child) => children.get(child.ref)));
  const changes: ChildChange[] = [];
  for (const [i, child] of desired.entries()) {
    const current = live[i];
    const owner = ownership(tenant, child.ref, current);
    if (owner.verdict !== 'ok')
      return { kind: 'blocked', reason: OPERATOR_REASON.conflict, message: owner.message };
    if (current === undefined) changes.push({ action: 'created', ref: child.ref });
    else if (drifted(child, current)) changes.push({ action: 'updated', ref: child.ref });
  }
  const stale = await staleChildren(tenant, [...desired.map((d) => d.ref), ...retained], children);
  const next = desired.findIndex((d) => d.ref.kind === 'Deployment');
  const held = replacementPending(desired[next]?.ref, stale, () => live[next]);
  changes.push(...stale.map((ref) => ({ action: 'pruned' as const, ref })));
  const url = asked.status.url === undefined ? {} : { url: asked.status.url };
  return { kind: 'converge', changes, ...(held === undefined ? {} : { pruneHeld: held }), ...url };
}

/**
 * What a reconcile would prune: children labelled for the Tenant, controlled by it, neither wanted
 * nor kept (a copy whose source is missing).
 */
async function staleChildren(
  tenant: Tenant,
  kept: readonly ChildRef[],
  children: ChildReader,
): Promise<ChildRef[]> {
  const wanted = new Set(kept.map(childKey));
  const stale: ChildRef[] = [];
  for (const ref of children.labelledFor(tenant.metadata.name ?? '')) {
    if (wanted.has(childKey(ref)) || ref.kind === 'Namespace') continue;
    if (controlledBy(tenant, await children.get(ref))) stale.push(ref);
  }
  return stale;
}
