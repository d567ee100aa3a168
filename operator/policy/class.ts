// The platform's policy for one tenant, as far as the checks in this folder read it: the
// TenantClass the Tenant resolves to, with every default filled in. The definition lives with the
// resource in api/tenantclass.ts; this folder only reads it.
export {
  builtInClass,
  type ClassLimits,
  type ClassPolicy,
  type PodSecurityLevel,
} from '../../api/tenantclass.js';
