// What the secrets facet says where people look: the SecretsReady condition's reasons, part of
// landlord's API (people and alerts match on them). Named by the rule every reasons.ts follows
// (<OWNER>_REASON, docs/architecture.md) and kept in the facet's folder: a facet is its folder.
/** The SecretsReady condition's reasons (operator/secrets/). */
export const SECRETS_REASON = {
  /** True: every entry of the class is in the tenant namespace. */
  ready: 'SecretsReady',
  /** False: a `from` source does not exist; copies made before stay as they are. */
  sourceNotFound: 'SecretSourceNotFound',
  /** False: a `from` source is in a namespace LANDLORD_SECRET_SOURCE_NAMESPACES leaves out. */
  sourceNotAllowed: 'SecretSourceNotAllowed',
  /**
   * False: a per-tenant (`{name}`) source does not carry the Tenant's uid in landlord.dev/tenant-uid;
   * nothing is copied from it, copies made before stay as they are.
   */
  sourceNotBound: 'SecretSourceNotBound',
  /**
   * False: a source without `{name}` holds a TLS private key (`tls.key`); copied, one key would sit
   * in every tenant namespace. Nothing is copied; copies made before stay as they are.
   */
  sharedPrivateKey: 'SecretSharedPrivateKey',
  /** False: the class has externalSecret entries and the ExternalSecret CRD is not installed. */
  externalSecretsNotInstalled: 'ExternalSecretsNotInstalled',
  /** False: External Secrets Operator has not made (or could not refresh) the Secret yet. */
  externalSecretNotReady: 'ExternalSecretNotReady',
} as const;
