// The kinds of child the facets declare, and what follows from each declaration: which kinds are
// watched where, in which wave they are applied, and what the caches and the applied overlay keep
// of one (runtime/kube/informer.ts lightens every object by `unreadOf`); and the kinds facets watch
// beyond their children, where, for the operator's watches and `landlord plan`'s listing alike.
import type { Unread } from '../../runtime/kube/informer.js';
import type { ChildKind } from '../child-ref.js';
import type { PolicyConfig } from '../policy/index.js';
import type { Facet, FacetKind, FacetWatch, ServedApis } from './contract.js';
import { FACETS } from './list.js';

/** Every kind of child, with its facet's wave and watch scope; each kind is declared once. */
const FACET_KINDS: readonly FacetKind[] = FACETS.flatMap((facet) => facet.kinds);

/** The kinds the operator watches and applies where the cluster serves `apis`. */
export function servedKinds(apis: ServedApis): FacetKind[] {
  return FACET_KINDS.filter((k) => k.needs === undefined || apis[k.needs]);
}

/** The order of applying: each wave's kinds, every kind in exactly one. */
export const APPLY_WAVES: readonly (readonly ChildKind[])[] = [0, 1, 2].map((wave) =>
  FACET_KINDS.filter((k) => k.wave === wave).map((k) => k.kind),
);

/** The workload's kinds: the last wave, which waits for the tenant's quota. */
export const WORKLOAD_WAVE: readonly ChildKind[] = APPLY_WAVES.at(-1)!;

const declared = new Map<string, FacetKind>(FACET_KINDS.map((k) => [k.kind, k]));

/** Whether the operator keeps this kind's values: not a Secret's. */
export const valuesAreRead = (kind: string): boolean => declared.get(kind)?.readsValues !== false;

/** What the caches and the applied overlay leave out of a child of this kind. */
export function unreadOf(
  kind: string,
): Required<Pick<Unread, 'dropStatus' | 'dropValues' | 'keepUpdaters'>> & Pick<Unread, 'keepOfStatus'> {
  const reads = declared.get(kind)?.readsStatus;
  return {
    dropStatus: reads === undefined,
    dropValues: !valuesAreRead(kind),
    // The operator creates children by POST: it must see which still carry that create's entry.
    keepUpdaters: true,
    ...(typeof reads === 'function' ? { keepOfStatus: reads } : {}),
  };
}

/** Whether this kind is watched in each namespace the operator manages, rather than cluster-wide. */
export const watchedPerNamespace = (kind: string): boolean =>
  declared.get(kind)?.scope === 'tenantNamespaces';

/** A kind a facet watches beyond its children, with the facet whose index it feeds. */
export interface WatchOf {
  facet: Facet<unknown>;
  watch: FacetWatch;
}

/** The facets' watches beyond their children, where the cluster serves their kinds. */
export function servedWatches(apis: ServedApis): WatchOf[] {
  return FACETS.flatMap((facet) =>
    (facet.watches?.kinds ?? [])
      .filter((watch) => watch.needs === undefined || apis[watch.needs])
      .map((watch) => ({ facet, watch })),
  );
}

/** Where such a watch looks: each namespace its scope names, or [undefined] for cluster-wide. */
export function watchNamespaces(watch: FacetWatch, policy: PolicyConfig): readonly (string | undefined)[] {
  return watch.scope === 'cluster' ? [undefined] : watch.scope(policy);
}
