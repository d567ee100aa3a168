// Which TenantClass a Tenant is under. Pure: the classes come from the operator's watch cache.
//
// A row that names a class gets that class. A row that names none gets the class annotated
// landlord.dev/is-default-class: "true", once: the operator records it in status.class, and from
// then on the Tenant keeps it (as a PersistentVolumeClaim keeps the StorageClass it was given),
// even when the annotation moves to another class. A class going away therefore never moves a
// tenant somewhere else (from its own namespace into a shared one, pruning its children on the
// way): while the class it is under is missing, the Tenant is refused with ClassNotFound and its
// running children stay as they are, until an admin recreates the class or the row names one.
// Only a Tenant under the built-in class (no default class existed when it was first applied)
// follows the default as it appears: that is how an install adopts a default class.
import {
  BUILT_IN_CLASS_NAME,
  isDefaultClass,
  resolvedClass,
  type ClassPolicy,
  type TenantClass,
} from '../../api/tenantclass.js';
import type { Tenant } from '../../api/tenant.js';
import { OPERATOR_REASON, type ClassFailureReason } from '../reasons.js';

interface ClassRefusal {
  reason: ClassFailureReason;
  message: string;
}

export type ClassResolution = { ok: true; policy: ClassPolicy } | { ok: false; refusal: ClassRefusal };

/** Fixed texts (no counts, no times), so an unchanged refusal never rewrites status. */
export const CLASS_MESSAGE = {
  named: (name: string): string =>
    `the row names TenantClass ${name}, which does not exist: create it (kubectl get tc lists the classes) or change the row's class; nothing is applied or pruned meanwhile`,
  kept: (name: string): string =>
    `TenantClass ${name}, the default class this tenant was given, does not exist any more: recreate it, or name a class in the row's class attribute; the tenant is not moved to another class on its own, and nothing is applied or pruned meanwhile`,
  ambiguous: (names: readonly string[]): string =>
    `${names.length} TenantClasses are annotated landlord.dev/is-default-class=true (${names.join(', ')}): keep the annotation on one, or name a class in the row's class attribute`,
} as const;

/** The class a Tenant is under, or why none can be chosen. `builtIn` applies when no class is default. */
export function resolveClass(
  tenant: Tenant,
  classes: readonly TenantClass[],
  builtIn: ClassPolicy,
): ClassResolution {
  const named = nonEmpty(tenant.spec?.class);
  if (named !== undefined) return byName(classes, named, CLASS_MESSAGE.named);
  const kept = keptClass(tenant);
  if (kept !== undefined) return byName(classes, kept, CLASS_MESSAGE.kept);
  const defaults = classes.filter(isDefaultClass);
  if (defaults.length > 1) {
    const names = defaults.map(nameOf).sort();
    return {
      ok: false,
      refusal: { reason: OPERATOR_REASON.ambiguousDefaultClass, message: CLASS_MESSAGE.ambiguous(names) },
    };
  }
  return { ok: true, policy: defaults.length === 1 ? policyOf(defaults[0]!) : builtIn };
}

/** The TenantClass a Tenant without spec.class was given before: it stays under it. */
export function keptClass(tenant: Tenant): string | undefined {
  if (nonEmpty(tenant.spec?.class) !== undefined) return undefined;
  const recorded = nonEmpty(tenant.status?.class);
  return recorded === BUILT_IN_CLASS_NAME ? undefined : recorded;
}

/** The class as the operator reads it: every default filled in. */
export function policyOf(tc: TenantClass): ClassPolicy {
  return resolvedClass(nameOf(tc), tc.metadata.generation ?? 0, tc.spec ?? {});
}

function byName(
  classes: readonly TenantClass[],
  name: string,
  missing: (name: string) => string,
): ClassResolution {
  const found = classes.find((tc) => nameOf(tc) === name);
  if (found !== undefined) return { ok: true, policy: policyOf(found) };
  return { ok: false, refusal: { reason: OPERATOR_REASON.classNotFound, message: missing(name) } };
}

const nameOf = (tc: TenantClass): string => tc.metadata.name ?? '';

/** The API server admits only strings here; anything else or "" reads as unset. */
function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
