// Writes a tenant's revisions: after sync applied a spec, one list of the tenant's revisions (a
// label selector, in sync's namespace), a create when the spec differs from the newest one, and a
// delete for each beyond the limit. Nothing is cached between writes, so a restart, a new leader or
// a revision deleted by hand costs nothing to catch up with, and sync holds no history in memory.
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
  type RevisionDraft,
  type RevisionObject,
} from './revision.js';

export interface RecorderOptions {
  api: KubeApi;
  metrics: Metrics;
  /** sync's own namespace (POD_NAMESPACE). */
  namespace: string;
  /** Revisions kept per tenant; 0 keeps none. */
  limit: number;
}

/** What a record() did: the revision written, or why none was. */
export type Recorded = { kind: 'written'; revision: number } | { kind: 'unchanged' } | { kind: 'off' };

const kind = { apiVersion: REVISION_API_VERSION, kind: REVISION_KIND } as const;

export class RevisionRecorder {
  constructor(private readonly options: RecorderOptions) {}

  /**
   * Records the draft as the Tenant's newest revision, unless the newest already holds that
   * content (sync applying the same spec again, after someone edited the Tenant by hand). A name
   * taken meanwhile (409) throws: the caller retries, and the next list sees it.
   */
  async record(tenant: Tenant, draft: RevisionDraft, now = new Date()): Promise<Recorded> {
    const { api, metrics, namespace, limit } = this.options;
    if (limit === 0) return { kind: 'off' };
    const name = tenant.metadata.name!;
    const listed = await this.list(name);
    // Revisions of an earlier Tenant of this name wait for the garbage collector: their numbers
    // are skipped, their content is not this Tenant's history.
    const own = listed.filter((r) => r.owner === tenant.metadata.uid);
    const newest = own.reduce<(typeof own)[number] | undefined>(
      (found, r) => (found === undefined || r.revision > found.revision ? r : found),
      undefined,
    );
    if (newest?.hash === draft.hash) return { kind: 'unchanged' };
    const revision = nextRevision(listed.map((r) => r.revision));
    const body = revisionObject(tenant, namespace, revision, revisionData(draft, name, now));
    await api.request({ method: 'POST', path: apiPath({ ...kind, namespace }), body });
    metrics.syncWritesTotal.inc({ kind: 'revision' });
    for (const old of revisionsToPrune([...own.map((r) => r.revision), revision], limit)) {
      await this.delete(revisionName(name, old));
    }
    return { kind: 'written', revision };
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
