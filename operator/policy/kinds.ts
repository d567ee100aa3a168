// Only apps/v1 Deployments and v1 ConfigMaps may be children: a row must not become a way to create
// RBAC objects, Secrets or anything cluster-scoped. Checked before the rest of the shape, so a
// ClusterRole is refused as the wrong kind, not as a ConfigMap with odd fields.
import { childName, type Child, type ChildKind } from './children.js';
import { isRecord, plain } from './json.js';
import { refusal, type Refusal } from './refusals.js';

const EXPECTED: Record<ChildKind, { apiVersion: string; kind: string; fix: string }> = {
  Deployment: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    fix: "spec.deployment (the row's spec) must be an apps/v1 Deployment",
  },
  ConfigMap: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    fix: "remove it from spec.configMaps (the row's customizations), or make it a v1 ConfigMap",
  },
};

export function checkKinds(children: readonly Child[]): Refusal | undefined {
  for (const child of children) {
    const found = foreignKind(child);
    if (found !== undefined) return refusal.kindNotAllowed(child.path, found, EXPECTED[child.kind].fix);
  }
  return undefined;
}

/** What the child says it is, when that is not what its slot allows; undefined when it fits. */
function foreignKind(child: Child): string | undefined {
  // A missing or non-string kind is a shape problem, reported by the shape check with its path.
  if (!isRecord(child.value) || typeof child.value.kind !== 'string') return undefined;
  const { apiVersion, kind } = child.value;
  const expected = EXPECTED[child.kind];
  const apiVersionFits = typeof apiVersion !== 'string' || apiVersion === expected.apiVersion;
  if (kind === expected.kind && apiVersionFits) return undefined;
  const type = typeof apiVersion === 'string' ? `${plain(apiVersion)} ${plain(kind)}` : plain(kind);
  const name = childName(child.value);
  return name === undefined ? type : `${type} ${name}`;
}
