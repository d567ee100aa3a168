// What the operator is configured to allow. The config loader builds one of these; policy only reads it.
import type { NamespaceScope } from '../namespaces/rules.js';
import type { ClassPolicy } from './class.js';

export * from './class.js';

export { builtInClass, type ClassLimits, type ClassPolicy, type PodSecurityLevel } from './class.js';

/** Where children may live (the namespace rules' scope), and the class the tenant is under. */
export interface PolicyConfig extends NamespaceScope {
  /** The platform's policy for the tenant: the built-in class until TenantClass exists. */
  tenantClass: ClassPolicy;
  /**
   * Whether a Tenant with no class to go by (no default TenantClass) is put under tenantClass, the
   * built-in class (LANDLORD_OPERATOR_BUILT_IN_CLASS); absent or false: it waits, NoDefaultClass.
   */
  useBuiltInClass?: boolean;
  /**
   * Whether the cluster serves gateway.networking.k8s.io/v1 HTTPRoutes (the operator asks at
   * start-up); absent: assumed served, as `landlord validate` judges a row offline.
   */
  gatewayApi?: boolean;
  /**
   * The namespaces a class's `secrets` may copy from (LANDLORD_SECRET_SOURCE_NAMESPACES); absent:
   * none, every `from` entry is SecretSourceNotAllowed.
   */
  secretSourceNamespaces?: readonly string[];
}
