// The "{id}" of a namespace name template: a warm pool member gets a random one (it is made before
// any tenant exists), a tenant made cold gets one derived from its uid. Derived, not random, so a
// reconcile that runs again before the watch shows the namespace it made (or after a restart)
// computes the same name and applies the same object, instead of making a second namespace.
import { createHash, randomInt } from 'node:crypto';
import { ID_PLACEHOLDER } from '../../api/tenantclass.js';
import { isDns1123Label } from '../../util/names.js';
import { placeholderValue } from './template-match.js';

/** 36^8 ≈ 2.8e12 names: a collision between members is a 409 on create, retried with another id. */
export const ID_LENGTH = 8;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A member's id: lowercase base36, DNS-safe wherever a template puts it. */
export function randomId(): string {
  let id = '';
  for (let i = 0; i < ID_LENGTH; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** A cold tenant's id: the same for the same Tenant (uid), so making its namespace is idempotent. */
export function coldId(uid: string): string {
  const digest = createHash('sha256').update(uid).digest();
  let id = '';
  for (let i = 0; i < ID_LENGTH; i++) id += ALPHABET[digest[i]! % ALPHABET.length];
  return id;
}

/**
 * The id a template gave this namespace name; undefined when the template cannot make the name
 * (the class's template changed since) or the id would not be one an id can be.
 */
export function idFor(template: string, namespace: string): string | undefined {
  const id = placeholderValue(template, ID_PLACEHOLDER, namespace);
  // '' (a template without "{id}") is no label, so it is never taken for an id.
  return id !== undefined && isDns1123Label(id) ? id : undefined;
}

/** Whether the template names namespaces by "{id}". */
export const usesId = (template: string): boolean => template.includes(ID_PLACEHOLDER);
