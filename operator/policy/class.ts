// The platform's policy for one tenant, as far as the checks in this folder read it: the
// TenantClass the Tenant resolves to, with every default filled in. The definition lives with the
// resource in api/tenantclass.ts; this folder only reads it.
export {
  DEFAULT_POD_SECURITY,
  POD_SECURITY_LEVELS,
  builtInClass,
  isPodSecurityLevel,
  type ClassLimits,
  type ClassPolicy,
  type NodePool,
  type PodSecurityLevel,
  type TenancyMode,
} from '../../api/tenantclass.js';
