// Writes a tenant's revisions: after sync applied a spec, a create of the next revision when the spec
// differs from the newest one, and a delete of the one that falls out of the limit. The Tenant's
// status names its newest revision (status.sync.revision, written by sync right after), so the next
// one is found by name: a list of revisions, which the API server answers by matching the label of
// every revision of every tenant in sync's namespace, is made only when the status names none (a
// Tenant of an earlier version) or the next name is taken (a revision the status does not name yet,
// an earlier Tenant's of that name). The only thing held between writes is the newest revision's
// number and hash, in the ledger until the status write names it, so a restart, a new leader or a
// revision deleted by hand costs nothing to catch up with, and sync holds no history in memory.
import { isConflict, isNotFound, type KubeApi } from '../../runtime/kube/api.js';
import { listAll } from '../../runtime/kube/list.js';
import { apiPath } from '../../runtime/kube/paths.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { Tenant } from '../../api/tenant.js';
import { nextRevision, revisionsToPrune } from './retention.js';
import {
  readRevision,
  REVISION_API_VERSION,
  REVISION_KIND,
  revisionData,
  revisionName,
  revisionObject,
  revisionSelector,
  type NewestRevision,
  type RevisionDraft,
  type RevisionObject,
} from '../../api/revision.js';

export interface RecorderOptions {
  api: KubeApi;
  metrics: Metrics;
  /** sync's own namespace (POD_NAMESPACE). */
  namespace: string;
  /** Revisions kept per tenant; 0 keeps none. */
  limit: number;
}

/** What a record() did: the revision written, or why none was; `newest` is what the status names. */
export type Recorded =
  | { kind: 'written'; newest: NewestRevision }
  | { kind: 'unchanged'; newest: NewestRevision }
  | { kind: 'off' };

/** What record() knows of a tenant's history before it writes. */
interface Known {
  newest?: NewestRevision;
  /** The number the next revision takes. */
  next: number;
  /** This Tenant's revision numbers, when they were listed (pruning uses them). */
  own?: number[];
}

/** Names found taken one after another before record() gives up, to be retried with backoff. */
const MAX_TAKEN = 5;

const kind = { apiVersion: REVISION_API_VERSION, kind: REVISION_KIND } as const;

/**
 * The history the Tenant's status names. A Tenant that sync's own write just created (generation 1)
 * has none: revisions are owned by one Tenant, and this one is new.
 */
function knownFromStatus(tenant: Tenant, created: boolean): Known | undefined {
  if (created && tenant.metadata.generation === 1) return { next: 1 };
  const sync = tenant.status?.sync;
  if (sync?.revision === undefined || sync.revisionHash === undefined) return undefined;
  return { newest: { revision: sync.revision, hash: sync.revisionHash }, next: sync.revision + 1 };
}

export class RevisionRecorder {
  constructor(private readonly options: RecorderOptions) {}

  /**
   * Records the draft as the Tenant's newest revision, unless the newest already holds that
   * content (sync applying the same spec again, after someone edited the Tenant by hand).
   * `created`: sync's apply just made this Tenant.
   */
  async record(tenant: Tenant, draft: RevisionDraft, created = false, now = new Date()): Promise<Recorded> {
    if (this.options.limit === 0) return { kind: 'off' };
    let known = knownFromStatus(tenant, created) ?? (await this.listed(tenant));
    for (let taken = 0; ; taken++) {
      if (known.newest?.hash === draft.hash) return { kind: 'unchanged', newest: known.newest };
      const revision = known.next;
      if (await this.create(tenant, revision, draft, now)) {
        await this.prune(tenant, known, revision);
        return { kind: 'written', newest: { revision, hash: draft.hash } };
      }
      if (taken + 1 === MAX_TAKEN) {
        throw new Error(`revision names up to ${revisionName(tenant.metadata.name!, revision)} are taken`);
      }
      // Taken: by a revision the status does not name yet (its write was lost, or is still to
      // come), an earlier Tenant's, or an object that is no revision. The list says which; a name
      // taken by something it does not show is skipped too.
      const listed = await this.listed(tenant);
      known = { ...listed, next: Math.max(listed.next, revision + 1) };
    }
  }

  /** Creates revision `revision`; false when its name is taken. */
  private async create(tenant: Tenant, revision: number, draft: RevisionDraft, now: Date): Promise<boolean> {
    const { api, metrics, namespace } = this.options;
    const body = revisionObject(tenant, namespace, revision, revisionData(draft, tenant.metadata.name!, now));
    try {
      await api.request({ method: 'POST', path: apiPath({ ...kind, namespace }), body });
    } catch (err) {
      if (isConflict(err)) return false;
      throw err;
    }
    metrics.syncWritesTotal.inc({ kind: 'revision' });
    return true;
  }

  /**
   * Deletes what falls out of the limit: from the list when there was one, else the one revision
   * `limit` below the new one (each write makes room for itself, so the rest went before).
   */
  private async prune(tenant: Tenant, known: Known, written: number): Promise<void> {
    const { limit } = this.options;
    const doomed =
      known.own !== undefined
        ? revisionsToPrune([...known.own, written], limit)
        : written > limit
          ? [written - limit]
          : [];
    for (const old of doomed) {
      await this.delete(revisionName(tenant.metadata.name!, old));
    }
  }

  /** The Tenant's history as listed: revisions of an earlier Tenant of this name only take numbers. */
  private async listed(tenant: Tenant): Promise<Known> {
    const listed = await this.list(tenant.metadata.name!);
    // Revisions of an earlier Tenant of this name wait for the garbage collector: their numbers
    // are skipped, their content is not this Tenant's history.
    const own = listed.filter((r) => r.owner === tenant.metadata.uid);
    const newest = own.reduce<(typeof own)[number] | undefined>(
      (found, r) => (found === undefined || r.revision > found.revision ? r : found),
      undefined,
    );
    return {
      ...(newest === undefined ? {} : { newest: { revision: newest.revision, hash: newest.hash } }),
      next: nextRevision(listed.map((r) => r.revision)),
      own: own.map((r) => r.revision),
    };
  }

  private async list(tenant: string): Promise<{ revision: number; hash: string; owner?: string }[]> {
    const { api, namespace } = this.options;
    const path = apiPath({ ...kind, namespace });
    const { items } = await listAll<RevisionObject>(api, {
      path,
      ...kind,
      labelSelector: revisionSelector(tenant),
    });
    return items.flatMap((item) => {
      const read = readRevision(item);
      if (read === undefined) return [];
      return [{ revision: read.revision, hash: read.hash, owner: item.metadata?.ownerReferences?.[0]?.uid }];
    });
  }

  private async delete(name: string): Promise<void> {
    const { api, metrics, namespace } = this.options;
    try {
      await api.request({ method: 'DELETE', path: apiPath({ ...kind, namespace, name }) });
      metrics.syncWritesTotal.inc({ kind: 'revisionDelete' });
    } catch (err) {
      // Already gone (deleted by hand, or by the garbage collector): what pruning wanted.
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
}
