// The secrets facet: a PerTenant class's `secrets`, as copies of Secrets in the platform's source
// namespaces and ExternalSecrets, kept in every state, and SecretsReady. A class without secrets
// adds nothing and reports no condition; a Shared class with secrets is refused (no namespace of
// the tenant's own to put them in).
import { CONDITION } from '../../api/tenant.js';
import type { ClassPolicy } from '../../api/tenantclass.js';
import { childRef, type ChildRef } from '../child-ref.js';
import type { Facet, MemberObject } from '../facets/contract.js';
import { refusal } from '../policy/index.js';
import { secretsCondition } from './condition.js';
import { externalProblem } from './external.js';
import { secretCopy } from './copy.js';
import { sourceIndex, SOURCE_WATCHES } from './source-index.js';
import { isPerTenantSource, NO_SOURCES, type SecretSources } from './sources.js';
import { wantedSecrets, type SecretsWanted } from './wanted.js';

/** What the class's secrets came to in the tenant's namespace; undefined: the class has none. */
export type SecretsDecision = { wanted: SecretsWanted; namespace: string } | undefined;

export const secretsFacet: Facet<SecretsDecision, SecretSources> = {
  name: 'secrets',
  kinds: [
    // Thousands of copies, one per tenant and entry: no value of one stays in the operator's heap.
    { kind: 'Secret', wave: 1, scope: 'cluster', readsValues: false },
    // Its Ready is reported in SecretsReady.
    { kind: 'ExternalSecret', wave: 1, scope: 'cluster', needs: 'externalSecrets', readsStatus: 'whole' },
  ],
  // The Secrets classes copy from, read through their cache.
  watches: { kinds: SOURCE_WATCHES, index: sourceIndex },
  conditionType: CONDITION.secretsReady,
  decide({ tenant, policy, namespace, cluster }) {
    const { tenantClass } = policy;
    if (tenantClass.secrets.length === 0) return { ok: true, decision: undefined };
    if (namespace === undefined) return { ok: false, refusal: refusal.secretsNotAllowed(tenantClass.name) };
    const scope = {
      sourceNamespaces: policy.secretSourceNamespaces ?? [],
      sources: cluster.of(secretsFacet) ?? NO_SOURCES,
    };
    return {
      ok: true,
      decision: { wanted: wantedSecrets(tenant, tenantClass, namespace, scope), namespace },
    };
  },
  // The shared sources' copies; a per-tenant one ("{name}") comes with the claim.
  member: ({ policy, cluster }) => ({
    ok: true,
    objects: sharedCopies(
      policy.tenantClass,
      policy.secretSourceNamespaces ?? [],
      cluster.of(secretsFacet) ?? NO_SOURCES,
    ),
  }),
  children(_input, decision) {
    if (decision === undefined) return { ok: true, children: [] };
    return { ok: true, children: decision.wanted.children, retained: decision.wanted.retained };
  },
  condition(decision, read) {
    if (decision === undefined) return undefined;
    const external = (ref: ChildRef): string | undefined => externalProblem(read(ref));
    return secretsCondition(decision.wanted, decision.namespace, external);
  },
};

/**
 * Copies of the class's shared secrets: `from` sources named without "{name}", in a namespace the
 * operator reads, that exist now. A missing or refused one is left out: the tenant that claims the
 * member reports it, as a cold tenant would.
 */
function sharedCopies(
  tenantClass: ClassPolicy,
  sourceNamespaces: readonly string[],
  sources: SecretSources,
): MemberObject[] {
  return tenantClass.secrets.flatMap((entry) => {
    const from = entry.from;
    if (from === undefined || isPerTenantSource(from.name) || !sourceNamespaces.includes(from.namespace))
      return [];
    const secret = sources.secret(from.namespace, from.name);
    if (secret === undefined) return [];
    const manifest = secretCopy({ name: entry.name, namespace: '' }, from, secret);
    return [{ ref: childRef('Secret', '', entry.name), manifest }];
  });
}
