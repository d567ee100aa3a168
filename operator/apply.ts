// Server-side apply of the children that drifted from their desired manifests (force, as
// landlord-operator). Nothing is written for a child that already matches; what the server
// normalises (a quantity "0.5" stored as "500m") is remembered so it is not mistaken for drift.
import type { KubernetesObject } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../api/tenant.js';
import { ApiError, CONTENT_TYPE, type KubeApi } from '../runtime/kube/api.js';
import { apiPath } from '../runtime/kube/paths.js';
import { describeRef, errorText, type ChildChange, type ChildRef } from './child-ref.js';
import { SPEC_HASH_ANNOTATION, type DesiredChild } from './desired.js';
import { isSubset, project } from './drift.js';
import { retryable, stall } from './reconcile-error.js';
import { REASON } from './reasons.js';

/** Bounds the cache: memory must not grow with the number of edits. */
const MAX_NORMALIZED = 50_000;

export interface Applied {
  /** Each desired child's freshest copy, in the spec's order: the apply response, or the live object. */
  objects: KubernetesObject[];
  /** In the spec's order, not the order the applies finished, so Events and logs read the same every time. */
  changes: ChildChange[];
}

export class Applier {
  /** Desired manifests as the server spelled them after applying, by manifest hash. */
  private readonly normalized = new Map<string, unknown>();

  constructor(private readonly api: KubeApi) {}

  /** Applies, at once, every child that is absent or differs from its desired manifest. */
  async applyDrifted(
    desired: readonly DesiredChild[],
    live: readonly (KubernetesObject | undefined)[],
  ): Promise<Applied> {
    const outcomes = await Promise.all(
      desired.map(async (child, i) => {
        const current = live[i];
        if (current !== undefined && !this.needsApply(child, current)) return { object: current };
        const change: ChildChange = { action: current === undefined ? 'created' : 'updated', ref: child.ref };
        return { object: await this.apply(child), change };
      }),
    );
    return {
      objects: outcomes.map((o) => o.object),
      changes: outcomes.flatMap((o) => (o.change === undefined ? [] : [o.change])),
    };
  }

  private needsApply(child: DesiredChild, live: KubernetesObject): boolean {
    return drifted(child, live, this.normalized.get(child.hash));
  }

  private async apply(child: DesiredChild): Promise<KubernetesObject> {
    const manifest = { apiVersion: child.ref.apiVersion, kind: child.ref.kind, ...child.manifest };
    try {
      const result = await this.api.request<KubernetesObject>({
        method: 'PATCH',
        path: apiPath(child.ref),
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
    if (this.normalized.size >= MAX_NORMALIZED) this.normalized.delete(this.normalized.keys().next().value!);
    this.normalized.set(hash, normalized);
  }
}

/**
 * The live child no longer matches its desired manifest: another spec's hash, or a field landlord
 * sets holds another value. `normalized` is the manifest as the server spelled it when applied.
 */
export function drifted(child: DesiredChild, live: KubernetesObject, normalized?: unknown): boolean {
  if (live.metadata?.annotations?.[SPEC_HASH_ANNOTATION] !== child.hash) return true;
  return !isSubset(normalized ?? child.manifest, live);
}

/** A refusal by the API server (invalid, immutable field) stalls; anything else is retried. */
function applyError(ref: ChildRef, err: unknown): Error {
  const text = `applying ${describeRef(ref)}: ${errorText(err)}`;
  if (err instanceof ApiError && (err.status === 422 || err.status === 400))
    return stall(REASON.applyFailed, text);
  if (err instanceof ApiError && err.status === 404) {
    return retryable(REASON.applyFailed, `${text} (does namespace ${ref.namespace} exist?)`);
  }
  return retryable(REASON.applyFailed, text);
}
