// Metadata landlord or Kubernetes owns. The reconciler sets ownerReferences and its own labels on
// every child; a manifest that set them could adopt another object, hide from pruning or pose as
// landlord's. Controllers and kubectl write keys of their own (a Deployment's revision, a pod's
// template hash): a row that set one would have landlord write it back after every controller
// update, a write loop without end.
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { LABEL } from '../../api/tenant.js';
import { allChildren, placeIn, type Child, type ValidChildren } from './children.js';
import { fieldPath, isUnset, quote } from './json.js';
import { refusal, type Refusal } from './refusals.js';

const RESERVED_PREFIX = 'landlord.dev/';

/** Label and annotation keys Kubernetes controllers or kubectl set on live objects. */
const KUBERNETES_PREFIXES: readonly string[] = ['deployment.kubernetes.io/'];
const KUBERNETES_KEYS: ReadonlySet<string> = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  'kubectl.kubernetes.io/restartedAt',
  'pod-template-hash',
  'pod-template-generation',
  'controller-revision-hash',
  'controller-uid',
  'batch.kubernetes.io/controller-uid',
  'statefulset.kubernetes.io/pod-name',
  'apps.kubernetes.io/pod-index',
  'kubernetes.io/config.mirror',
  'kubernetes.io/config.hash',
]);

/** Fields the API server or landlord set; a manifest that carries them was copied from a live object. */
const OWNED_FIELDS: readonly { field: keyof V1ObjectMeta; why: string }[] = [
  { field: 'ownerReferences', why: 'it points every child at its Tenant' },
  { field: 'finalizers', why: 'children go away with their Tenant, through ownerReferences' },
  { field: 'resourceVersion', why: 'the API server sets it on the live object' },
  { field: 'uid', why: 'the API server sets it on the live object' },
  { field: 'managedFields', why: 'server-side apply records them on the live object' },
];

interface MetadataProblem {
  path: string;
  problem: string;
  fix: string;
}

export function checkMetadata(children: ValidChildren): Refusal | undefined {
  const deployment = children.deployment;
  const places: { child: Child; path: string; metadata: V1ObjectMeta | undefined }[] = [
    ...allChildren(children).map((child) => ({ child, path: child.path, metadata: child.value.metadata })),
    {
      child: deployment,
      path: `${deployment.path}.spec.template`,
      metadata: deployment.value.spec?.template.metadata,
    },
  ];
  for (const { child, path, metadata } of places) {
    const found = metadataProblem(metadata, fieldPath(path, 'metadata'));
    if (found !== undefined) {
      return refusal.forbiddenMetadata(placeIn(child, found.path), found.problem, found.fix);
    }
  }
  return undefined;
}

function metadataProblem(metadata: V1ObjectMeta | undefined, path: string): MetadataProblem | undefined {
  if (isUnset(metadata)) return undefined;
  return (
    ownedFieldProblem(metadata, path) ??
    reservedKeyProblem(metadata.labels, fieldPath(path, 'labels'), 'label') ??
    reservedKeyProblem(metadata.annotations, fieldPath(path, 'annotations'), 'annotation')
  );
}

function ownedFieldProblem(metadata: V1ObjectMeta, path: string): MetadataProblem | undefined {
  for (const { field, why } of OWNED_FIELDS) {
    if (isSet(metadata[field])) {
      return {
        path: fieldPath(path, field),
        problem: 'must not be set',
        fix: `landlord owns ${field} (${why}); remove it`,
      };
    }
  }
  return undefined;
}

function reservedKeyProblem(
  map: Record<string, string> | undefined,
  path: string,
  what: 'label' | 'annotation',
): MetadataProblem | undefined {
  if (isUnset(map)) return undefined;
  // Sorted, so the same manifest always names the same key whatever order its map arrived in.
  const keys = Object.keys(map).sort();
  const landlords = keys.find((k) => isReserved(k, what));
  if (landlords !== undefined) {
    return {
      path: fieldPath(path, landlords),
      problem: `the ${what} ${quote(landlords)} is reserved for landlord`,
      fix: 'landlord sets its own labels and annotations on the children it manages; remove it',
    };
  }
  const kubernetes = keys.find(isKubernetesKey);
  if (kubernetes === undefined) return undefined;
  return {
    path: fieldPath(path, kubernetes),
    problem: `the ${what} ${quote(kubernetes)} is set by Kubernetes controllers or kubectl on live objects`,
    fix: 'a manifest copied from a live object carries it; remove it',
  };
}

function isKubernetesKey(key: string): boolean {
  return KUBERNETES_KEYS.has(key) || KUBERNETES_PREFIXES.some((prefix) => key.startsWith(prefix));
}

function isReserved(key: string, what: 'label' | 'annotation'): boolean {
  return key.startsWith(RESERVED_PREFIX) || (what === 'label' && key === LABEL.managedBy);
}

/** Empty values say nothing, and tools that export manifests often leave them in. */
function isSet(value: unknown): boolean {
  if (isUnset(value) || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}
