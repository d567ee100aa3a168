// The row hash sync stores on each Tenant, so an unchanged row costs no write. It must not change
// when DynamoDB or a user reorders a map's keys, and must change when anything else does.
import { canonicalJson, contentHash } from '../../util/canonical-json.js';
import { DEFAULT_STATE, type TenantSpec } from '../../api/tenant.js';

export { canonicalJson };

/**
 * sha256 (hex, first 32 digits) of the canonical JSON of `{ deployment, configMaps }` (a row of
 * several Deployments: `{ deployments, configMaps }`), plus `state`
 * when it is not active, `class` when the row names one and `hosts` when it names any. A row that says neither hashes as rows
 * did before states and classes existed, so upgrading sync rewrites no Tenant; anything else
 * changes the hash, so sync applies it.
 */
export function rowHash(spec: TenantSpec): string {
  // An absent list and an empty one mean the same: no ConfigMaps.
  const workload =
    spec.deployments === undefined ? { deployment: spec.deployment } : { deployments: spec.deployments };
  const content: Record<string, unknown> = { ...workload, configMaps: spec.configMaps ?? [] };
  const state = spec.state ?? DEFAULT_STATE;
  if (state !== DEFAULT_STATE) content.state = state;
  if (spec.class !== undefined) content.class = spec.class;
  if (spec.hosts !== undefined && spec.hosts.length > 0) content.hosts = spec.hosts;
  return contentHash(content);
}
