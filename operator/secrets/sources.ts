// What a reconcile reads of the Secrets a class copies: the sources in the namespaces the operator is
// installed to read (LANDLORD_SECRET_SOURCE_NAMESPACES). Those few are cached whole (watches.ts);
// the copies in tenant namespaces are cached by metadata alone (child-ref.ts, valuesAreRead).

/** A source Secret as a copy takes it: its type and values, nothing else. */
export interface SourceSecret {
  type: string;
  data: Readonly<Record<string, string>>;
}

export interface SecretSources {
  /** The source as last seen, or undefined when it does not exist (or its namespace is not read). */
  secret(namespace: string, name: string): SourceSecret | undefined;
  /** Whether External Secrets Operator's ExternalSecret API (external-secrets.io/v1) is served. */
  readonly externalSecrets: boolean;
}

/** No source is known: `landlord validate`, which judges a row offline. */
export const NO_SOURCES: SecretSources = { secret: () => undefined, externalSecrets: false };
