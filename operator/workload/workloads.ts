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
import { DEPLOYMENTS_PATH, WORKLOAD_MESSAGE } from './reasons.js';

/** What the policy accepts of a tenant: its Deployments in the spec's order, and its ConfigMaps. */
export interface Workloads {
  deployments: V1Deployment[];
  configMaps: V1ConfigMap[];
}

type Verdict = { ok: true; workloads: Workloads } | { ok: false; refusal: Refusal };

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

const pathOf = (index: number): string => `${DEPLOYMENTS_PATH}[${index}]`;
const nameOf = (deployment: V1Deployment | undefined): string => deployment?.metadata?.name ?? '';

/** The policy names the one Deployment it judged spec.deployment: here it is one of the list. */
function atIndex(refusal: Refusal, index: number): Refusal {
  return { ...refusal, message: refusal.message.replaceAll(/\bspec\.deployment(?![\w-])/g, pathOf(index)) };
}

const invalid = (message: string): Refusal => ({ reason: REFUSAL_REASON.invalidSpec, message });
const overLimit = (message: string): Refusal => ({ reason: REFUSAL_REASON.limitExceeded, message });
