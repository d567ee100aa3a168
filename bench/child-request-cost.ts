// What the API server spends, in CPU, to make a PerTenant tenant's children one way or another: a
// server-side apply that creates (what the operator did until issue 38) against a POST (what it does
// now), wave by wave as the operator writes them, and what the first change of each costs after:
// an apply, or, for a child created by POST, the read and the patch that hand the create's fields
// to the operator's Apply entry (runtime/kube/field-ownership.ts), then the apply. Two sets of N
// tenants in one fresh control plane, their phases interleaved so that a machine growing busier
// weighs on both alike; kube-apiserver's CPU is read from /proc around each phase.
//
//   npm run build && scripts/node24 dist/bench/child-request-cost.js [N]
import type { KubernetesObject } from '@kubernetes/client-node';
import { API_VERSION, FIELD_MANAGER, KIND, type Tenant } from '../api/tenant.js';
import { CONTENT_TYPE, type KubeApi } from '../runtime/kube/api.js';
import { foldedIntoApply } from '../runtime/kube/field-ownership.js';
import { apiPath } from '../runtime/kube/paths.js';
import type { BenchCluster } from './cluster.js';
import { measurePhase, runRequestCostTool, type PhaseCost } from './measure/request-cost.js';
import { runPool } from './pool.js';
import { configMap, deployment } from './rows.js';
import { benchPolicy, perTenantWaves } from './tenancy.js';

const WAVES = ['the Namespace', 'its fences (5 objects)', 'the Deployment and ConfigMap'];

type Way = 'apply' | 'post';

const pathOf = (o: KubernetesObject, named: boolean): string =>
  apiPath({
    apiVersion: o.apiVersion!,
    kind: o.kind!,
    namespace: o.metadata?.namespace,
    ...(named ? { name: o.metadata?.name } : {}),
  });

/** Creates the object the way the operator did (an apply naming a version no object has) or does now. */
function create(api: KubeApi, way: Way, o: KubernetesObject): Promise<KubernetesObject> {
  if (way === 'post') {
    return api.request<KubernetesObject>({
      method: 'POST',
      path: pathOf(o, false),
      query: { fieldManager: FIELD_MANAGER.operator },
      body: o,
    });
  }
  return api.request<KubernetesObject>({
    method: 'PATCH',
    path: pathOf(o, true),
    query: { fieldManager: FIELD_MANAGER.operator, force: true },
    contentType: CONTENT_TYPE.apply,
    body: { ...o, metadata: { ...o.metadata, resourceVersion: '1' } },
  });
}

/**
 * The first change of a ConfigMap after its create, as the operator makes it (apply.ts): its uid
 * comes from the cache; only a child created by POST is read, for its managedFields.
 */
async function firstChange(api: KubeApi, way: Way, cm: KubernetesObject, uid: string): Promise<void> {
  const path = pathOf(cm, true);
  if (way === 'post') {
    const live = await api.request<KubernetesObject>({ method: 'GET', path });
    const folded = foldedIntoApply(live.metadata?.managedFields ?? [], FIELD_MANAGER.operator);
    await api.request({
      method: 'PATCH',
      path,
      query: { fieldManager: FIELD_MANAGER.operator },
      contentType: CONTENT_TYPE.jsonPatch,
      body: [
        { op: 'test', path: '/metadata/resourceVersion', value: live.metadata?.resourceVersion },
        { op: 'replace', path: '/metadata/managedFields', value: folded },
      ],
    });
  }
  const edited = { ...cm, metadata: { ...cm.metadata, uid }, data: { edited: 'yes' } };
  await api.request({
    method: 'PATCH',
    path,
    query: { fieldManager: FIELD_MANAGER.operator, force: true },
    contentType: CONTENT_TYPE.apply,
    body: edited,
  });
}

/** Each way's tenants, made by POST before anything is measured: their children need an owner. */
async function tenants(api: KubeApi, way: Way, n: number): Promise<KubernetesObject[][][]> {
  const policy = benchPolicy({ expose: false, secrets: false });
  const waves: KubernetesObject[][][] = [];
  await runPool(n, 16, async (i) => {
    const name = `${way === 'post' ? 'p' : 'a'}-${String(i).padStart(5, '0')}`;
    const body: Tenant = {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: { name },
      spec: { deployment: deployment(name, 'nginx:1.27', 0), configMaps: [configMap(name)] },
    };
    const tenant = await api.request<Tenant>({
      method: 'POST',
      path: apiPath({ apiVersion: API_VERSION, kind: KIND }),
      body,
    });
    waves[i] = perTenantWaves(tenant, policy, { replicas: 0, services: 1 });
  });
  return waves;
}

async function measure(bench: BenchCluster, n: number): Promise<PhaseCost[]> {
  const byWay = { apply: await tenants(bench.api, 'apply', n), post: await tenants(bench.api, 'post', n) };
  const costs: PhaseCost[] = [];
  const uids = new Map<string, string>();
  const made = async (way: Way, o: KubernetesObject): Promise<void> => {
    const object = await create(bench.api, way, o);
    uids.set(pathOf(object, true), object.metadata?.uid ?? '');
  };
  for (let w = 0; w < WAVES.length; w++) {
    // Alternated, so neither way always runs second on a machine that heats up.
    const order: Way[] = w % 2 === 0 ? ['apply', 'post'] : ['post', 'apply'];
    for (const way of order) {
      const objects = (i: number): KubernetesObject[] => byWay[way][i]![w]!;
      costs.push(
        await measurePhase(`${way === 'post' ? 'POST' : 'apply-create'}: ${WAVES[w]}`, n, (i) =>
          Promise.all(objects(i).map((o) => made(way, o))),
        ),
      );
    }
  }
  for (const way of ['apply', 'post'] as const) {
    const cm = (i: number): KubernetesObject => byWay[way][i]![2]!.find((o) => o.kind === 'ConfigMap')!;
    const label = way === 'post' ? 'GET, hand-over patch, apply' : 'apply';
    costs.push(
      await measurePhase(`first change of the ConfigMap: ${label}`, n, (i) =>
        firstChange(bench.api, way, cm(i), uids.get(pathOf(cm(i), true)) ?? ''),
      ),
    );
  }
  return costs;
}

await runRequestCostTool({ name: 'child-request-cost', unit: 'tenant', defaultN: 2000, measure });
