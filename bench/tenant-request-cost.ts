// What the API server spends, in CPU, on each request landlord makes to a Tenant during a tenant's
// first convergence and an edit, made by the same code that makes them in sync and the operator.
// The cold convergence's CPU table (bench/cpu-table.ts) says the API server is what bounds a run
// on this machine; this says which of landlord's Tenant requests it spends that CPU on, one kind
// at a time, so that a change to the CRD or to what a write carries can be measured in isolation.
// Each phase makes N requests, 16 at a time, against one fresh control plane, and reads
// kube-apiserver's CPU from /proc before and after.
//
//   npm run build && scripts/node24 dist/bench/tenant-request-cost.js [N] [--production]
//
// --production writes each Tenant with a Deployment shaped as production rows write it
// (bench/rows.ts productionDeployment) instead of the bench's minimal one; the tool also prints
// the size of the last Tenant and of its managedFields, which is what a Tenant write's cost follows.
import type { V1Deployment } from '@kubernetes/client-node';
import { API_VERSION, FIELD_MANAGER, KIND, type Tenant, type TenantSpec } from '../api/tenant.js';
import { computeStatus, type OperatorStatus } from '../operator/status.js';
import { unchanged } from '../operator/status-change.js';
import { apiPath } from '../runtime/kube/paths.js';
import { TenantStatusWriter } from '../runtime/kube/tenant-status-writer.js';
import { createMetrics } from '../runtime/metrics.js';
import { tableIdentity } from '../sync/identity.js';
import { desiredStatus, statusCurrent, type OwnedStatus } from '../sync/status.js';
import { TenantWriter } from '../sync/tenant-writer.js';
import type { BenchCluster } from './cluster.js';
import { measurePhase, runRequestCostTool, type PhaseCost } from './measure/request-cost.js';
import {
  BENCH_NAMESPACE,
  configMap,
  deployment,
  deploymentName,
  productionDeployment,
  tenantName,
} from './rows.js';

const TABLE = 'landlord-bench';

type Manifest = (name: string, image?: string) => V1Deployment;

/** A tenant's spec: its Deployment (the bench's minimal one, or a production-shaped one) and ConfigMap. */
const specOf =
  (manifest: Manifest) =>
  (name: string, image?: string): TenantSpec => ({
    deployment: manifest(name, image),
    configMaps: [configMap(name)],
  });

/** The Deployment of a tenant whose rollout is done, as the operator reads it from its cache. */
function availableDeployment(name: string): V1Deployment {
  const now = new Date();
  const condition = { status: 'True', lastTransitionTime: now, lastUpdateTime: now };
  return {
    ...deployment(name),
    status: {
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      updatedReplicas: 1,
      observedGeneration: 1,
      conditions: [
        { ...condition, type: 'Available', reason: 'MinimumReplicasAvailable' },
        { ...condition, type: 'Progressing', reason: 'NewReplicaSetAvailable' },
      ],
    },
  };
}

/**
 * The requests of one tenant's life, in the order it makes them, each as one phase over N Tenants.
 * Each starts from the Tenant the previous one returned, as sync and the operator start from their
 * caches, so no phase pays for a read it would not make.
 */
function phases(
  bench: BenchCluster,
  spec: ReturnType<typeof specOf>,
): [string, (name: string) => Promise<unknown>][] {
  const writer = new TenantWriter(bench.api, tableIdentity(TABLE), createMetrics('bench'));
  const latest = new Map<string, Tenant>();
  const kept = async (name: string, written: Promise<Tenant | undefined>): Promise<void> => {
    const tenant = await written;
    if (tenant !== undefined) latest.set(name, tenant);
  };
  // Each keeps the Tenant its write returned, as the components' Tenant caches do.
  const cache = { wrote: (tenant: Tenant) => void latest.set(tenant.metadata.name!, tenant) };
  const status = new TenantStatusWriter<OperatorStatus>(bench.api, cache, {
    fieldManager: FIELD_MANAGER.operator,
    current: unchanged,
  });
  const syncStatus = new TenantStatusWriter<OwnedStatus>(bench.api, cache, {
    fieldManager: FIELD_MANAGER.sync,
    current: statusCurrent,
  });
  const cached = (name: string): Tenant => latest.get(name)!;
  const operatorStatus = (tenant: Tenant): ReturnType<typeof computeStatus> =>
    computeStatus({
      tenant,
      error: undefined,
      deployment: availableDeployment(tenant.metadata.name!),
      deploymentName: `${BENCH_NAMESPACE}/${deploymentName(tenant.metadata.name!)}`,
      configMaps: [`${BENCH_NAMESPACE}/${configMap(tenant.metadata.name!).metadata!.name!}`],
      now: new Date(),
      state: 'active',
      paused: false,
    });
  const synced = (hash: string, tenant: Tenant): ReturnType<typeof desiredStatus> =>
    desiredStatus({ kind: 'synced', hash }, tenant, TABLE, new Date());
  const post = (name: string): Promise<unknown> =>
    bench.api.request({
      method: 'POST',
      path: apiPath({ apiVersion: API_VERSION, kind: KIND }),
      body: { apiVersion: API_VERSION, kind: KIND, metadata: { name: `${name}-post` }, spec: spec(name) },
    });
  return [
    ['the baseline: POST a Tenant', post],
    ['sync: create a new Tenant (POST)', (name) => kept(name, writer.create(name, spec(name), 'hash-1'))],
    [
      'sync: apply its Synced status',
      (name) => kept(name, syncStatus.apply(name, synced('hash-1', cached(name)))),
    ],
    [
      'operator: apply the status of a Ready tenant',
      (name) => kept(name, status.write(cached(name), operatorStatus(cached(name)))),
    ],
    [
      'sync: an edited row (first: read, hand-over patch, apply)',
      (name) => kept(name, writer.apply(name, spec(name, 'nginx:1.28'), 'hash-2', cached(name))),
    ],
    [
      'sync: apply its Synced status again',
      (name) => kept(name, syncStatus.apply(name, synced('hash-2', cached(name)))),
    ],
    [
      'GET a Tenant (for scale)',
      (name) =>
        bench.api.request({ method: 'GET', path: apiPath({ apiVersion: API_VERSION, kind: KIND, name }) }),
    ],
  ];
}

/** The size in bytes of the JSON of the last Tenant, and of its managedFields, on stderr. */
async function reportSize(bench: BenchCluster, n: number): Promise<void> {
  const path = apiPath({ apiVersion: API_VERSION, kind: KIND, name: tenantName(n - 1) });
  const tenant = await bench.api.request<Tenant>({ method: 'GET', path });
  const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value ?? null));
  console.error(
    `a Tenant: ${bytes(tenant)} bytes, ${bytes(tenant.metadata.managedFields)} of them managedFields`,
  );
}

async function measure(bench: BenchCluster, n: number, flags: Record<string, boolean>): Promise<PhaseCost[]> {
  const costs: PhaseCost[] = [];
  const spec = specOf(flags.production === true ? productionDeployment : deployment);
  for (const [phase, request] of phases(bench, spec)) {
    costs.push(await measurePhase(phase, n, (i) => request(tenantName(i))));
  }
  await reportSize(bench, n);
  return costs;
}

await runRequestCostTool({
  name: 'tenant-request-cost',
  unit: 'Tenant',
  defaultN: 3000,
  flags: { production: "each Tenant's Deployment shaped as production rows write it" },
  measure,
});
