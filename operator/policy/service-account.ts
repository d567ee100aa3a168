// A pod acts with the rights of its ServiceAccount. In a shared namespace every ServiceAccount but
// `default` was made for someone else (another tenant, a platform component), so a row may not name
// one; and whether a token is mounted at all is the class's choice, which landlord sets on the pod
// template (see class-fields.ts), so a row that asks otherwise is told rather than overridden.
import type { V1PodSpec } from '@kubernetes/client-node';
import { isUnset, quote } from './json.js';
import type { RuleContext } from './pod-rule.js';
import type { Violation } from './pss-pod.js';

const DEFAULT_ACCOUNT = 'default';

export function serviceAccountViolation(spec: V1PodSpec, context: RuleContext): Violation | undefined {
  return accountViolation(spec, context) ?? automountViolation(spec, context);
}

function accountViolation(spec: V1PodSpec, { tenantClass }: RuleContext): Violation | undefined {
  if (tenantClass.mode !== 'Shared') return undefined;
  // serviceAccount is the deprecated spelling of serviceAccountName; the API server honours either.
  for (const field of ['serviceAccountName', 'serviceAccount'] as const) {
    const name = spec[field];
    if (isUnset(name) || name === '' || name === DEFAULT_ACCOUNT) continue;
    return {
      path: `spec.${field}`,
      problem: `the ServiceAccount ${quote(name)} is not allowed: in a shared namespace a pod runs as the namespace's "default" ServiceAccount`,
      fix: `remove ${field} (or set it to "default")`,
    };
  }
  return undefined;
}

function automountViolation(spec: V1PodSpec, { tenantClass }: RuleContext): Violation | undefined {
  const wanted = tenantClass.serviceAccount.automountToken;
  const asked = spec.automountServiceAccountToken;
  if (isUnset(asked) || asked === wanted) return undefined;
  return {
    path: 'spec.automountServiceAccountToken',
    problem: `${String(asked)} is not allowed: the tenant's class sets it to ${String(wanted)}`,
    fix: 'remove it; landlord sets it from the class',
  };
}
