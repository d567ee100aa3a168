// What the operator is configured to allow. The config loader builds one of these; policy only reads it.
import type { ClassPolicy } from './class.js';

export * from './class.js';

export {
  DEFAULT_POD_SECURITY,
  POD_SECURITY_LEVELS,
  builtInClass,
  isPodSecurityLevel,
  type ClassLimits,
  type ClassPolicy,
  type PodSecurityLevel,
} from './class.js';

export interface PolicyConfig {
  /**
   * Namespaces children may live in, by exact name. A namespace is allowed when it is listed here or
   * matches `allowedNamespacePattern`; with neither, every namespace that is not forbidden is allowed.
   */
  allowedNamespaces: string[];
  /** Tested as written (not anchored for you): write `^team-` to mean "starts with team-". */
  allowedNamespacePattern?: RegExp;
  /** The operator's own namespace: always forbidden, like the Kubernetes system namespaces. */
  operatorNamespace: string;
  /** The platform's policy for the tenant: the built-in class until TenantClass exists. */
  tenantClass: ClassPolicy;
}
