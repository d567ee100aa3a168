// `landlord migrate-storage`: rewrites every Tenant and TenantClass once, so each is stored under
// the CRD's storage version (v1beta1), then trims the older versions from the CRD's
// status.storedVersions, after which a later release may stop serving them (ADR 0011). The
// rewrite is Kubernetes' storage-version migration: a patch that changes nothing, which the API
// server stores only when the stored bytes differ, so an object already stored under v1beta1 is not
// written at all, and no run changes a spec, a generation or a child. Idempotent; paced.
import type { KubernetesObject, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { CRD_NAME, GROUP, KIND, VERSION } from '../../api/tenant.js';
import { CLASS_CRD_NAME, CLASS_KIND } from '../../api/tenantclass.js';
import { ApiError, CONTENT_TYPE, isNotFound, KubeApi } from '../../runtime/kube/api.js';
import { listAll } from '../../runtime/kube/list.js';
import { apiPath } from '../../runtime/kube/paths.js';
import { storedVersions } from './stored-versions.js';

/** The CRDs whose objects are migrated, with the kind each holds. */
const MIGRATED = [
  { crd: CRD_NAME, kind: KIND },
  { crd: CLASS_CRD_NAME, kind: CLASS_KIND },
] as const;

const API_VERSION = `${GROUP}/${VERSION}`;
const FIELD_MANAGER = 'landlord-migrate-storage';

export interface MigrateOptions {
  /** Objects rewritten per second at most: the API server's and etcd's pace, not the CLI's. */
  rate: number;
  /** One line per step, for the person running it. */
  say: (line: string) => void;
}

export interface Migrated {
  crd: string;
  /** Objects read. */
  objects: number;
  /** Objects the patch stored anew (their resourceVersion changed): they were under an older version. */
  rewritten: number;
  /** status.storedVersions when done. */
  storedVersions: string[];
}

const crdPath = (name: string, subresource?: string): string =>
  apiPath({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name, subresource });

/** Migrates each CRD in turn; the kubeconfig is found as kubectl finds it. */
export async function migrateStorage(options: MigrateOptions): Promise<Migrated[]> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  const api = new KubeApi(kubeConfig);
  const results: Migrated[] = [];
  for (const target of MIGRATED) results.push(await migrateOne(api, target, options));
  return results;
}

async function readCrd(api: KubeApi, name: string): Promise<V1CustomResourceDefinition> {
  return api.request<V1CustomResourceDefinition>({ method: 'GET', path: crdPath(name) });
}

/** The CRD's storage version and the older ones, refusing a CRD that does not store this release's. */
async function staleVersions(
  api: KubeApi,
  name: string,
): Promise<{ stale: string[]; crd: V1CustomResourceDefinition }> {
  const crd = await readCrd(api, name);
  const versions = storedVersions(crd);
  if (versions?.storage !== VERSION)
    throw new Error(
      `${name} stores ${versions?.storage ?? 'no version'}, not ${VERSION}: apply this release's CRDs first (docs/deploying.md, Upgrading)`,
    );
  return { stale: versions.stale, crd };
}

async function migrateOne(
  api: KubeApi,
  target: (typeof MIGRATED)[number],
  { rate, say }: MigrateOptions,
): Promise<Migrated> {
  const first = await staleVersions(api, target.crd);
  if (first.stale.length === 0) {
    say(`${target.crd}: stored as ${VERSION} only; nothing to migrate`);
    return { crd: target.crd, objects: 0, rewritten: 0, storedVersions: [VERSION] };
  }
  say(
    `${target.crd}: stored as ${[...first.stale, VERSION].join(', ')}; rewriting every object as ${VERSION}`,
  );
  const kind = { apiVersion: API_VERSION, kind: target.kind };
  const { items } = await listAll<KubernetesObject>(api, {
    path: apiPath(kind),
    ...kind,
    metadataOnly: true,
  });
  let rewritten = 0;
  for (const item of items) {
    if (await rewrite(api, kind, item)) rewritten++;
    await sleep(1000 / rate);
  }
  const done = await trimStoredVersions(api, target.crd);
  say(`${target.crd}: ${items.length} objects, ${rewritten} rewritten; storedVersions [${done.join(', ')}]`);
  return { crd: target.crd, objects: items.length, rewritten, storedVersions: done };
}

/**
 * Stores the object again under the storage version. A conflict means it was written meanwhile,
 * which stored it under the storage version too; gone means there is nothing to migrate.
 */
async function rewrite(
  api: KubeApi,
  kind: { apiVersion: string; kind: string },
  item: KubernetesObject,
): Promise<boolean> {
  const { name, resourceVersion } = item.metadata ?? {};
  try {
    const written = await api.request<KubernetesObject>({
      method: 'PATCH',
      path: apiPath({ ...kind, name }),
      query: { fieldManager: FIELD_MANAGER },
      contentType: CONTENT_TYPE.merge,
      body: { metadata: { resourceVersion } },
    });
    return written.metadata?.resourceVersion !== resourceVersion;
  } catch (err) {
    if (isNotFound(err) || (err instanceof ApiError && err.status === 409)) return false;
    throw err;
  }
}

/**
 * Leaves only the storage version in status.storedVersions, once every object is stored under
 * it. Read again first: a CRD whose storage version changed meanwhile keeps its list.
 */
async function trimStoredVersions(api: KubeApi, name: string): Promise<string[]> {
  const { crd } = await staleVersions(api, name);
  await api.request({
    method: 'PATCH',
    path: crdPath(name, 'status'),
    contentType: CONTENT_TYPE.merge,
    body: {
      metadata: { resourceVersion: crd.metadata?.resourceVersion },
      status: { storedVersions: [VERSION] },
    },
  });
  return [VERSION];
}
