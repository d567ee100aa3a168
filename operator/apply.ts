// Writes the children that drifted from their desired manifests, as landlord-operator. Nothing is
// written for a child that already matches; what the server normalises (a quantity "0.5" stored as
// "500m") is remembered so it is not mistaken for drift.
//
// A child the cache does not hold is created by POST: the cheapest write for the API server, and
// one request without reading first (a warm pool member's by a server-side apply that only
// creates, since a claiming tenant's apply takes it over: ApplierOptions). An object the cache
// cannot show (one without the tenant label: made by hand or by another tool) is never
// overwritten: the refused create (409) says something is there, and only then is it read and its
// owner checked. A child the cache holds is changed by a forced server-side apply naming its uid,
// so an object replaced meanwhile is refused (metadata.uid is immutable); before the first such
// apply, what the create recorded is folded into the operator's Apply entry, so the apply removes
// what a spec stops naming (runtime/kube/field-ownership.ts).
import type { KubernetesObject } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../api/tenant.js';
import { ApiError, CONTENT_TYPE, isNotFound, type KubeApi } from '../runtime/kube/api.js';
import { apiPath } from '../runtime/kube/paths.js';
import {
  childKey,
  describeRef,
  errorText,
  type ChildChange,
  type ChildKind,
  type ChildRef,
} from './child-ref.js';
import { APPLY_WAVES, valuesAreRead, WORKLOAD_WAVE } from './facets/kinds.js';
import { ownersAsLive, SPEC_HASH_ANNOTATION, type DesiredChild } from './desired.js';
import { isSubset, project } from './drift.js';
import { handOverCreatedFields, namesEveryField, ownsByUpdate } from '../runtime/kube/field-ownership.js';
import { retryable, stall } from './reconcile-error.js';
import { needsReplacement } from './replacement.js';
import { deleteChild } from './child-delete.js';
import { OPERATOR_REASON } from './reasons.js';
import { unenforcedResources } from './tenancy/quota-status.js';

/** The apply was refused because an object other than the one it named holds the child's name. */
class Occupied extends Error {
  constructor(readonly ref: ChildRef) {
    super(`${describeRef(ref)} exists but is not the object the operator knows`);
    this.name = 'Occupied';
  }
}

/** Reads a child the cache did not show and checks this Tenant may own it (throws when not). */
export type ClaimUnseen = (ref: ChildRef) => Promise<KubernetesObject | undefined>;

/** A desired manifest as the server spelled it after applying, for the hash it was applied at. */
interface Normalized {
  hash: string;
  manifest: unknown;
}

interface Outcome {
  /** Undefined for a child not applied yet (its wave waits for the quota) that does not exist. */
  object: KubernetesObject | undefined;
  change?: ChildChange;
  /** The object an update was written over, as the operator saw it then. */
  before?: KubernetesObject;
}

/** A quota the workload waits for: the quota controller has not enforced these resources yet. */
export interface QuotaWait {
  ref: ChildRef;
  resources: string[];
}

export interface Applied {
  /**
   * Each desired child's freshest copy, in the spec's order: the apply response, or the live
   * object (undefined when a child waiting for the quota does not exist yet).
   */
  objects: (KubernetesObject | undefined)[];
  /** In the spec's order, not the order the applies finished, so Events and logs read the same every time. */
  changes: ChildChange[];
  /** Each child an update was written over, as the operator saw it then; in the spec's order. */
  before: (KubernetesObject | undefined)[];
  /** Set when the workload was not applied: the tenant's quota is not enforced yet. */
  quotaWait?: QuotaWait;
}

/**
 * What the workload waits for: the first of the tenant's quotas, as the fencing wave left them
 * (`objectAt`, by index in the spec's order), that does not enforce every limit it sets yet
 * (tenancy/quota-status.ts), when a workload child is to be written (`writes`, by index): pods and
 * ConfigMaps made before would escape it. Children that already match make nothing new, so a class
 * that adds a limit to its quota does not turn its running tenants' Ready to False meanwhile.
 */
