// Making a Tenant's children match its spec: check that landlord may own each one, apply those that
// drifted (server-side apply, force, landlord-operator), and delete owned children the spec no
// longer names. Nothing is written for a child that already matches.
import type { KubernetesObject, V1Deployment, V1OwnerReference } from '@kubernetes/client-node';
import { ApiError, CONTENT_TYPE, isNotFound, type KubeApi } from '../runtime/kube/api.js';
import { apiPath } from '../runtime/kube/paths.js';
import { KeyedLock } from '../util/keyed-lock.js';
import { FIELD_MANAGER, KIND, type Tenant } from '../api/tenant.js';
import { SPEC_HASH_ANNOTATION, type DesiredChild } from './desired.js';
import { isSubset, project } from './drift.js';
import { retryable, stall } from './reconcile-error.js';
import { childKey, type ChildRef, type ObservedState } from './observed.js';
import { REASON } from './reasons.js';

export interface ChildChange {
  action: 'created' | 'updated' | 'pruned';
  ref: ChildRef;
}

export interface Converged {
  changes: ChildChange[];
  /** The freshest copy of the Deployment: the apply response when it was just applied. */
  deployment: V1Deployment | undefined;
}

const describeRef = (ref: ChildRef): string => `${ref.kind} ${ref.namespace}/${ref.name}`;

function controllerOf(obj: KubernetesObject): V1OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((o) => o.controller === true);
}

export class Converger {
  /** Desired manifests as the server spelled them after applying, by manifest hash. */
  private readonly normalized = new Map<string, unknown>();
  private readonly locks = new KeyedLock();
  /** Tenants refused because another owner holds a child: child key → tenant names, woken when it goes. */
  private readonly waiting = new Map<string, Set<string>>();

  constructor(
    private readonly api: KubeApi,
    private readonly observed: ObservedState,
  ) {}

  /**
   * Two Tenants may name the same child. Reading, checking ownership and applying happen under a lock
   * per child, so the second one reads the first one's child and is refused, instead of both seeing
   * it absent and the later apply taking it over. Only the leader writes: a process lock suffices.
   */
  converge(tenant: Tenant, desired: readonly DesiredChild[]): Promise<Converged> {
    return this.locks.withKeys(
      desired.map((d) => childKey(d.ref)),
      () => this.convergeLocked(tenant, desired),
    );
  }

  private async convergeLocked(tenant: Tenant, desired: readonly DesiredChild[]): Promise<Converged> {
    const live = await Promise.all(desired.map((child) => this.liveChild(child.ref)));
    desired.forEach((child, i) => this.assertOwnable(tenant, child.ref, live[i]));
    const outcomes = await Promise.all(
      desired.map(async (child, i) => {
        if (!this.needsApply(child, live[i])) return { object: live[i] };
        const change: ChildChange = { action: live[i] === undefined ? 'created' : 'updated', ref: child.ref };
        return { object: await this.apply(child), change };
      }),
    );
    // In the spec's order (Deployment first), not the order the applies finished, so that Events
    // and logs read the same every time.
    const changes = outcomes.flatMap((o) => (o.change === undefined ? [] : [o.change]));
    changes.push(...(await this.prune(tenant, desired)));
    const applied = outcomes.map((o) => o.object);
    const deployment: V1Deployment | undefined = applied[0];
    return { changes, deployment };
  }

  /** The child from the cache; when absent there, from the API, since an unlabelled object is not cached. */
  private async liveChild(ref: ChildRef): Promise<KubernetesObject | undefined> {
    const cached = this.observed.child(ref);
    if (cached !== undefined) return cached;
    try {
      return await this.api.request<KubernetesObject>({ method: 'GET', path: apiPath(pathRef(ref)) });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw retryable(REASON.applyFailed, `reading ${describeRef(ref)}: ${message(err)}`);
    }
  }

