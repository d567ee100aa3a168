// A tenant's Deployments as the policy judges them. A row of one (spec.deployment) is judged as it
// always was; a row of several (spec.deployments, issue 58) is first held to what only a list can
// break (how many, one name each, their size together, pods no sibling selects), then each
// Deployment is judged alone by the very policy a row of one goes through, so every rule on a pod
// template, a name or a namespace applies to each. The ConfigMaps are judged once, with the first.
// Pure.
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import type { Tenant, TenantSpec } from '../../api/tenant.js';
import { matches } from '../../util/label-selector.js';
import {
  evaluateTenant,
  REFUSAL_REASON,
  type Neighbours,
  type PolicyConfig,
  type Refusal,
  type TenantNamespace,
} from '../policy/index.js';

/** What the policy accepts of a tenant: its Deployments in the spec's order, and its ConfigMaps. */
export interface Workloads {
  deployments: V1Deployment[];
  configMaps: V1ConfigMap[];
}

type Verdict = { ok: true; workloads: Workloads } | { ok: false; refusal: Refusal };

const LIST_PATH = 'spec.deployments';

/** What people read when a list of Deployments is refused as a list. */
export const WORKLOAD_MESSAGE = {
  both: `spec.deployment and ${LIST_PATH} are both set; a Tenant holds exactly one of them (sync writes one, from the row's spec)`,
  empty: `${LIST_PATH} lists no Deployment; a row runs at least one`,
  tooMany: (count: number, max: number): string =>
    `${LIST_PATH}: ${count} Deployments is over the tenant class's limit maxDeployments of ${max}; split the services across tenants, or ask for a class with a higher limit`,
  tooLarge: (bytes: number, max: number): string =>
    `${LIST_PATH} and spec.configMaps (bytes of JSON): ${bytes} is over the tenant class's limit maxRowBytes of ${max}; make the row smaller: move large data out of the manifests`,
  shared: (className: string, count: number): string =>
    `${LIST_PATH}: ${count} Deployment${count === 1 ? '' : 's'} listed, but the tenant class "${className}" is Shared (its tenants share one namespace), where a tenant runs exactly 1 Deployment, written as one object, not a list: the checks that keep neighbours' names and pod labels apart compare one per tenant; write the row's spec as one Deployment, or ask for a PerTenant class`,
  duplicate: (path: string, name: string, first: string): string =>
    `${path}.metadata.name: "${name}" is ${first}'s name too; each Deployment needs its own name`,
  overlap: (path: string, other: string): string =>
    `${path}.spec.selector selects the pods of ${other}: two Deployments would fight over them; give each its own pod labels and a selector only its own match`,
} as const;

/** The tenant's Deployments and ConfigMaps as the policy accepts and shapes them, or its refusal. */
export function evaluateWorkloads(
  tenant: Tenant,
  policy: PolicyConfig,
  neighbours: Neighbours,
  placement: TenantNamespace,
): Verdict {
  const listed = tenant.spec?.deployments;
  if (listed === undefined) {
    const verdict = evaluateTenant(tenant, policy, neighbours, placement);
    if (!verdict.ok) return verdict;
    const { deployment, configMaps } = verdict.children;
    return { ok: true, workloads: { deployments: [deployment], configMaps } };
  }
  const early = checkList(tenant.spec!, listed, policy);
  if (early !== undefined) return { ok: false, refusal: early };
  return evaluateEach(tenant, listed, policy, { neighbours, placement });
}

/** What only a list can break, before any Deployment is judged; the first problem found. */
function checkList(spec: TenantSpec, listed: unknown, policy: PolicyConfig): Refusal | undefined {
  const { limits, mode } = policy.tenantClass;
  if (spec.deployment !== undefined && spec.deployment !== null) return invalid(WORKLOAD_MESSAGE.both);
  if (!Array.isArray(listed) || listed.length === 0) return invalid(WORKLOAD_MESSAGE.empty);
  if (listed.length > limits.maxDeployments)
    return overLimit(WORKLOAD_MESSAGE.tooMany(listed.length, limits.maxDeployments));
  const bytes = Buffer.byteLength(JSON.stringify([listed, spec.configMaps ?? null]), 'utf8');
  if (bytes > limits.maxRowBytes) return overLimit(WORKLOAD_MESSAGE.tooLarge(bytes, limits.maxRowBytes));
  if (mode === 'Shared') return overLimit(WORKLOAD_MESSAGE.shared(policy.tenantClass.name, listed.length));
  return checkNames(listed);
}

