// Pod Security Standards on the Deployment's pod template. Admission would refuse such pods too,
// but only once the Deployment exists and its ReplicaSet fails to create them, which nobody reads;
// refusing the spec puts the reason on the Tenant.
import type { V1Deployment } from '@kubernetes/client-node';
import { placeIn, type Child } from './children.js';
import type { PodSecurityLevel } from './config.js';
import { isUnset } from './json.js';
import { BASELINE_CHECKS } from './pss-baseline.js';
import type { Check, PodTemplate, Violation } from './pss-pod.js';
import { RESTRICTED_ONLY_CHECKS } from './pss-restricted.js';
import { refusal, type Refusal } from './refusals.js';

const RESTRICTED_CHECKS: readonly Check[] = [...BASELINE_CHECKS, ...RESTRICTED_ONLY_CHECKS];

export function checkPodSecurity(
  deployment: Child<V1Deployment>,
  level: PodSecurityLevel,
): Refusal | undefined {
  const template = deployment.value.spec?.template;
  if (isUnset(template) || isUnset(template.spec)) return undefined;
  const pod: PodTemplate = { spec: template.spec, annotations: template.metadata?.annotations ?? {} };
  const violation = podSecurityViolation(pod, level);
  if (violation === undefined) return undefined;
  const at = placeIn(deployment, `${deployment.path}.spec.template.${violation.path}`);
  return refusal.podSecurity(at, level, violation.problem, violation.fix);
}

/** The first rule of `level` the pod template breaks, in the Standards' own order. */
function podSecurityViolation(pod: PodTemplate, level: PodSecurityLevel): Violation | undefined {
  for (const check of checksFor(level)) {
    const violation = check(pod);
    if (violation !== undefined) return violation;
  }
  return undefined;
}

function checksFor(level: PodSecurityLevel): readonly Check[] {
  if (level === 'privileged') return [];
  // Anything but the two known names gets baseline: a typo in the config must not mean "no checks".
  return level === 'restricted' ? RESTRICTED_CHECKS : BASELINE_CHECKS;
}
