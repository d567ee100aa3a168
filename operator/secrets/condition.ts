// The SecretsReady condition: True when every entry of the class is in the tenant namespace, else
// False with the first problem's reason and every problem's message (names only, never a value).
// Absent for a class without secrets, so Tenants of other classes keep the status they had. Pure.
import type { ConditionInput } from '../../api/conditions.js';
import { CONDITION } from '../../api/tenant.js';
import type { ChildRef } from '../child-ref.js';
import { SECRETS_REASON } from './reasons.js';
import type { SecretsWanted } from './wanted.js';

/**
 * `external` is what ESO says of each ExternalSecret applied (external.ts, externalProblem):
 * undefined when Ready, else why not.
 */
export function secretsCondition(
  wanted: SecretsWanted | undefined,
  namespace: string | undefined,
  external: (ref: ChildRef) => string | undefined = () => undefined,
): ConditionInput | undefined {
  if (wanted === undefined || wanted.names.length === 0) return undefined;
  const type = CONDITION.secretsReady;
  const problems: { reason: string; message: string }[] = [...wanted.problems];
  for (const ref of wanted.externals) {
    const problem = external(ref);
    if (problem === undefined) continue;
    const message = `secret ${ref.name}: ExternalSecret ${ref.namespace}/${ref.name} ${problem}`;
    problems.push({ reason: SECRETS_REASON.externalSecretNotReady, message });
  }
  const [first] = problems;
  if (first !== undefined) {
    const message = problems.map((p) => p.message).join('; ');
    return { type, status: 'False', reason: first.reason, message };
  }
  const count = wanted.names.length;
  const message = `${count} secret${count === 1 ? '' : 's'} in namespace ${namespace ?? ''}: ${wanted.names.join(', ')}`;
  return { type, status: 'True', reason: SECRETS_REASON.ready, message };
}
