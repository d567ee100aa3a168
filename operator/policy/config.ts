// What the operator is configured to allow. The config loader builds one of these; policy only reads it.

/** The Pod Security Standards levels, from the most to the least permissive. */
export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

export const POD_SECURITY_LEVELS: readonly PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];

/** The level used when the operator's configuration names none. */
export const DEFAULT_POD_SECURITY: PodSecurityLevel = 'baseline';

export function isPodSecurityLevel(value: unknown): value is PodSecurityLevel {
  return POD_SECURITY_LEVELS.some((level) => level === value);
}

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
  /** The Pod Security Standard every pod template must meet. */
  podSecurity: PodSecurityLevel;
}
