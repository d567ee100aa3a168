// The children a Tenant asks for, each with the path it came from, so every message can point at it.
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { indexPath, isRecord, plain } from './json.js';
import type { Place } from './refusals.js';

export type ChildKind = 'Deployment' | 'ConfigMap';

export interface Child<T = unknown> {
  kind: ChildKind;
  /** Where in the Tenant the manifest sits: `spec.deployment`, `spec.configMaps[2]`. */
  path: string;
  value: T;
}

/** Children whose shape has been checked; later checks rely on the fields the schema covers. */
export interface ValidChildren {
  deployment: Child<V1Deployment>;
  configMaps: Child<V1ConfigMap>[];
}

export const DEPLOYMENT_PATH = 'spec.deployment';
export const CONFIG_MAPS_PATH = 'spec.configMaps';

export function deploymentChild(value: unknown): Child {
  return { kind: 'Deployment', path: DEPLOYMENT_PATH, value };
}

/** The ConfigMap children, or none when the list is absent or not a list (the shape check says so). */
export function configMapChildren(list: unknown): Child[] {
  if (!Array.isArray(list)) return [];
  const children: Child[] = [];
  // An index loop, not forEach: a hole in the list must still be reported as a bad entry.
  for (let i = 0; i < list.length; i++) {
    children.push({ kind: 'ConfigMap', path: indexPath(CONFIG_MAPS_PATH, i), value: list[i] as unknown });
  }
  return children;
}

export function allChildren(children: ValidChildren): Child<V1Deployment | V1ConfigMap>[] {
  return [children.deployment, ...children.configMaps];
}

/** `team-a/web`, `web`, or undefined when the manifest has no usable name. */
export function childName(value: unknown): string | undefined {
  const metadata = isRecord(value) ? value.metadata : undefined;
  if (!isRecord(metadata) || typeof metadata.name !== 'string') return undefined;
  const name = plain(metadata.name);
  return typeof metadata.namespace === 'string' ? `${plain(metadata.namespace)}/${name}` : name;
}

/** The child named as a human reads it: `Deployment team-a/web`. */
function describeChild(child: Child): string {
  return `${child.kind} ${childName(child.value) ?? '(unnamed)'}`;
}

/** A field of a child, for a refusal message. */
export function placeIn(child: Child, path: string): Place {
  return { child: describeChild(child), path };
}
