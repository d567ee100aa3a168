// Which TenantClass a Tenant is under, and whether the Tenant may use it; the other way round, which
// Tenants a class has (tenantsUnder). Pure: the classes come from the operator's watch cache.
//
// A row that names a class gets that class, for as long as it names it. A row that names none gets
// the class annotated landlord.dev/is-default-class: "true", once: the operator records it in
// status.class (with status.classSource: Default), and from then on the Tenant keeps it (as a
// PersistentVolumeClaim keeps the StorageClass it was given), even when the annotation moves to
// another class. A class going away therefore never moves a tenant somewhere else (from its own
// namespace into a shared one, pruning its children on the way): while the class it is under is
// missing, the Tenant is refused with ClassNotFound and its running children stay as they are,
// until an admin recreates the class or the row names one. Only the default is kept so: a class the
// row named and then stopped naming is not (status.classSource: Row), so a row cannot pick a class
// once and keep it by dropping the attribute; it goes back to the default class.
// Only a Tenant under the built-in class follows the default as it appears: that is how an install
// adopts a default class. With no default class the built-in one is used only when the operator is
// configured so (LANDLORD_OPERATOR_BUILT_IN_CLASS); otherwise the Tenant waits with NoDefaultClass.
// Whatever the class, its allowedTables must include the table sync stamped on the Tenant
// (ANNOTATION.table; a row sets no metadata), or the Tenant is refused with ClassNotAllowed. The
// stamp counts only where sync wrote it (stampedBySync: sync's field manager owns it in
// managedFields): whoever may write Tenants can write the annotation too, and would otherwise pick
// any class's table. The shipped admission policy refuses the stamp from anyone but sync
// (docs/isolation.md, "A forged source table"); this check holds where it is not installed.
import {
  BUILT_IN_CLASS_NAME,
  isDefaultClass,
  policyOf,
  type ClassPolicy,
  type TenantClass,
} from '../../api/tenantclass.js';
import { stampedBySync } from '../../api/table-identity.js';
import { ANNOTATION, type ClassSource, type Tenant } from '../../api/tenant.js';
import { OPERATOR_REASON, type ClassFailureReason } from '../reasons.js';

interface ClassRefusal {
  reason: ClassFailureReason;
  message: string;
}

/** The class chosen, and how (status.classSource); or why none can be. */
export type ClassResolution =
  { ok: true; policy: ClassPolicy; source: ClassSource } | { ok: false; refusal: ClassRefusal };

/** Fixed texts (no counts, no times), so an unchanged refusal never rewrites status. */
export const CLASS_MESSAGE = {
  named: (name: string): string =>
    `the row names TenantClass ${name}, which does not exist: create it (kubectl get tc lists the classes) or change the row's class; nothing is applied or pruned meanwhile`,
  kept: (name: string): string =>
    `TenantClass ${name}, the default class this tenant was given, does not exist any more: recreate it, or name a class in the row's class attribute; the tenant is not moved to another class on its own, and nothing is applied or pruned meanwhile`,
  ambiguous: (names: readonly string[]): string =>
    `${names.length} TenantClasses are annotated landlord.dev/is-default-class=true (${names.join(', ')}): keep the annotation on one, or name a class in the row's class attribute`,
  notAllowed: (name: string, table: StampedTable): string => {
    if (table.kind === 'none')
      return `TenantClass ${name} allows only the rows of the tables in its allowedTables, and this Tenant was not made by sync from a table (no ${ANNOTATION.table} annotation): name another class; nothing is applied or pruned meanwhile`;
    if (table.kind === 'unproven')
      return `TenantClass ${name} allows only the rows of the tables in its allowedTables, and this Tenant's ${ANNOTATION.table} annotation was not written by landlord sync (its field manager does not own it): a table is trusted only from sync, so this Tenant has none; name another class; nothing is applied or pruned meanwhile`;
    return `TenantClass ${name} does not allow the rows of table ${table.table} (its allowedTables leaves it out): name a class this table may use, or ask a platform admin to add the table to the class's allowedTables; nothing is applied or pruned meanwhile`;
  },
  noDefault:
    "no TenantClass is annotated landlord.dev/is-default-class=true, and the operator is not configured to use the built-in class: annotate one (kubectl annotate tc <name> landlord.dev/is-default-class=true), name a class in the row's class attribute, or set LANDLORD_OPERATOR_BUILT_IN_CLASS=true; the tenant waits, and nothing is applied or pruned meanwhile",
} as const;

/**
 * The class a Tenant is under, or why none can be chosen. `builtIn` applies when no class is the
 * default; undefined: the operator is not configured to use it, and the Tenant waits.
 */
