// Which Tenants a TenantClass change concerns. Pure. Watch events only say which class to look at;
// what the operator remembers of each class (its generation and whether it is the default) tells
// whether anything a Tenant reads changed, and the Tenants' spec.class and status.class say whose.
import { isDefaultClass, type TenantClass } from '../../api/tenantclass.js';
import type { Tenant } from '../../api/tenant.js';
import { tenantsUnder } from './resolve-class.js';

/** What a Tenant reads of a class: its spec (by generation) and whether it is the default. */
export interface ClassMark {
  generation: number | undefined;
  isDefault: boolean;
}

export function classMark(tc: TenantClass): ClassMark {
  return { generation: tc.metadata.generation, isDefault: isDefaultClass(tc) };
}

export interface ClassChange {
  name: string;
  /** The set of default classes changed: Tenants that follow the default must look again. */
  defaultsChanged: boolean;
}

/**
 * What changed between two sightings of a class (undefined: absent), or undefined when nothing a
 * Tenant reads did (a label edit, a status-free resync of the same object).
 */
export function classChange(
  name: string,
  before: ClassMark | undefined,
  after: ClassMark | undefined,
): ClassChange | undefined {
  const wasDefault = before?.isDefault ?? false;
  const isDefault = after?.isDefault ?? false;
  const sameSpec = before !== undefined && after !== undefined && before.generation === after.generation;
  if (sameSpec && wasDefault === isDefault) return undefined;
  return { name, defaultsChanged: wasDefault || isDefault };
}

/**
 * The Tenants a change concerns, sorted: those under the class, and, when the defaults changed,
 * those that follow the default (tenantsUnder).
 */
export function tenantsOfClass(tenants: readonly Tenant[], change: ClassChange): string[] {
  return tenantsUnder(tenants, change.name, change.defaultsChanged)
    .map((t) => t.metadata.name ?? '')
    .sort();
}

/**
 * When each of `count` Tenants is due, at `perSecond` at most: a class edit reaches its Tenants
 * spread out, not in one burst of reconciles and writes.
 */
export function spreadDelays(count: number, perSecond: number): number[] {
  const spacing = 1000 / perSecond;
  return Array.from({ length: count }, (_, i) => Math.floor(i * spacing));
}
