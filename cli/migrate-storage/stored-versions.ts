// What a CRD's status says about the versions its objects are stored under: the storage version
// now, and the versions some object may still be stored under (status.storedVersions, which the
// API server only ever adds to). Pure, so `landlord migrate-storage` decides from it alone.
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';

export interface StoredVersions {
  /** The version every write stores objects under now. */
  storage: string;
  /** Older versions some object may still be stored under; empty: nothing to migrate. */
  stale: string[];
}

/** The CRD's storage version and the older ones it lists as stored; undefined when none is stored. */
export function storedVersions(crd: V1CustomResourceDefinition): StoredVersions | undefined {
  const storage = crd.spec.versions.find((v) => v.storage)?.name;
  if (storage === undefined) return undefined;
  const stale = (crd.status?.storedVersions ?? []).filter((v) => v !== storage);
  return { storage, stale };
}