export function quotaWaitOf(
  desired: readonly DesiredChild[],
  objectAt: (index: number) => KubernetesObject | undefined,
  writes: (index: number) => boolean,
): QuotaWait | undefined {
  // Every reconcile asks, and most tenants have one quota, long enforced: no copies on the way.
  let wait: QuotaWait | undefined;
  for (let i = 0; i < desired.length && wait === undefined; i++) {
    const quota = desired[i]!.ref.kind === 'ResourceQuota' ? objectAt(i) : undefined;
    const resources = quota === undefined ? [] : unenforcedResources(quota);
    if (resources.length > 0) wait = { ref: desired[i]!.ref, resources };
  }
  if (wait === undefined) return undefined;
  return desired.some((child, i) => WORKLOAD_WAVE.includes(child.ref.kind) && writes(i)) ? wait : undefined;
}

export interface ApplierOptions {
  /**
   * How a child the cache does not hold is created. 'post' (the default): a create, the cheapest
   * write, whose fields a later apply first takes over (field-ownership.ts). 'apply': a forced
   * server-side apply naming a resourceVersion no object has, so it only creates (an existing
   * object refuses it, 409, as a create's would): for children that another apply under the same
   * field manager takes over soon, a warm pool member's when a tenant claims it, which then has no
   * create's fields to take over first.
   */
  createBy?: 'post' | 'apply';
}

/** Every kind in one wave: for a namespace whose fences are in place and enforced already. */
const ALL_AT_ONCE: readonly (readonly ChildKind[])[] = [APPLY_WAVES.flat()];

export class Applier {
  /**
   * owner → child key → its normalized manifest: one entry per child, replaced when an edit
   * changes its hash, dropped when the spec stops naming it or the owner goes. Memory follows the
   * owners and children there are, never the number of edits (a 300 KB row edited a thousand
   * times holds one copy, not a thousand).
   */
  private readonly normalized = new Map<string, Map<string, Normalized>>();
  private readonly createBy: 'post' | 'apply';

  constructor(
    private readonly api: KubeApi,
    options: ApplierOptions = {},
  ) {
    this.createBy = options.createBy ?? 'post';
  }

  /**
   * Applies every child that is absent from the cache or differs from its desired manifest, wave
   * by wave (each at once): a PerTenant tenant's Namespace, then what fences it in, then the
   * Deployment and ConfigMaps, since a pod created before the quota or the LimitRange would escape
   * them. The last wave also waits until the quota controller enforces the quota (`quotaWait`):
   * the quota's first status write wakes the Tenant again. `owner` names whose children these are
   * (a Tenant's name; a warm pool member's namespace), for what is remembered of them. `cached` is
   * what the cache holds (already checked as the owner's); a child whose apply finds an object the
   * cache did not show is handed to `claim`, then applied if still needed. `together`: the
   * namespace and its fences exist already, as the owner wants them (a warm pool member just
   * claimed, pool/claim.ts): while the quota there is enforced, every child goes in one wave.
   */
  async applyDrifted(
    owner: string,
    desired: readonly DesiredChild[],
    cached: readonly (KubernetesObject | undefined)[],
    { claim, together = false }: { claim: ClaimUnseen; together?: boolean },
  ): Promise<Applied> {
    const known = this.keep(owner, desired);
    const outcomes: Outcome[] = desired.map((_, i) => ({ object: cached[i] }));
    let quotaWait: QuotaWait | undefined;
    const inOneWave = together && this.quotaWait(desired, cached, outcomes, known) === undefined;
    try {
      for (const wave of inOneWave ? ALL_AT_ONCE : APPLY_WAVES) {
        if (wave === WORKLOAD_WAVE) quotaWait = this.quotaWait(desired, cached, outcomes, known);
        if (quotaWait !== undefined) break;
        await Promise.all(
          desired.map(async (child, i) => {
            if (wave.includes(child.ref.kind))
              outcomes[i] = await this.applyOrClaim(child, cached[i], known, claim);
          }),
        );
      }
    } finally {
      // Most Tenants have nothing to remember: an empty Map each cost ~0.3 KB per Tenant.
      if (known.size === 0) this.normalized.delete(owner);
      else this.normalized.set(owner, known);
    }
    return {
      objects: outcomes.map((o) => o.object),
      changes: outcomes.flatMap((o) => (o.change === undefined ? [] : [o.change])),
      before: outcomes.map((o) => o.before),
      ...(quotaWait === undefined ? {} : { quotaWait }),
    };
  }

