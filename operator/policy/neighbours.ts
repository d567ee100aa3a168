// Pods in a shared namespace find each other by labels: a Service, a NetworkPolicy or a Deployment
// selects pods, not tenants. A row whose pods carried another tenant's labels would join that
// tenant's Service and pass its network rules, and a selector that matched another tenant's pods
// would make its Deployment fight over them. Of two such tenants the one created first keeps its
// labels (then the name that sorts first); the other is refused, naming it.
import type { V1Deployment, V1LabelSelector } from '@kubernetes/client-node';
import { matches } from '../../util/label-selector.js';
import { placeIn, type Child } from './children.js';
import { isRecord } from './json.js';
import { refusal, type Refusal } from './refusals.js';

/** What the checks need to know of another Tenant's Deployment. */
export interface Neighbour {
  tenant: string;
  /** The Tenant's creationTimestamp (RFC 3339, so strings compare in time order). */
  createdAt: string;
  /** The Deployment's name: a neighbour naming the same one is the ownership check's business. */
  deployment: string;
  selector: V1LabelSelector;
  podLabels: Readonly<Record<string, string>>;
}

/** The pods and selector of one Deployment, to compare with its neighbours'. */
export interface LabelProbe {
  podLabels: Readonly<Record<string, string>>;
  selector: V1LabelSelector;
}

/** The other Tenants' Deployments, by namespace: built by the reconciler from its Tenant cache. */
export interface Neighbours {
  /**
   * The Deployments in the namespace that may share labels with the probe's: all of them, or fewer
   * when an index can rule some out, but never one fewer than those that do. A shared namespace
   * can hold thousands of tenants, and a reconcile that compared itself with each would make a
   * resync pass quadratic.
   */
  candidates(namespace: string, probe: LabelProbe): Iterable<Neighbour>;
}

export const NO_NEIGHBOURS: Neighbours = { candidates: () => [] };

/** Who this Tenant is, for the comparison with its neighbours. */
export interface Self {
  tenant: string;
  createdAt: string | undefined;
}

/**
 * The namespace and Neighbour a Tenant's Deployment manifest makes, or undefined when the manifest
 * has no usable namespace, name or template (the policy refuses such a Tenant anyway).
 */
export function neighbourOf(
  self: Self,
  deployment: unknown,
): { namespace: string; neighbour: Neighbour } | undefined {
  if (!isRecord(deployment) || !isRecord(deployment.metadata) || !isRecord(deployment.spec)) return undefined;
  const { namespace, name } = deployment.metadata;
  const selector = deployment.spec.selector;
  const template = deployment.spec.template;
  if (typeof namespace !== 'string' || typeof name !== 'string' || !isRecord(selector)) return undefined;
  const labels = isRecord(template) && isRecord(template.metadata) ? template.metadata.labels : undefined;
  const neighbour: Neighbour = {
    tenant: self.tenant,
    createdAt: self.createdAt ?? '',
    deployment: name,
    selector,
    podLabels: stringMap(labels),
  };
  return { namespace, neighbour };
}

export function checkLabelConflicts(
  self: Self,
  deployment: Child<V1Deployment>,
  neighbours: Neighbours,
): Refusal | undefined {
  const { metadata, spec } = deployment.value;
  const namespace = metadata?.namespace ?? '';
  const podLabels = spec?.template.metadata?.labels ?? {};
  const selector = spec?.selector ?? {};
  const elders = [...neighbours.candidates(namespace, { podLabels, selector })]
    .filter((n) => n.tenant !== self.tenant && n.deployment !== metadata?.name && isOlder(n, self))
    .sort((a, b) => (isOlder(a, b) ? -1 : 1));
  for (const other of elders) {
    if (matches(other.selector, podLabels)) {
      const at = placeIn(deployment, `${deployment.path}.spec.template.metadata.labels`);
      return refusal.labelConflict(at, 'these pod labels match the Deployment selector', other.tenant);
    }
    if (matches(selector, other.podLabels)) {
      const at = placeIn(deployment, `${deployment.path}.spec.selector`);
      return refusal.labelConflict(at, 'this selector matches the pods', other.tenant);
    }
  }
  return undefined;
}

/** A creationTimestamp as RFC 3339 text, whether the client left it a string or made it a Date. */
export function createdAt(timestamp: unknown): string | undefined {
  if (timestamp instanceof Date) return timestamp.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return typeof timestamp === 'string' ? timestamp : undefined;
}

/** Created earlier; a Tenant not yet created (no timestamp) is younger than any that is. */
export function isOlder(a: Self, b: Self): boolean {
  const at = a.createdAt === undefined || a.createdAt === '' ? '\uffff' : a.createdAt;
  const bt = b.createdAt === undefined || b.createdAt === '' ? '\uffff' : b.createdAt;
  return at === bt ? a.tenant < b.tenant : at < bt;
}

function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}
