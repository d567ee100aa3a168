// Two ConfigMaps with one namespace/name would be applied in turn, each undoing the other on every
// reconcile; refuse the spec instead of letting the last one silently win.
import { placeIn, type ValidChildren } from './children.js';
import { refusal, type Refusal } from './refusals.js';

export function checkDuplicates(children: ValidChildren): Refusal | undefined {
  const firstPathByKey = new Map<string, string>();
  for (const child of children.configMaps) {
    const key = `${child.value.metadata?.namespace ?? ''}/${child.value.metadata?.name ?? ''}`;
    const firstPath = firstPathByKey.get(key);
    if (firstPath !== undefined) return refusal.duplicateChild(placeIn(child, child.path), firstPath);
    firstPathByKey.set(key, child.path);
  }
  return undefined;
}
