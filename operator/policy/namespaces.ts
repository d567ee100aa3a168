// Shared: children live only in namespaces the operator may manage (namespaces/rules.ts): never a
// Kubernetes system namespace, never the operator's own (its Lease and its own pods live there), and
// only those the config allows.
import { describeAllowed, namespaceProblem } from '../namespaces/rules.js';
import { allChildren, placeIn, type ValidChildren } from './children.js';
import type { PolicyConfig } from './config.js';
import { quote } from './json.js';
import { refusal, type Refusal } from './refusals.js';

export function checkNamespaces(children: ValidChildren, config: PolicyConfig): Refusal | undefined {
  for (const child of allChildren(children)) {
    const namespace = child.value.metadata?.namespace ?? '';
    const why = namespaceProblem(namespace, 'children', config);
    if (why !== undefined) {
      const at = placeIn(child, `${child.path}.metadata.namespace`);
      return refusal.namespaceNotAllowed(at, quote(namespace), why, describeAllowed(config));
    }
  }
  return undefined;
}