export function resolveClass(
  tenant: Tenant,
  classes: readonly TenantClass[],
  builtIn: ClassPolicy | undefined,
): ClassResolution {
  const chosen = chooseClass(tenant, classes, builtIn);
  return chosen.ok ? allowedFor(tenant, chosen) : chosen;
}

function chooseClass(
  tenant: Tenant,
  classes: readonly TenantClass[],
  builtIn: ClassPolicy | undefined,
): ClassResolution {
  const named = nonEmpty(tenant.spec?.class);
  if (named !== undefined) return byName(classes, named, 'Row');
  const kept = keptClass(tenant);
  if (kept !== undefined) return byName(classes, kept, 'Default');
  const defaults = classes.filter(isDefaultClass);
  if (defaults.length > 1) {
    const names = defaults.map(nameOf).sort();
    return refusal(OPERATOR_REASON.ambiguousDefaultClass, CLASS_MESSAGE.ambiguous(names));
  }
  if (defaults.length === 1) return { ok: true, policy: policyOf(defaults[0]!), source: 'Default' };
  if (builtIn !== undefined) return { ok: true, policy: builtIn, source: 'Default' };
  return refusal(OPERATOR_REASON.noDefaultClass, CLASS_MESSAGE.noDefault);
}

/** The chosen class, if its allowedTables lets in the table sync stamped on the Tenant. */
function allowedFor(tenant: Tenant, chosen: Extract<ClassResolution, { ok: true }>): ClassResolution {
  const allowed = chosen.policy.allowedTables;
  if (allowed === undefined) return chosen;
  const table = stampedTable(tenant);
  if (table.kind === 'stamped' && allowed.includes(table.table)) return chosen;
  return refusal(OPERATOR_REASON.classNotAllowed, CLASS_MESSAGE.notAllowed(chosen.policy.name, table));
}

/** The table a Tenant was made from, as far as the operator may trust it. */
type StampedTable =
  /** No table annotation: not made by sync from a table. */
  | { kind: 'none' }
  /** An annotation sync did not write (a person's, or a tool's): no table at all. */
  | { kind: 'unproven' }
  | { kind: 'stamped'; table: string };

function stampedTable(tenant: Tenant): StampedTable {
  const table = nonEmpty(tenant.metadata.annotations?.[ANNOTATION.table]);
  if (table === undefined) return { kind: 'none' };
  return stampedBySync(tenant) ? { kind: 'stamped', table } : { kind: 'unproven' };
}

const refusal = (reason: ClassFailureReason, message: string): ClassResolution => ({
  ok: false,
  refusal: { reason, message },
});

/** The built-in class when the operator is configured to fall back to it, else undefined. */
export function fallbackClass(config: {
  tenantClass: ClassPolicy;
  useBuiltInClass?: boolean;
}): ClassPolicy | undefined {
  return config.useBuiltInClass === true ? config.tenantClass : undefined;
}

/** The TenantClass a Tenant without spec.class was given before: it stays under it. */
export function keptClass(tenant: Tenant): string | undefined {
  if (nonEmpty(tenant.spec?.class) !== undefined) return undefined;
  // Recorded before classSource existed, or named by the row: not kept (the row chose, not the default).
  if (tenant.status?.classSource !== 'Default') return undefined;
  const recorded = nonEmpty(tenant.status?.class);
  return recorded === BUILT_IN_CLASS_NAME ? undefined : recorded;
}

/**
 * The Tenants under the class `name`, or that may be by their next reconcile: those whose row names
 * it, those status.class records under it, and, when it is the default class (or just stopped being
 * it), those that follow the default: no class of their own kept yet, or the built-in one. The one
 * answer to "whose class is this" for every change a class makes reach its Tenants (its own edits,
 * the sources its secrets copy); a Tenant too many costs a reconcile, one too few misses the change.
 */
export function tenantsUnder(tenants: readonly Tenant[], name: string, isDefault: boolean): Tenant[] {
  return tenants.filter(
    (t) => t.spec?.class === name || t.status?.class === name || (isDefault && followsDefault(t)),
  );
}

/** No class of its own: the row names none, and no default class was kept for it. */
function followsDefault(tenant: Tenant): boolean {
  return nonEmpty(tenant.spec?.class) === undefined && keptClass(tenant) === undefined;
}

function byName(classes: readonly TenantClass[], name: string, source: ClassSource): ClassResolution {
  const found = classes.find((tc) => nameOf(tc) === name);
  if (found !== undefined) return { ok: true, policy: policyOf(found), source };
  const missing = source === 'Row' ? CLASS_MESSAGE.named : CLASS_MESSAGE.kept;
  return refusal(OPERATOR_REASON.classNotFound, missing(name));
}

const nameOf = (tc: TenantClass): string => tc.metadata.name ?? '';

/** The API server admits only strings here; anything else or "" reads as unset. */
function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
