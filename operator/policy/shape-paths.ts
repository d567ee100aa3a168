// ajv names a failing field by JSON Pointer (/spec/template/spec/containers/0/image); messages use
// the path a human writes (spec.deployment.spec.template.spec.containers[0].image).
import type { ErrorObject } from 'ajv';
import { fieldPath, indexPath, isRecord } from './json.js';

export function errorPath(base: string, error: ErrorObject, root: unknown): string {
  const path = pointerPath(base, error.instancePath, root);
  // propertyNames failures point at the map; the key at fault is the more useful place.
  const key = error.propertyName ?? (isRecord(error.params) ? error.params.propertyName : undefined);
  return typeof key === 'string' ? fieldPath(path, key) : path;
}

function pointerPath(base: string, pointer: string, root: unknown): string {
  if (pointer === '') return base;
  let path = base;
  let node = root;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    // Only the data knows whether "0" is a list index or a map key such as a label named "0".
    path = Array.isArray(node) ? indexPath(path, Number(key)) : fieldPath(path, key);
    node = step(node, key);
  }
  return path;
}

function step(node: unknown, key: string): unknown {
  if (Array.isArray(node)) return node[Number(key)] as unknown;
  return isRecord(node) ? node[key] : undefined;
}
