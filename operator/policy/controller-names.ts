// A child named as an object a controller writes in every namespace (kube-root-ca.crt) would be
// rewritten by landlord and by that controller in turn, forever. Refused by name alone, before
// anything is applied, so the outcome never depends on which of the two wrote first.
import { controllerOwnerOf } from '../../api/controller-names.js';
import { allChildren, placeIn, type ValidChildren } from './children.js';
import { refusal, type Refusal } from './refusals.js';

export function checkControllerNames(children: ValidChildren): Refusal | undefined {
  for (const child of allChildren(children)) {
    const name = child.value.metadata?.name ?? '';
    const owner = controllerOwnerOf(child.kind, name);
    if (owner !== undefined)
      return refusal.forbiddenName(placeIn(child, `${child.path}.metadata.name`), owner);
  }
  return undefined;
}
