// The row hash sync stores on each Tenant, so an unchanged row costs no write. It must not change
// when DynamoDB or a user reorders a map's keys, and must change when anything else does.
import { canonicalJson, contentHash } from '../../util/canonical-json.js';
import { DEFAULT_STATE, type TenantSpec } from '../../api/tenant.js';

export { canonicalJson };

/**
 * sha256 (hex, first 32 digits) of the canonical JSON of `{ deployment, configMaps }`, plus `state`
 * when it is not active. An active row hashes as rows did before states existed, so upgrading sync
 * rewrites no Tenant; any other state changes the hash, so sync applies it.
 */
export function rowHash(spec: TenantSpec): string {
  // An absent list and an empty one mean the same: no ConfigMaps.
  const content = { deployment: spec.deployment, configMaps: spec.configMaps ?? [] };
  const state = spec.state ?? DEFAULT_STATE;
  return contentHash(state === DEFAULT_STATE ? content : { ...content, state });
}
