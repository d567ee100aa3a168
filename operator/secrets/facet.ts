// The secrets facet: a PerTenant class's `secrets`, as copies of Secrets in the platform's source
// namespaces and ExternalSecrets, kept in every state, and SecretsReady. A class without secrets
// adds nothing and reports no condition; a Shared class with secrets is refused (no namespace of
// the tenant's own to put them in).
import { CONDITION } from '../../api/tenant.js';
import type { ChildRef } from '../child-ref.js';
import type { Facet } from '../facets/contract.js';
import { refusal } from '../policy/index.js';
import { secretsCondition } from './condition.js';
import { externalProblem } from './external.js';
import { NO_SOURCES } from './sources.js';
import { wantedSecrets, type SecretsWanted } from './wanted.js';

/** What the class's secrets came to in the tenant's namespace; undefined: the class has none. */
export type SecretsDecision = { wanted: SecretsWanted; namespace: string } | undefined;

export const secretsFacet: Facet<SecretsDecision> = {
  name: 'secrets',
  kinds: [
    // Thousands of copies, one per tenant and entry: no value of one stays in the operator's heap.
    { kind: 'Secret', wave: 1, scope: 'cluster', readsValues: false },
    // Its Ready is reported in SecretsReady.
    { kind: 'ExternalSecret', wave: 1, scope: 'cluster', needs: 'externalSecrets', readsStatus: 'whole' },
  ],
  conditionType: CONDITION.secretsReady,
  decide({ tenant, policy, namespace, cluster }) {
    const { tenantClass } = policy;
    if (tenantClass.secrets.length === 0) return { ok: true, decision: undefined };
    if (namespace === undefined) return { ok: false, refusal: refusal.secretsNotAllowed(tenantClass.name) };
    const scope = {
      sourceNamespaces: policy.secretSourceNamespaces ?? [],
      sources: cluster.sources ?? NO_SOURCES,
    };
    return {
      ok: true,
      decision: { wanted: wantedSecrets(tenant, tenantClass, namespace, scope), namespace },
    };
  },
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
