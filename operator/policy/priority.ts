// Priority decides whose pods the scheduler evicts when nodes are full: a row that named
// system-node-critical would push out the cluster's own components. Only the class's priority
// classes may be named, and the number itself is the API server's to fill in from the class.
import type { V1PodSpec } from '@kubernetes/client-node';
import { isUnset, quote } from './json.js';
import type { RuleContext } from './pod-rule.js';
import type { Violation } from './pss-pod.js';

export function priorityViolation(spec: V1PodSpec, { tenantClass }: RuleContext): Violation | undefined {
  if (!isUnset(spec.priority)) {
    return {
      path: 'spec.priority',
      problem: 'must not be set',
      fix: 'remove it; the API server sets it from priorityClassName',
    };
  }
  const name = spec.priorityClassName;
  const allowed = tenantClass.limits.allowedPriorityClasses;
  if (isUnset(name) || name === '' || allowed.includes(name)) return undefined;
  return {
    path: 'spec.priorityClassName',
    problem: `the PriorityClass ${quote(name)} is not allowed`,
    fix:
      allowed.length === 0
        ? "remove it; the tenant's class allows no PriorityClass"
        : `remove it, or use one the tenant's class allows: ${allowed.map(quote).join(', ')}`,
  };
}
