// The databases facet's side effect: for each database whose Secret the caches do not hold with the
// right annotation, make the database and its role on the server and the Secret that proves it. A
// tenant whose Secrets are all there costs no call to the server or the API (steady state). The
// password is made here, once per Secret: it is never logged, and leaves only inside the Secret.
import { randomBytes } from 'node:crypto';
import { DATABASE_ANNOTATION, databaseProof, type TenantDatabase } from '../../api/databases.js';
import { readAdminConnection } from '../../runtime/sql/admin.js';
import { classify, SqlError } from '../../runtime/sql/errors.js';
import { childRef } from '../child-ref.js';
import { withOwnership, type DesiredChild } from '../desired.js';
import type { Acted, Effects, FacetInput } from '../facets/contract.js';
import { DATABASES_REASON } from './reasons.js';
import { ensureDatabase } from './create.js';
import { MAKES_DATABASES, type DatabaseProblem, type DatabasesDecision } from './decision.js';
import { databaseSecret } from './secret.js';

/** 32 random bytes: a password no one guesses, in characters every driver and URL take as they are. */
const newPassword = (): string => randomBytes(32).toString('base64url');

export async function actOnDatabases(
  decision: DatabasesDecision,
  input: FacetInput,
  effects: Effects,
): Promise<Acted<DatabasesDecision>> {
  const children: DesiredChild[] = [];
  const problems: DatabaseProblem[] = [...decision.problems];
  let retry: Acted<DatabasesDecision>['retry'];
  for (const target of decision.databases) {
    if (made(target, decision.namespace, effects)) continue;
    if (!MAKES_DATABASES.has(decision.state)) {
      const message = `database ${target.entry}: not made while the tenant is ${decision.state}`;
      problems.push({ entry: target.entry, reason: DATABASES_REASON.notInState, message });
      continue;
    }
    try {
      children.push(await makeDatabase(target, decision.namespace, input, effects));
    } catch (err) {
      const failed = err instanceof SqlError ? err : unreadable(err);
      const message = `database ${target.entry} (${target.database}): ${failed.message}`;
      problems.push({ entry: target.entry, reason: failed.failure, message });
      if (failed.retry) retry ??= { reason: failed.failure, message };
    }
  }
  return {
    decision: { ...decision, problems, acted: true },
    children,
    ...(retry === undefined ? {} : { retry }),
  };
}

/** The Secret the caches hold proves the database and role were made (its values are not read). */
function made(target: TenantDatabase, namespace: string, effects: Effects): boolean {
  const cached = effects.read(childRef('Secret', namespace, target.secretName));
  return cached?.metadata?.annotations?.[DATABASE_ANNOTATION] === databaseProof(target);
}

async function makeDatabase(
  target: TenantDatabase,
  namespace: string,
  input: FacetInput,
  effects: Effects,
): Promise<DesiredChild> {
  const admin = await readAdminConnection(effects.api, effects.namespace, target.adminSecret);
  const password = newPassword();
  await ensureDatabase(admin, target, password);
  return withOwnership(databaseSecret(target, namespace, admin, password), input.tenant, 'Secret');
}

/** The admin Secret could not be read (the API server failed): retried, as any transient fault. */
function unreadable(err: unknown): SqlError {
  const classified = classify(err);
  return new SqlError(classified.failure, `could not read the admin Secret: ${classified.message}`);
}