/** Every Deployment lands in the tenant's namespace: two of one name would undo each other. */
function checkNames(listed: readonly unknown[]): Refusal | undefined {
  const firstByName = new Map<string, string>();
  for (const [index, deployment] of listed.entries()) {
    const name = (deployment as V1Deployment | null)?.metadata?.name;
    // A missing or malformed name is the shape check's to report, with the rest of the manifest.
    if (typeof name !== 'string') continue;
    const path = pathOf(index);
    const first = firstByName.get(name);
    if (first !== undefined)
      return {
        reason: REFUSAL_REASON.duplicateChild,
        message: WORKLOAD_MESSAGE.duplicate(path, name, first),
      };
    firstByName.set(name, path);
  }
  return undefined;
}

interface Surroundings {
  neighbours: Neighbours;
  placement: TenantNamespace;
}

/**
 * Each Deployment judged as the one Deployment of a Tenant that is this one in all else; the
 * ConfigMaps go with the first only, so they are counted and checked once.
 */
function evaluateEach(
  tenant: Tenant,
  listed: readonly V1Deployment[],
  policy: PolicyConfig,
  { neighbours, placement }: Surroundings,
): Verdict {
  const rest: TenantSpec = { ...tenant.spec };
  delete rest.deployments;
  const configMaps = rest.configMaps ?? [];
  const workloads: Workloads = { deployments: [], configMaps: [] };
  for (const [index, deployment] of listed.entries()) {
    const spec: TenantSpec = { ...rest, deployment, configMaps: index === 0 ? configMaps : [] };
    const verdict = evaluateTenant({ ...tenant, spec }, policy, neighbours, placement);
    if (!verdict.ok) return { ok: false, refusal: atIndex(verdict.refusal, index) };
    workloads.deployments.push(verdict.children.deployment);
    if (index === 0) workloads.configMaps = verdict.children.configMaps;
  }
  const overlap = checkSiblings(workloads.deployments);
  return overlap === undefined ? { ok: true, workloads } : { ok: false, refusal: overlap };
}

/** A selector that matches a sibling's pods: both Deployments would count and replace them. */
function checkSiblings(deployments: readonly V1Deployment[]): Refusal | undefined {
  for (const [index, deployment] of deployments.entries()) {
    const selector = deployment.spec?.selector;
    if (selector === undefined) continue;
    const other = deployments.findIndex(
      (sibling, at) => at !== index && matches(selector, sibling.spec?.template.metadata?.labels ?? {}),
    );
    if (other !== -1) {
      const message = WORKLOAD_MESSAGE.overlap(
        pathOf(index),
        `${pathOf(other)} (${nameOf(deployments[other])})`,
      );
      return { reason: REFUSAL_REASON.labelConflict, message };
    }
  }
  return undefined;
}

const pathOf = (index: number): string => `${LIST_PATH}[${index}]`;
const nameOf = (deployment: V1Deployment | undefined): string => deployment?.metadata?.name ?? '';

/** The policy names the one Deployment it judged spec.deployment: here it is one of the list. */
function atIndex(refusal: Refusal, index: number): Refusal {
  return { ...refusal, message: refusal.message.replaceAll(/\bspec\.deployment(?![\w-])/g, pathOf(index)) };
}

const invalid = (message: string): Refusal => ({ reason: REFUSAL_REASON.invalidSpec, message });
const overLimit = (message: string): Refusal => ({ reason: REFUSAL_REASON.limitExceeded, message });
