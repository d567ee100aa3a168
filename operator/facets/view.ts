// Cluster views made of facets' slices (contract.ts, ClusterView.of): the empty one `landlord
// validate` judges a row by, and one from slices given by hand (a warm pool's blueprint, tests).
import type { ClusterView, Facet } from './contract.js';

/** Nothing known beyond the Tenant: no neighbour, no host held, no source Secret. */
export const NO_CLUSTER: ClusterView = { of: () => undefined };

/** A view whose facets' slices are the ones given; `shared` holds what no one facet owns. */
export function clusterView(
  slices: ReadonlyMap<Facet<unknown>, unknown>,
  shared: Omit<ClusterView, 'of'> = {},
): ClusterView {
  // A slice is stored under the facet that keeps it, so it has that facet's type.
  return { ...shared, of: <V>(facet: Facet<unknown, V>) => slices.get(facet) as V | undefined };
}
