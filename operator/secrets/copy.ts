// The copy of a source Secret in a tenant namespace: the source's type and data under the entry's
// name, and an annotation naming the source. The copy's spec-hash annotation (desired.ts) covers
// the values, so a copy that already holds them is recognised from its cached metadata alone and
// costs no write. Pure.
import type { V1Secret } from '@kubernetes/client-node';
import type { SourceSecret } from './sources.js';

/** On each copy: "namespace/name" of the Secret it was copied from, for people and `kubectl describe`. */
export const SOURCE_ANNOTATION = 'landlord.dev/secret-source';

/** The type a Secret has when its manifest names none. */
const DEFAULT_TYPE = 'Opaque';

export function secretCopy(
  target: { name: string; namespace: string },
  source: { namespace: string; name: string },
  secret: SourceSecret,
): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: target.name,
      namespace: target.namespace,
      annotations: { [SOURCE_ANNOTATION]: `${source.namespace}/${source.name}` },
    },
    type: secret.type === '' ? DEFAULT_TYPE : secret.type,
    data: { ...secret.data },
  };
}
