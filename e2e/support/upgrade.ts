// What an upgrade did to the objects a tenant has, seen from watches opened before it began: each
// object's writes (a change beyond what controllers report in status), deletions and creations, the
// Tenants' Ready condition at every event, and the pods' uids and template hashes. The upgrade test
// (e2e/upgrade.test.ts) reads its figures from here.
import type { KubernetesObject } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import { CONDITION, type Tenant } from '../../api/tenant.js';
import { KubeApi } from '../../runtime/kube/api.js';
import { kubeConfig } from './env.js';

/** Every kind a tenant has, or that holds one of its parts, by its cluster-wide collection. */
export const WATCHED: readonly { kind: string; path: string }[] = [
  { kind: 'Tenant', path: '/apis/landlord.dev/v1alpha1/tenants' },
  { kind: 'TenantClass', path: '/apis/landlord.dev/v1alpha1/tenantclasses' },
  { kind: 'Namespace', path: '/api/v1/namespaces' },
  { kind: 'Deployment', path: '/apis/apps/v1/deployments' },
  { kind: 'ReplicaSet', path: '/apis/apps/v1/replicasets' },
  { kind: 'Pod', path: '/api/v1/pods' },
  { kind: 'ConfigMap', path: '/api/v1/configmaps' },
  { kind: 'Secret', path: '/api/v1/secrets' },
  { kind: 'Service', path: '/api/v1/services' },
  { kind: 'ServiceAccount', path: '/api/v1/serviceaccounts' },
  { kind: 'ResourceQuota', path: '/api/v1/resourcequotas' },
  { kind: 'LimitRange', path: '/api/v1/limitranges' },
  { kind: 'NetworkPolicy', path: '/apis/networking.k8s.io/v1/networkpolicies' },
  { kind: 'Ingress', path: '/apis/networking.k8s.io/v1/ingresses' },
  { kind: 'RoleBinding', path: '/apis/rbac.authorization.k8s.io/v1/rolebindings' },
  { kind: 'ControllerRevision', path: '/apis/apps/v1/controllerrevisions' },
];

/** How long a recorder watch may send nothing before it is ended: longer than any phase of the test. */
const WATCH_INACTIVITY_MS = 10 * 60_000;

/** Kinds whose status controllers rewrite as they please: a status-only change is not a write. */
const CONTROLLER_STATUS = new Set(['Deployment', 'ReplicaSet', 'Pod', 'Namespace', 'ResourceQuota']);

export interface Write {
  at: number;
  key: string;
  /** The fields that changed, as dotted paths (managedFields entries by manager). */
  fields: string[];
}

export interface UpgradeRecord {
  writes: Write[];
  deleted: string[];
  created: string[];
  /** "Tenant name: status reason" for every event that showed a Tenant not Ready. */
  notReady: string[];
  /** When the last event in scope arrived (writes or not): the end of the churn. */
  lastEventAt: number;
}

type Obj = KubernetesObject & { status?: unknown };

