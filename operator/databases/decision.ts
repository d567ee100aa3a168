// What a class's `databases` come to for one tenant, before and after the reconcile's effects, and
// the DatabasesReady condition read from it. Pure.
import type { ConditionInput } from '../../api/conditions.js';
import { tenantDatabase, type TenantDatabase } from '../../api/databases.js';
import type { ClassDatabase } from '../../api/tenantclass.js';
import { CONDITION, type TenantState } from '../../api/tenant.js';
import { DATABASES_REASON } from './reasons.js';

export interface DatabaseProblem {
  entry: string;
  reason: string;
  message: string;
}

export interface DatabasesDecision {
  /** PerTenant: the tenant's namespace, where the Secrets go. */
  namespace: string;
  state: TenantState;
  /** The databases the class's entries name, in its order (those whose names are usable). */
  databases: readonly TenantDatabase[];
  /** Entries that cannot be made, and, once acted, the steps that failed. */
  problems: readonly DatabaseProblem[];
  /** Whether the reconcile's effects ran (plan and validate never run them). */
  acted: boolean;
}

/** The states in which a database not made yet is made: the tenant runs, or may again at once. */
export const MAKES_DATABASES: ReadonlySet<TenantState> = new Set<TenantState>(['active', 'suspended']);

/** The class's entries for a tenant; undefined when the class has none. */
export function decideDatabases(
  entries: readonly ClassDatabase[],
  tenantName: string,
  namespace: string | undefined,
  state: TenantState,
): DatabasesDecision | undefined {
  if (entries.length === 0) return undefined;
  if (namespace === undefined) {
    const message =
      'a Shared class cannot give databases: the tenant has no namespace of its own for their Secrets';
    const problems = entries.map((e) => ({ entry: e.name, reason: DATABASES_REASON.notAllowed, message }));
    return { namespace: '', state, databases: [], problems, acted: false };
  }
  const databases: TenantDatabase[] = [];
  const problems: DatabaseProblem[] = [];
  for (const entry of entries) {
    const named = tenantDatabase(entry, tenantName);
    if (named.ok) databases.push(named.database);
    else problems.push({ entry: entry.name, reason: DATABASES_REASON.invalidName, message: named.message });
  }
  return { namespace, state, databases, problems, acted: false };
}

/**
 * True when every entry has its Secret, else False with the first problem's reason and every
 * problem's message (names and reasons only: never a value of a Secret).
 */
export function databasesCondition(decision: DatabasesDecision | undefined): ConditionInput | undefined {
  if (decision === undefined || !decision.acted) return undefined;
  const type = CONDITION.databasesReady;
  const [first] = decision.problems;
  if (first !== undefined) {
    const message = decision.problems.map((p) => p.message).join('; ');
    return { type, status: 'False', reason: first.reason, message };
  }
  const names = decision.databases.map((d) => `${d.entry} (${d.database}, Secret ${d.secretName})`);
  const count = names.length;
  const message = `${count} database${count === 1 ? '' : 's'}: ${names.join(', ')}`;
  return { type, status: 'True', reason: DATABASES_REASON.ready, message };
}
