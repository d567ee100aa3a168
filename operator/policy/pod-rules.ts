// The rules on the Deployment's pod template that are not Pod Security: what a pod may run as, may
// reach, may take, where it may run and what of a node it may hold. Each rule reports the first field at fault in a fixed
// order, so the same template always gets the same message.
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { placeIn, type Child, type ValidChildren } from './children.js';
import type { ClassPolicy } from './class.js';
import { isUnset } from './json.js';
import { placementViolation } from './placement.js';
import { podFieldViolation, podLimitViolation, volumeViolation } from './pod-resources.js';
import type { PodRule } from './pod-rule.js';
import { priorityViolation } from './priority.js';
import { referenceViolation } from './references.js';
import { refusal, REFUSAL_REASON, type PodRuleReason, type Refusal } from './refusals.js';
import { serviceAccountViolation } from './service-account.js';

const RULES: readonly { reason: PodRuleReason; rule: PodRule }[] = [
  { reason: REFUSAL_REASON.serviceAccountNotAllowed, rule: serviceAccountViolation },
  { reason: REFUSAL_REASON.referenceNotAllowed, rule: referenceViolation },
  { reason: REFUSAL_REASON.priorityNotAllowed, rule: priorityViolation },
  { reason: REFUSAL_REASON.placementNotAllowed, rule: placementViolation },
  { reason: REFUSAL_REASON.invalidSpec, rule: podFieldViolation },
  { reason: REFUSAL_REASON.limitExceeded, rule: podLimitViolation },
  { reason: REFUSAL_REASON.volumeNotAllowed, rule: volumeViolation },
];

export function checkPodRules(children: ValidChildren, tenantClass: ClassPolicy): Refusal | undefined {
  const { deployment } = children;
  const spec = deployment.value.spec?.template.spec;
  if (isUnset(spec)) return undefined;
  const context = { tenantClass, ownConfigMaps: ownConfigMaps(deployment, children.configMaps) };
  for (const { reason, rule } of RULES) {
    const violation = rule(spec, context);
    if (violation !== undefined) {
      const at = placeIn(deployment, `${deployment.path}.spec.template.${violation.path}`);
      return refusal.podRule(reason, at, violation.problem, violation.fix);
    }
  }
  return undefined;
}

function ownConfigMaps(
  deployment: Child<V1Deployment>,
  configMaps: readonly Child<V1ConfigMap>[],
): ReadonlySet<string> {
  const namespace = deployment.value.metadata?.namespace;
  return new Set(
    configMaps
      .filter((c) => c.value.metadata?.namespace === namespace)
      .map((c) => c.value.metadata?.name ?? ''),
  );
}
