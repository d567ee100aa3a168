// Deleting a child the operator holds in its cache: only that object (its uid as the API server's
// precondition, so a same-named replacement made meanwhile is never deleted), its dependents in
// the background, and a child already gone counts as deleted. Other failures are retried, named.
import type { KubeApi } from '../runtime/kube/api.js';
import { isNotFound } from '../runtime/kube/api.js';
import { apiPath } from '../runtime/kube/paths.js';
import { describeRef, errorText, type ChildRef } from './child-ref.js';
import { retryable } from './reconcile-error.js';
import { OPERATOR_REASON } from './reasons.js';

/** Deletes the child `ref` if it is still the object with `uid`; `doing` names the step in an error ("pruning"). */
export async function deleteChild(
  api: KubeApi,
  ref: ChildRef,
  uid: string | undefined,
  doing: string,
): Promise<void> {
  try {
    await api.request({
      method: 'DELETE',
      path: apiPath(ref),
      body: {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        preconditions: { uid },
        propagationPolicy: 'Background',
      },
    });
  } catch (err) {
    if (isNotFound(err)) return;
    throw retryable(OPERATOR_REASON.applyFailed, `${doing} ${describeRef(ref)}: ${errorText(err)}`);
  }
}
