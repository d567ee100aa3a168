// Reading a tenant's revisions from the cluster, as `landlord history` and `landlord rollback` do:
// one list of the ControllerRevisions labelled for the tenant in landlord's namespace, with the
// kubeconfig found as kubectl finds it (KUBECONFIG, ~/.kube/config, in-cluster).
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { ApiError, KubeApi } from '../../runtime/kube/api.js';
import { listAll } from '../../runtime/kube/list.js';
import { apiPath } from '../../runtime/kube/paths.js';
import {
  readRevision,
  REVISION_API_VERSION,
  REVISION_KIND,
  revisionSelector,
  type Revision,
  type RevisionObject,
} from '../../api/revision.js';

/** Where a tenant's history is read from. */
export interface HistorySource {
  namespace: string;
  tenant: string;
}

/** The tenant's revisions, oldest first. */
export async function readRevisions({ namespace, tenant }: HistorySource): Promise<Revision[]> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  const api = new KubeApi(kubeConfig);
  const kind = { apiVersion: REVISION_API_VERSION, kind: REVISION_KIND };
  try {
    const { items } = await listAll<RevisionObject>(api, {
      path: apiPath({ ...kind, namespace }),
      ...kind,
      labelSelector: revisionSelector(tenant),
    });
    return items.flatMap((item) => readRevision(item) ?? []).sort((a, b) => a.revision - b.revision);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403)
      throw new Error(`reading ControllerRevisions in namespace ${namespace}: forbidden (${err.message})`, {
        cause: err,
      });
    throw err;
  } finally {
    await api.close();
  }
}
