// The row hash sync stores on each Tenant, so an unchanged row costs no write. It must not change
// when DynamoDB or a user reorders a map's keys, and must change when anything else does.
import { canonicalJson, contentHash } from '../../util/canonical-json.js';
import type { TenantSpec } from '../../api/tenant.js';

export { canonicalJson };

/** sha256 (hex, first 32 digits) of the canonical JSON of `{ deployment, configMaps }`. */
export function rowHash(spec: TenantSpec): string {
  // An absent list and an empty one mean the same: no ConfigMaps.
  const content = { deployment: spec.deployment, configMaps: spec.configMaps ?? [] };
  return contentHash(content);
}