  /** The quota the workload waits for, if any (quotaWaitOf): a workload child is written when absent or drifted. */
  private quotaWait(
    desired: readonly DesiredChild[],
    cached: readonly (KubernetesObject | undefined)[],
    outcomes: readonly Outcome[],
    known: Map<string, Normalized>,
  ): QuotaWait | undefined {
    const writes = (i: number): boolean => {
      const child = desired[i]!;
      const current = cached[i];
      return current === undefined || drifted(child, current, known.get(childKey(child.ref))?.manifest);
    };
    return quotaWaitOf(desired, (i) => outcomes[i]!.object, writes);
  }

  /** Applies the child if it drifted; an object the cache did not show is claimed first, then applied. */
  private async applyOrClaim(
    child: DesiredChild,
    cached: KubernetesObject | undefined,
    known: Map<string, Normalized>,
    claim: ClaimUnseen,
  ): Promise<Outcome> {
    try {
      return await this.applyIfDrifted(child, cached, known);
    } catch (err) {
      if (!(err instanceof Occupied)) throw err;
    }
    return this.applyIfDrifted(child, await claim(child.ref), known).catch((err: unknown) => {
      throw err instanceof Occupied
        ? retryable(OPERATOR_REASON.applyFailed, `${err.message}; retrying`)
        : err;
    });
  }

  private async applyIfDrifted(
    child: DesiredChild,
    current: KubernetesObject | undefined,
    known: Map<string, Normalized>,
  ): Promise<Outcome> {
    if (current === undefined) {
      return {
        object: await this.write(child, known, 'create'),
        change: { action: 'created', ref: child.ref },
      };
    }
    if (!drifted(child, current, known.get(childKey(child.ref))?.manifest)) return { object: current };
    if (needsReplacement(child, current)) return this.replace(child, current, known);
    await this.foldCreateOwnership(child, current);
    const object = await this.write(child, known, { uid: current.metadata?.uid ?? '' });
    return { object, change: { action: 'updated', ref: child.ref }, before: current };
  }

  /**
   * Deletes the child the cache holds (by its uid: never a replacement made meanwhile), then creates
   * the desired one. Between the two the child is absent: for a Service, a route has no backend
   * for the moment a create takes, which is why only a change the server refuses in place does it.
   */
  private async replace(
    child: DesiredChild,
    current: KubernetesObject,
    known: Map<string, Normalized>,
  ): Promise<Outcome> {
    await deleteChild(this.api, child.ref, current.metadata?.uid, 'replacing');
    const object = await this.write(child, known, 'create');
    return { object, change: { action: 'replaced', ref: child.ref }, before: current };
  }

  /**
   * A child the operator created still has that create's fields under an Update entry: fold them
   * into its Apply entry first, or the apply would leave behind what the spec no longer names.
   * Reads the child for its managedFields (the cache keeps only the managers' names). Not while
   * the apply names every field the child has (a quota's new limits, a ConfigMap's new values):
   * nothing is left behind then, and the fold waits for an apply that leaves a field out.
   */
  private async foldCreateOwnership(child: DesiredChild, current: KubernetesObject): Promise<void> {
    const { ref } = child;
    if (!ownsByUpdate(current, FIELD_MANAGER.operator)) return;
    // The caches keep no Secret's values: what an apply would drop of them is not known here.
    if (valuesAreRead(ref.kind) && namesEveryField(current, child.manifest)) return;
    try {
      await handOverCreatedFields(this.api, apiPath(ref), FIELD_MANAGER.operator, current.metadata?.uid);
    } catch (err) {
      // Gone, replaced or changed meanwhile: the next reconcile reads the caches afresh.
      throw retryable(
        OPERATOR_REASON.applyFailed,
        `taking over the fields the operator created ${describeRef(ref)} with: ${errorText(err)}`,
      );
    }
  }

  /** The owner's entries still current: for children the spec names, at the hash it names them. */
  private keep(owner: string, desired: readonly DesiredChild[]): Map<string, Normalized> {
    const before = this.normalized.get(owner);
    const kept = new Map<string, Normalized>();
    for (const child of desired) {
      const key = childKey(child.ref);
      const entry = before?.get(key);
      if (entry?.hash === child.hash) kept.set(key, entry);
    }
    return kept;
  }

