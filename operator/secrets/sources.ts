// What a reconcile reads of the Secrets a class copies: the sources in the namespaces the operator is
// installed to read (LANDLORD_SECRET_SOURCE_NAMESPACES). Those few are cached whole (source-index.ts);
// the copies in tenant namespaces are cached by metadata alone (child-ref.ts, valuesAreRead).
import type { V1Secret } from '@kubernetes/client-node';
import { ANNOTATION } from '../../api/tenant.js';
import { NAME_PLACEHOLDER } from '../../api/tenantclass.js';

/**
 * A source Secret as a copy takes it: its type and values, and, for a per-tenant source, the uid of
 * the Tenant the platform made it for (landlord.dev/tenant-uid; undefined when absent).
 */
export interface SourceSecret {
  type: string;
  data: Readonly<Record<string, string>>;
  tenantUid?: string;
}

export interface SecretSources {
  /** The source as last seen, or undefined when it does not exist (or its namespace is not read). */
  secret(namespace: string, name: string): SourceSecret | undefined;
  /** Whether External Secrets Operator's ExternalSecret API (external-secrets.io/v1) is served. */
  readonly externalSecrets: boolean;
}

/** No source is known: `landlord validate`, which judges a row offline. */
export const NO_SOURCES: SecretSources = { secret: () => undefined, externalSecrets: false };

/** What a copy and its binding check read of a source Secret the cluster holds. */
export function sourceSecretOf(secret: V1Secret): SourceSecret {
  const tenantUid = secret.metadata?.annotations?.[ANNOTATION.tenantUid];
  return {
    type: secret.type ?? '',
    data: secret.data ?? {},
    ...(tenantUid === undefined ? {} : { tenantUid }),
  };
}

/**
 * Whether a `from` source name is per tenant ("{name}-db"): made for one Tenant, so copied only
 * when bound to its uid. A name without "{name}" is shared by every tenant of the class.
 */
export const isPerTenantSource = (name: string): boolean => name.includes(NAME_PLACEHOLDER);