const keyOf = (kind: string, obj: Obj): string =>
  `${kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/** A managedFields entry named by who wrote it, how, and to which part. */
function entryName(entry: { manager?: string; operation?: string; subresource?: string }): string {
  return `${entry.manager ?? '?'}/${entry.operation ?? '?'}${entry.subresource ? `/${entry.subresource}` : ''}`;
}

/**
 * The object without what says only that it was written (resourceVersion), its managedFields by
 * field manager, and without kind and apiVersion (a list's items lack them, a watch's objects not).
 */
function comparable(obj: Obj, withStatus: boolean): Record<string, unknown> {
  const { managedFields, ...metadata } = obj.metadata ?? {};
  delete metadata.resourceVersion;
  const entries = (managedFields ?? [])
    .filter((e) => withStatus || e.subresource !== 'status')
    .map((e) => [entryName(e), e] as const);
  const copy: Record<string, unknown> = {
    ...obj,
    metadata: { ...metadata, managedFields: Object.fromEntries(entries) },
  };
  delete copy.kind;
  delete copy.apiVersion;
  if (!withStatus) delete copy.status;
  return copy;
}

/** Dotted paths at which two JSON values differ (objects descended, arrays compared whole). */
function changedPaths(a: unknown, b: unknown, path = ''): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(a) || !isObject(b)) return isDeepStrictEqual(a, b) ? [] : [path || '(root)'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => changedPaths(a[k], b[k], path === '' ? k : `${path}.${k}`));
}

/** The fields a MODIFIED event changed, none when only controllers' status moved. */
function writtenFields(kind: string, before: Obj, after: Obj): string[] {
  const withStatus = !CONTROLLER_STATUS.has(kind);
  return changedPaths(comparable(before, withStatus), comparable(after, withStatus));
}

function notReadyReason(tenant: Tenant): string | undefined {
  const ready = tenant.status?.conditions?.find((c) => c.type === CONDITION.ready);
  if (ready?.status === 'True') return undefined;
  return `${tenant.metadata.name}: ${ready?.status ?? 'no Ready'} ${ready?.reason ?? ''}`.trim();
}

export interface Recorder {
  /** Live: grows as events arrive. */
  readonly record: UpgradeRecord;
  /** How many objects in scope exist now, by kind. */
  objects(): Map<string, number>;
  /** Forgets what was recorded so far (what came before the upgrade), keeping the watches. */
  reset(): void;
  stop(): UpgradeRecord;
}

interface Collection {
  items: Obj[];
  metadata?: { resourceVersion?: string };
}

/**
 * Starts watching every kind in WATCHED, counting only objects `inScope` says are this test's.
 * The lists and watches are open when it resolves: whatever is written after is seen.
 */
export async function recordUpgrade(inScope: (kind: string, obj: Obj) => boolean): Promise<Recorder> {
  const api = new KubeApi(kubeConfig());
  const record: UpgradeRecord = {
    writes: [],
    deleted: [],
    created: [],
    notReady: [],
    lastEventAt: Date.now(),
  };
  const last = new Map<string, Obj>();
  const controllers: AbortController[] = [];
  let stopped = false;
  const onEvent = (kind: string, phase: string, obj: Obj): void => {
    if (!inScope(kind, obj)) return;
    const key = keyOf(kind, obj);
    record.lastEventAt = Date.now();
    if (kind === 'Tenant') {
      const reason = notReadyReason(obj as Tenant);
      if (reason !== undefined) record.notReady.push(reason);
    }
    if (phase === 'DELETED') record.deleted.push(key);
    if (phase === 'ADDED') record.created.push(key);
    const before = last.get(key);
    if (phase === 'MODIFIED' && before !== undefined) {
      const fields = writtenFields(kind, before, obj);
      if (fields.length > 0) record.writes.push({ at: Date.now(), key, fields });
    }
    if (phase === 'DELETED') last.delete(key);
    else last.set(key, obj);
  };
  for (const { kind, path } of WATCHED) {
    const list = await api.request<Collection>({ method: 'GET', path });
    for (const item of list.items) if (inScope(kind, item)) last.set(keyOf(kind, item), item);
    const resourceVersion = list.metadata?.resourceVersion ?? '';
    // The runtime's own watch, which takes how long it may stay silent: a kind nobody writes is
    // silent for the whole phase, which outlasts client-node's fixed 30 s once a rollout is paced.
    const controller = await api.watch({
      path,
      query: { resourceVersion, allowWatchBookmarks: false },
      onEvent: (event) => onEvent(kind, event.type, event.object as Obj),
      done: (err: unknown) => {
        if (err !== null && err !== undefined && !stopped)
          record.notReady.push(
            `watch of ${kind} ended: ${err instanceof Error ? err.message : JSON.stringify(err)}`,
          );
      },
      idleMs: WATCH_INACTIVITY_MS,
    });
    controllers.push(controller);
  }
  return {
    record,
    objects: () => {
      const byKind = new Map<string, number>();
      for (const key of last.keys()) byKind.set(kindOfKey(key), (byKind.get(kindOfKey(key)) ?? 0) + 1);
      return byKind;
    },
    reset: () => {
      for (const list of [record.writes, record.deleted, record.created, record.notReady]) list.length = 0;
    },
    stop: () => {
      stopped = true;
      controllers.forEach((c) => c.abort());
      return record;
    },
  };
}

/** Writes per object, by kind: how many objects saw 0, 1, 2… writes. */
export function writesPerObject(writes: readonly Write[]): Map<string, number> {
  const perObject = new Map<string, number>();
  for (const w of writes) perObject.set(w.key, (perObject.get(w.key) ?? 0) + 1);
  return perObject;
}

/** The kind part of a key made by this module. */
export const kindOfKey = (key: string): string => key.slice(0, key.indexOf('/'));