  /** The owner is gone (or done with): so is what was remembered of its children. */
  forget(owner: string): void {
    this.normalized.delete(owner);
  }

  /** Number of children with a normalized manifest remembered (for tests). */
  get remembered(): number {
    let count = 0;
    for (const children of this.normalized.values()) count += children.size;
    return count;
  }

  /** Creates the child, or applies it to the object with that uid. */
  private async write(
    child: DesiredChild,
    known: Map<string, Normalized>,
    target: 'create' | { uid: string },
  ): Promise<KubernetesObject> {
    const manifest = { apiVersion: child.ref.apiVersion, kind: child.ref.kind, ...child.manifest };
    try {
      const result = await this.api.request<KubernetesObject>(
        target === 'create' && this.createBy === 'post'
          ? {
              method: 'POST',
              path: apiPath({ ...child.ref, name: undefined }),
              query: { fieldManager: FIELD_MANAGER.operator },
              body: manifest,
            }
          : {
              method: 'PATCH',
              path: apiPath(child.ref),
              query: { fieldManager: FIELD_MANAGER.operator, force: true },
              contentType: CONTENT_TYPE.apply,
              body: { ...manifest, metadata: { ...manifest.metadata, ...precondition(target) } },
              verb: 'apply',
            },
      );
      // Most manifests come back as written; only a server normalisation is worth remembering (never
      // a Secret's: its values stay out of the heap, and its drift check reads only metadata).
      if (valuesAreRead(child.ref.kind) && !isSubset(child.manifest, result))
        known.set(childKey(child.ref), { hash: child.hash, manifest: project(child.manifest, result) });
      return result;
    } catch (err) {
      throw applyError(child.ref, err);
    }
  }
}

/**
 * What an apply names so it changes only the object it means: the uid of the one the cache holds,
 * or, to create, a resourceVersion no object has ("1").
 */
const precondition = (target: 'create' | { uid: string }): { uid: string } | { resourceVersion: string } =>
  target === 'create' ? { resourceVersion: '1' } : { uid: target.uid };

/** A child as the API server has it now; undefined when there is none. */
export async function readChild(api: KubeApi, ref: ChildRef): Promise<KubernetesObject | undefined> {
  try {
    return await api.request<KubernetesObject>({ method: 'GET', path: apiPath(ref) });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw retryable(OPERATOR_REASON.applyFailed, `reading ${describeRef(ref)}: ${errorText(err)}`);
  }
}

/**
 * The live child no longer matches its desired manifest: another spec's hash, or a field landlord
 * sets holds another value. `normalized` is the manifest as the server spelled it when applied.
 */
export function drifted(child: DesiredChild, live: KubernetesObject, normalized?: unknown): boolean {
  if (live.metadata?.annotations?.[SPEC_HASH_ANNOTATION] !== child.hash) return true;
  const wanted = ownersAsLive(normalized ?? child.manifest, live);
  // A Secret is cached without its values: its hash says which values it holds, its metadata the rest.
  if (!valuesAreRead(child.ref.kind)) return !isSubset({ metadata: wanted.metadata }, live);
  return !isSubset(wanted, live);
}

/**
 * The write was refused because the object is not the one it named: something exists where none
 * was expected (409, the create), the cached object is gone (409, uid) or was replaced (422,
 * metadata.uid is immutable). A forced apply meets no other 409.
 */
const isOtherObject = (err: unknown): boolean =>
  err instanceof ApiError &&
  (err.status === 409 || (err.status === 422 && /metadata\.uid\b/.test(err.message)));

/** A refusal by the API server (invalid, immutable field) stalls; anything else is retried. */
function applyError(ref: ChildRef, err: unknown): Error {
  if (isOtherObject(err)) return new Occupied(ref);
  const text = `applying ${describeRef(ref)}: ${errorText(err)}`;
  if (err instanceof ApiError && (err.status === 422 || err.status === 400))
    return stall(OPERATOR_REASON.applyFailed, text);
  if (err instanceof ApiError && err.status === 404) {
    return retryable(OPERATOR_REASON.applyFailed, `${text} (does namespace ${ref.namespace} exist?)`);
  }
  return retryable(OPERATOR_REASON.applyFailed, text);
}
