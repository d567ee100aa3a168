// The one place the operator writes Tenant status: only when its part differs from what the
// Tenant already says, by server-side apply on the status subresource with the operator's own
// field manager, so sync's Synced condition is never touched.
import { isDeepStrictEqual } from 'node:util';
import { findCondition, sameConditions } from '../api/conditions.js';
import { BUILT_BODY, CONTENT_TYPE, type KubeApi } from '../runtime/kube/api.js';
import { apiPath } from '../runtime/kube/paths.js';
import { API_VERSION, CONDITION, FIELD_MANAGER, KIND, type Tenant } from '../api/tenant.js';
import { OPERATOR_CONDITIONS, type OperatorStatus } from './status.js';

/** The operator's single-valued status fields, compared as they are. */
const SCALAR_FIELDS = [
  'observedGeneration',
  'replicas',
  'readyReplicas',
  'replicaSummary',
  'deployment',
  'state',
  'namespace',
  'class',
] as const satisfies readonly (keyof OperatorStatus)[];

/** True when the Tenant already says everything the operator would write. */
export function unchanged(tenant: Tenant, next: OperatorStatus): boolean {
  const current = tenant.status ?? {};
  return (
    sameConditions(current.conditions, next.conditions, OPERATOR_CONDITIONS) &&
    SCALAR_FIELDS.every((field) => current[field] === next[field]) &&
    isDeepStrictEqual(current.configMaps ?? [], next.configMaps ?? [])
  );
}

export class StatusWriter {
  constructor(private readonly api: KubeApi) {}

  /** Returns the Tenant as written, or undefined when nothing needed writing. */
  async write(tenant: Tenant, next: OperatorStatus): Promise<Tenant | undefined> {
    if (unchanged(tenant, next)) return undefined;
    const name = tenant.metadata.name!;
    return this.api.request<Tenant>({
      method: 'PATCH',
      path: apiPath({ apiVersion: API_VERSION, kind: KIND, name, subresource: 'status' }),
      query: { ...BUILT_BODY, fieldManager: FIELD_MANAGER.operator, force: true },
      contentType: CONTENT_TYPE.apply,
      body: { apiVersion: API_VERSION, kind: KIND, metadata: { name }, status: next },
      verb: 'apply',
    });
  }
}

/** The Applied failure to announce with an Event: only when it is new, so retries do not spam. */
export function newFailure(
  tenant: Tenant,
  next: OperatorStatus,
): { reason: string; message: string } | undefined {
  const after = findCondition(next.conditions, CONDITION.applied);
  // Only False is a failure: Unknown means paused, which is announced as a transition instead.
  if (after === undefined || after.status !== 'False') return undefined;
  const before = findCondition(tenant.status?.conditions, CONDITION.applied);
  const same =
    before?.status === after.status && before.reason === after.reason && before.message === after.message;
  return same ? undefined : { reason: after.reason, message: after.message };
}