  private assertOwnable(tenant: Tenant, ref: ChildRef, live: KubernetesObject | undefined): void {
    if (live === undefined) return;
    const owner = controllerOf(live);
    if (owner?.uid === tenant.metadata.uid) return;
    if (owner?.kind === KIND && owner.name === tenant.metadata.name) {
      throw retryable(
        REASON.conflict,
        `${describeRef(ref)} still belongs to an earlier Tenant named ${owner.name}; waiting for the garbage collector to remove it`,
      );
    }
    const waiters = this.waiting.get(childKey(ref)) ?? new Set<string>();
    this.waiting.set(childKey(ref), waiters.add(tenant.metadata.name!));
    const holder =
      owner === undefined ? 'is not managed by landlord' : `is owned by ${owner.kind} ${owner.name}`;
    throw stall(
      REASON.conflict,
      `${describeRef(ref)} already exists and ${holder}; rename the child or remove the other owner's claim`,
    );
  }

  /** The Tenants refused over this child, to look at again now that it went away. */
  takeWaiters(key: string): string[] {
    const waiters = [...(this.waiting.get(key) ?? [])];
    this.waiting.delete(key);
    return waiters;
  }

  private needsApply(child: DesiredChild, live: KubernetesObject | undefined): boolean {
    if (live === undefined) return true;
    if (live.metadata?.annotations?.[SPEC_HASH_ANNOTATION] !== child.hash) return true;
    return !isSubset(this.normalized.get(child.hash) ?? child.manifest, live);
  }

  private async apply(child: DesiredChild): Promise<KubernetesObject> {
    const manifest = { apiVersion: child.apiVersion, kind: child.ref.kind, ...child.manifest };
    try {
      const result = await this.api.request<KubernetesObject>({
        method: 'PATCH',
        path: apiPath(pathRef(child.ref)),
        query: { fieldManager: FIELD_MANAGER.operator, force: true },
        contentType: CONTENT_TYPE.apply,
        body: manifest,
        verb: 'apply',
      });
      // Most manifests come back as written; only a server normalisation is worth remembering.
      if (!isSubset(child.manifest, result)) this.remember(child.hash, project(child.manifest, result));
      return result;
    } catch (err) {
      throw applyError(child.ref, err);
    }
  }

  private remember(hash: string, normalized: unknown): void {
    if (this.normalized.size >= 50_000) this.normalized.delete(this.normalized.keys().next().value!);
    this.normalized.set(hash, normalized);
  }

  private async prune(tenant: Tenant, desired: readonly DesiredChild[]): Promise<ChildChange[]> {
    const wanted = new Set(desired.map((d) => childKey(d.ref)));
    const stale = this.observed.childrenOf(tenant.metadata.name!).filter((ref) => !wanted.has(childKey(ref)));
    const pruned: ChildChange[] = [];
    for (const ref of stale) {
      const live = this.observed.child(ref);
      const owner = live === undefined ? undefined : controllerOf(live);
      if (owner === undefined || owner.uid !== tenant.metadata.uid) continue; // labelled, but not ours: never delete it
      await this.delete(ref, owner.uid);
      pruned.push({ action: 'pruned', ref });
    }
    return pruned;
  }

  private async delete(ref: ChildRef, ownerUid: string): Promise<void> {
    const live = this.observed.child(ref);
    try {
      await this.api.request({
        method: 'DELETE',
        path: apiPath(pathRef(ref)),
        // The precondition makes sure a same-named replacement created meanwhile is never deleted.
        body: {
          kind: 'DeleteOptions',
          apiVersion: 'v1',
          preconditions: { uid: live?.metadata?.uid },
          propagationPolicy: 'Background',
        },
      });
    } catch (err) {
      if (isNotFound(err)) return;
      throw retryable(REASON.applyFailed, `pruning ${describeRef(ref)} (owner ${ownerUid}): ${message(err)}`);
    }
  }
}

function pathRef(ref: ChildRef): { apiVersion: string; kind: string; namespace: string; name: string } {
  return { apiVersion: ref.kind === 'Deployment' ? 'apps/v1' : 'v1', ...ref };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A refusal by the API server (invalid, immutable field) stalls; anything else is retried. */
function applyError(ref: ChildRef, err: unknown): Error {
  const text = `applying ${describeRef(ref)}: ${message(err)}`;
  if (err instanceof ApiError && (err.status === 422 || err.status === 400))
    return stall(REASON.applyFailed, text);
  if (err instanceof ApiError && err.status === 404) {
    return retryable(REASON.applyFailed, `${text} (does namespace ${ref.namespace} exist?)`);
  }
  return retryable(REASON.applyFailed, text);
}
