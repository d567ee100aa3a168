// What the secrets facet watches beyond its children: the Secrets classes copy from, in the
// namespaces the operator is installed to read (LANDLORD_SECRET_SOURCE_NAMESPACES), each cached
// whole, since a copy takes its values. Its slice of the cluster view keeps nothing of its own: it
// reads the sources through their cache. A change wakes the Tenants whose class copies it, at the
// class-rollout rate, and the warm pools (members hold copies of the shared sources).
import type { FacetIndex, FacetWatch, IndexContext } from '../facets/contract.js';
import { tenantsOfSource } from './source-routing.js';
import { sourceSecretOf, type SecretSources } from './sources.js';

export const SOURCE_WATCHES: readonly FacetWatch[] = [
  { apiVersion: 'v1', kind: 'Secret', scope: (policy) => policy.secretSourceNamespaces ?? [] },
];

export function sourceIndex(context: IndexContext): FacetIndex<SecretSources> {
  const view: SecretSources = {
    secret: (namespace, name) => {
      const secret = context.read('Secret', namespace, name);
      return secret === undefined ? undefined : sourceSecretOf(secret);
    },
    externalSecrets: context.apis.externalSecrets,
  };
  return {
    view,
    changed: (_kind, secret) => {
      const source = { namespace: secret.metadata?.namespace ?? '', name: secret.metadata?.name ?? '' };
      const tenants = (): string[] => tenantsOfSource(context.tenants(), context.classes(), source);
      return { tenants, paced: true, pool: true };
    },
  };
}
