// Server-side apply of the children that drifted from their desired manifests (force, as
// landlord-operator). Nothing is written for a child that already matches; what the server
// normalises (a quantity "0.5" stored as "500m") is remembered so it is not mistaken for drift.
import type { KubernetesObject } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../api/tenant.js';
import { ApiError, CONTENT_TYPE, type KubeApi } from '../runtime/kube/api.js';
import { apiPath } from '../runtime/kube/paths.js';
import {
  childKey,
  describeRef,
  errorText,
  TENANCY_KINDS,
  WORKLOAD_KINDS,
  type ChildChange,
  type ChildKind,
  type ChildRef,
} from './child-ref.js';
import { SPEC_HASH_ANNOTATION, type DesiredChild } from './desired.js';
import { isSubset, project } from './drift.js';
import { retryable, stall } from './reconcile-error.js';
import { REASON } from './reasons.js';

/** A desired manifest as the server spelled it after applying, for the hash it was applied at. */
interface Normalized {
  hash: string;
  manifest: unknown;
}

/** The order of applying, by kind; every kind is in one wave. */
export const APPLY_WAVES: readonly (readonly ChildKind[])[] = [
  ['Namespace'],
  TENANCY_KINDS.filter((kind) => kind !== 'Namespace'),
  WORKLOAD_KINDS,
];

interface Outcome {
  object: KubernetesObject;
  change?: ChildChange;
}

export interface Applied {
  /** Each desired child's freshest copy, in the spec's order: the apply response, or the live object. */
  objects: KubernetesObject[];
  /** In the spec's order, not the order the applies finished, so Events and logs read the same every time. */
  changes: ChildChange[];
}

export class Applier {
  /**
   * tenant → child key → its normalized manifest: one entry per child, replaced when an edit
   * changes its hash, dropped when the spec stops naming it or the Tenant goes. Memory follows the
   * Tenants and children there are, never the number of edits (a 300 KB row edited a thousand
   * times holds one copy, not a thousand).
   */
  private readonly normalized = new Map<string, Map<string, Normalized>>();

  constructor(private readonly api: KubeApi) {}

  /**
   * Applies every child that is absent or differs from its desired manifest, wave by wave (each at
   * once): a PerTenant tenant's Namespace, then what fences it in, then the Deployment and
   * ConfigMaps. A pod created before the quota or the LimitRange would escape them.
   */
  async applyDrifted(
    tenant: string,
    desired: readonly DesiredChild[],
    live: readonly (KubernetesObject | undefined)[],
  ): Promise<Applied> {
    const known = this.keep(tenant, desired);
    const outcomes: Outcome[] = [];
    for (const wave of APPLY_WAVES) {
      await Promise.all(
        desired.map(async (child, i) => {
          if (!wave.includes(child.ref.kind)) return;
          outcomes[i] = await this.applyIfDrifted(child, live[i], known);
        }),
      );
    }
    return {
      objects: outcomes.map((o) => o.object),
      changes: outcomes.flatMap((o) => (o.change === undefined ? [] : [o.change])),
    };
  }

  private async applyIfDrifted(
    child: DesiredChild,
    current: KubernetesObject | undefined,
    known: Map<string, Normalized>,
  ): Promise<Outcome> {
    if (current !== undefined && !drifted(child, current, known.get(childKey(child.ref))?.manifest))
      return { object: current };
    const change: ChildChange = { action: current === undefined ? 'created' : 'updated', ref: child.ref };
    return { object: await this.apply(child, known), change };
  }

  /** The Tenant's entries still current: for children the spec names, at the hash it names them. */
  private keep(tenant: string, desired: readonly DesiredChild[]): Map<string, Normalized> {
    const before = this.normalized.get(tenant);
    const kept = new Map<string, Normalized>();
    for (const child of desired) {
      const key = childKey(child.ref);
      const entry = before?.get(key);
      if (entry?.hash === child.hash) kept.set(key, entry);
    }
    this.normalized.set(tenant, kept);
    return kept;
  }

  /** The Tenant is gone: so is what was remembered of its children. */
  forget(tenant: string): void {
    this.normalized.delete(tenant);
  }

  /** Number of children with a normalized manifest remembered (for tests). */
  get remembered(): number {
    let count = 0;
    for (const children of this.normalized.values()) count += children.size;
    return count;
  }

  private async apply(child: DesiredChild, known: Map<string, Normalized>): Promise<KubernetesObject> {
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
      if (!isSubset(child.manifest, result))
        known.set(childKey(child.ref), { hash: child.hash, manifest: project(child.manifest, result) });
      return result;
    } catch (err) {
      throw applyError(child.ref, err);
    }
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
