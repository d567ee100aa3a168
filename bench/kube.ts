// What the benchmark watches in the cluster: Tenants (how many are Ready) and the bench
// namespace's Deployments (how many are available, which image each runs). One list+watch each,
// the same informer landlord uses, so following progress costs the API server next to nothing.
import type { V1Deployment, V1ResourceQuota } from '@kubernetes/client-node';
import { readOfQuotaStatus, unenforcedResources } from '../operator/tenancy/quota-status.js';
import { apiPath } from '../runtime/kube/paths.js';
import { Informer } from '../runtime/kube/informer.js';
import type { KubeApi } from '../runtime/kube/api.js';
import { createLogger } from '../runtime/logger.js';
import { API_VERSION, CONDITION, KIND, type Tenant } from '../api/tenant.js';
import { secondsSince, sleep } from './pool.js';
import { BENCH_NAMESPACE } from './rows.js';

const logger = createLogger('bench', 'warn');

export async function watchTenants(api: KubeApi): Promise<Informer<Tenant>> {
  const informer = new Informer<Tenant>(api, {
    path: apiPath({ apiVersion: API_VERSION, kind: KIND }),
    apiVersion: API_VERSION,
    kind: KIND,
    logger,
  });
  await informer.start();
  return informer;
}

/** The bench namespace's Deployments, or every namespace's (PerTenant: one namespace per tenant). */
export async function watchDeployments(api: KubeApi, allNamespaces = false): Promise<Informer<V1Deployment>> {
  const informer = new Informer<V1Deployment>(api, {
    path: allNamespaces
      ? '/apis/apps/v1/deployments'
      : `/apis/apps/v1/namespaces/${BENCH_NAMESPACE}/deployments`,
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    logger,
  });
  await informer.start();
  return informer;
}

/** Ready=True for the Tenant's current generation. */
export function tenantReady(tenant: Tenant): boolean {
  const ready = tenant.status?.conditions?.find((c) => c.type === CONDITION.ready);
  return ready?.status === 'True' && ready.observedGeneration === tenant.metadata.generation;
}

function replicaCounts(d: V1Deployment): {
  seen: boolean;
  updated: number;
  total: number;
  available: number;
} {
  const status = d.status ?? {};
  return {
    seen: (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0),
    updated: status.updatedReplicas ?? 0,
    total: status.replicas ?? 0,
    available: status.availableReplicas ?? 0,
  };
}

/** Rolled out and available, as `kubectl rollout status` (and the operator's Ready) judges it. */
export function deploymentAvailable(d: V1Deployment): boolean {
  const want = d.spec?.replicas ?? 1;
  const counts = replicaCounts(d);
  const available = d.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true;
  return (
    counts.seen &&
    available &&
    counts.updated >= want &&
    counts.total <= counts.updated &&
    counts.available >= want
  );
}

export interface ProgressOptions {
  what: string;
  target: number;
  timeoutMs: number;
  /** performance.now() at the start of the measurement. */
  since: number;
  print: (line: string) => void;
  /** Called on every check; throwing ends the wait (a process the count depends on died). */
  check?: () => void;
}

/**
 * Waits until `count()` reaches the target, checking every 250 ms and printing progress every
 * 10 s. Resolves with the performance.now() of the check that saw it.
 */
export async function waitForCount(count: () => number, options: ProgressOptions): Promise<number> {
  const deadline = options.since + options.timeoutMs;
  let nextPrint = performance.now() + 10_000;
  for (;;) {
    options.check?.();
    const now = performance.now();
    const done = count();
    if (done >= options.target) return now;
    if (now > deadline) {
      throw new Error(
        `${options.what}: ${done}/${options.target} after ${Math.round(options.timeoutMs / 1000)} s`,
      );
    }
    if (now >= nextPrint) {
      options.print(`${options.what}: ${done}/${options.target} after ${secondsSince(options.since)} s`);
      nextPrint = now + 10_000;
    }
    await sleep(250);
  }
}

/** Namespaces whose quota the quota controller enforces, as the operator waits for them (operator/apply.ts). */
export interface QuotaEnforcement {
  /** Resolves once every quota seen in the namespace enforces what its spec sets. */
  enforced(namespace: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Every ResourceQuota, watched as the operator watches them (status.hard only), so the PerTenant
 * baseline makes a tenant's Deployment and ConfigMap once its quota is enforced, as landlord does:
 * the API server enforces only what a quota's status.hard says.
 */
export async function watchQuotaEnforcement(api: KubeApi): Promise<QuotaEnforcement> {
  const enforced = new Set<string>();
  const waiting = new Map<string, () => void>();
  const informer = new Informer<V1ResourceQuota>(api, {
    path: '/api/v1/resourcequotas',
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    keepOfStatus: readOfQuotaStatus,
    logger,
  });
  const seen = (quota: V1ResourceQuota): void => {
    const namespace = quota.metadata?.namespace ?? '';
    if (unenforcedResources(quota).length > 0 || enforced.has(namespace)) return;
    enforced.add(namespace);
    waiting.get(namespace)?.();
    waiting.delete(namespace);
  };
  informer.on('add', seen);
  informer.on('update', seen);
  await informer.start();
  return {
    enforced: (namespace) =>
      enforced.has(namespace) ? Promise.resolve() : new Promise((resolve) => waiting.set(namespace, resolve)),
    stop: () => informer.stop(),
  };
}
