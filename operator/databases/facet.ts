// The databases facet: a PerTenant class's `databases`, a database and a role of its own per entry
// on a platform server, with the credentials as Secret `db-<name>` in the tenant namespace, and
// DatabasesReady. Making them is an effect outside Kubernetes (act.ts), run by the reconcile only;
// the Secret is then an ordinary child, kept in every state but purged (its database is about to
// be dropped, and a tenant set back to active gets a new one). Never dropped here: the purger does.
import { CONDITION } from '../../api/tenant.js';
import { childRef } from '../child-ref.js';
import type { Facet } from '../facets/contract.js';
import { actOnDatabases } from './act.js';
import { databasesCondition, decideDatabases, type DatabasesDecision } from './decision.js';

export const databasesFacet: Facet<DatabasesDecision | undefined> = {
  name: 'databases',
  // Its Secrets are of the kind the secrets facet declares: watched by the landlord.dev/tenant
  // label, cached without their values.
  kinds: [],
  conditionType: CONDITION.databasesReady,
  decide({ tenant, policy, namespace, state }) {
    const decision = decideDatabases(
      policy.tenantClass.databases,
      tenant.metadata.name ?? '',
      namespace,
      state,
    );
    return { ok: true, decision };
  },
  // A Secret made before is neither applied nor pruned; a missing one comes from act.
  children(_input, decision) {
    if (decision === undefined || decision.state === 'purged') return { ok: true, children: [] };
    const retained = decision.databases.map((d) => childRef('Secret', decision.namespace, d.secretName));
    return { ok: true, children: [], retained };
  },
  act: async (decision, input, effects) =>
    decision === undefined ? { decision, children: [] } : actOnDatabases(decision, input, effects),
  condition: (decision) => databasesCondition(decision),
};
