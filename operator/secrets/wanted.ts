// What a PerTenant class's `secrets` ask for in one tenant's namespace: a copy of each `from` source
// that exists in a namespace the operator may read (a per-tenant one only when it is bound to the
// Tenant's uid), and, for each entry that cannot be copied now, the problem to report and the copy
// to leave as it is (a source deleted by mistake must not take every tenant's copy with it).
// Messages name Secrets, never their values. Pure.
import { fillName, type ClassPolicy, type ClassSecret } from '../../api/tenantclass.js';
import { ANNOTATION, type Tenant } from '../../api/tenant.js';
import { childRef, type ChildRef } from '../child-ref.js';
import { withOwnership, type DesiredChild } from '../desired.js';
import { SECRETS_REASON } from './reasons.js';
import { secretCopy } from './copy.js';
import { externalSecret } from './external.js';
import { isPerTenantSource, type SecretSources, type SourceSecret } from './sources.js';

type SecretProblemReason =
  | typeof SECRETS_REASON.sourceNotFound
  | typeof SECRETS_REASON.sourceNotAllowed
  | typeof SECRETS_REASON.sourceNotBound
  | typeof SECRETS_REASON.sharedPrivateKey
  | typeof SECRETS_REASON.externalSecretsNotInstalled;

interface SecretProblem {
  reason: SecretProblemReason;
  message: string;
}

export interface SecretsWanted {
  /** The entries' names, in the class's order. */
  names: string[];
  /** Copies to apply (only written when they differ: their hash covers the values). */
  children: DesiredChild[];
  /** Copies that cannot be made now and are kept as they are: never pruned. */
  retained: ChildRef[];
  /** The ExternalSecrets applied: their Ready is reported in SecretsReady (condition.ts). */
  externals: ChildRef[];
  problems: SecretProblem[];
}

/** What the class's secrets need to be copied: the namespaces the operator is installed to read. */
export interface SecretScope {
  sourceNamespaces: readonly string[];
  sources: SecretSources;
}

export function wantedSecrets(
  tenant: Tenant,
  tenantClass: ClassPolicy,
  namespace: string,
  scope: SecretScope,
): SecretsWanted {
  const wanted: SecretsWanted = { names: [], children: [], retained: [], externals: [], problems: [] };
  for (const entry of tenantClass.secrets) {
    wanted.names.push(entry.name);
    const made = entryChild(tenant, entry, namespace, scope);
    if ('problem' in made) {
      wanted.problems.push(made.problem);
      if (made.retained !== undefined) wanted.retained.push(made.retained);
    } else {
      wanted.children.push(made.child);
      if (made.child.ref.kind === 'ExternalSecret') wanted.externals.push(made.child.ref);
    }
  }
  return wanted;
}

type Made = { child: DesiredChild } | { problem: SecretProblem; retained?: ChildRef };

function entryChild(tenant: Tenant, entry: ClassSecret, namespace: string, scope: SecretScope): Made {
  if (entry.externalSecret !== undefined) {
    if (scope.sources.externalSecrets) {
      const manifest = externalSecret(
        { ...entry, externalSecret: entry.externalSecret },
        namespace,
        tenant.metadata.name!,
      );
      return { child: withOwnership(manifest, tenant, 'ExternalSecret') };
    }
    const message = `secret ${entry.name}: externalSecret needs External Secrets Operator's ExternalSecret API (external-secrets.io/v1), which the operator did not find served when it started; install ESO, then restart the operator`;
    return { problem: { reason: SECRETS_REASON.externalSecretsNotInstalled, message } };
  }
  return copyChild(tenant, entry, namespace, scope);
}

/** A `from` entry: its copy, or why it cannot be made now (the copy made before kept). */
function copyChild(tenant: Tenant, entry: ClassSecret, namespace: string, scope: SecretScope): Made {
  if (entry.from === undefined) throw new Error(`secret ${entry.name}: no source (the CRD requires one)`);
  const source = { namespace: entry.from.namespace, name: fillName(entry.from.name, tenant.metadata.name!) };
  const retained = childRef('Secret', namespace, entry.name);
  const named = `${source.namespace}/${source.name}`;
  if (!scope.sourceNamespaces.includes(source.namespace)) {
    const allowed = scope.sourceNamespaces.join(', ') || 'none';
    const message = `secret ${entry.name}: source ${named} is in a namespace the operator is not installed to read (LANDLORD_SECRET_SOURCE_NAMESPACES: ${allowed})`;
    return { problem: { reason: SECRETS_REASON.sourceNotAllowed, message }, retained };
  }
  const secret = scope.sources.secret(source.namespace, source.name);
  if (secret === undefined) {
    const message = `secret ${entry.name}: source Secret ${named} not found; a copy made before stays as it is, and the copy is made when the source appears`;
    return { problem: { reason: SECRETS_REASON.sourceNotFound, message }, retained };
  }
  if (isPerTenantSource(entry.from.name) && !boundTo(secret, tenant)) {
    const message = `secret ${entry.name}: ${notBound(named, secret, tenant)}`;
    return { problem: { reason: SECRETS_REASON.sourceNotBound, message }, retained };
  }
  if (!isPerTenantSource(entry.from.name) && holdsPrivateKey(secret)) {
    const message = `secret ${entry.name}: source Secret ${named} holds a TLS private key (${PRIVATE_KEY}) and is one Secret for every tenant of the class, so its team could read the key the others use; nothing is copied from it and a copy made before stays as it is; terminate TLS at the shared Gateway, or give each tenant its own certificate with a {name} source`;
    return { problem: { reason: SECRETS_REASON.sharedPrivateKey, message }, retained };
  }
  const copy = secretCopy({ name: entry.name, namespace }, source, secret);
  return { child: withOwnership(copy, tenant, 'Secret') };
}

/** The key a kubernetes.io/tls Secret keeps its private key under. */
const PRIVATE_KEY = 'tls.key';

/**
 * A private key is a credential no two tenants may share (issue 55, class 11): a team with `edit`
 * reads every Secret in its namespace.
 */
const holdsPrivateKey = (secret: SourceSecret): boolean => PRIVATE_KEY in secret.data;

/**
 * A per-tenant source is the Tenant's only when the platform wrote that Tenant's uid on it: the
 * name alone is reused when a tenant is deleted and another signs up under its name.
 */
const boundTo = (secret: SourceSecret, tenant: Tenant): boolean =>
  tenant.metadata.uid !== undefined && secret.tenantUid === tenant.metadata.uid;

function notBound(named: string, secret: SourceSecret, tenant: Tenant): string {
  const uid = tenant.metadata.uid;
  const carries =
    secret.tenantUid === undefined
      ? `it carries no ${ANNOTATION.tenantUid} annotation`
      : `its ${ANNOTATION.tenantUid} names another Tenant (${secret.tenantUid})`;
  const fix =
    uid === undefined
      ? 'the Tenant does not exist yet'
      : `set ${ANNOTATION.tenantUid}: ${uid} on it once it holds this tenant's values`;
  return `source Secret ${named} is per tenant and not bound to this Tenant: ${carries}; nothing is copied from it and a copy made before stays as it is; ${fix}`;
}
