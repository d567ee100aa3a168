// Every refusal reason and every refusal message, in one place. Messages are for the humans who
// read `kubectl describe tenant`: they name the child, the field and what to change, and hold no
// timestamps or random text, so an unchanged problem never rewrites the Tenant's status.
import type { PodSecurityLevel } from './config.js';

export const REFUSAL_REASON = {
  specMissing: 'SpecMissing',
  invalidSpec: 'InvalidSpec',
  kindNotAllowed: 'KindNotAllowed',
  namespaceNotAllowed: 'NamespaceNotAllowed',
  forbiddenMetadata: 'ForbiddenMetadata',
  podSecurityViolation: 'PodSecurityViolation',
  duplicateChild: 'DuplicateChild',
} as const;

export type RefusalReason = (typeof REFUSAL_REASON)[keyof typeof REFUSAL_REASON];

export const REFUSAL_REASONS: readonly RefusalReason[] = Object.values(REFUSAL_REASON);

export interface Refusal {
  reason: RefusalReason;
  message: string;
}

/** Where a problem is: the child it belongs to ("Deployment team-a/web") and the field's path. */
export interface Place {
  child: string;
  path: string;
}

function refuse(reason: RefusalReason, message: string): Refusal {
  return { reason, message };
}

export const refusal = {
  specMissing: (): Refusal =>
    refuse(
      REFUSAL_REASON.specMissing,
      "no valid spec has been synced for this tenant yet; sync sets spec.deployment once the tenant's row holds a valid apps/v1 Deployment",
    ),

  kindNotAllowed: (path: string, found: string, fix: string): Refusal =>
    refuse(
      REFUSAL_REASON.kindNotAllowed,
      `only apps/v1 Deployment and v1 ConfigMap children are allowed; ${path} is ${found}: ${fix}`,
    ),

  invalidSpec: (at: Place, problem: string): Refusal =>
    refuse(REFUSAL_REASON.invalidSpec, `${at.child}: ${at.path}: ${problem}`),

  missingField: (at: Place, hint: string | undefined): Refusal =>
    refuse(
      REFUSAL_REASON.invalidSpec,
      `${at.child}: ${at.path} is required${hint === undefined ? '' : `; ${hint}`}`,
    ),

  generateName: (at: Place): Refusal =>
    refuse(
      REFUSAL_REASON.invalidSpec,
      `${at.child}: ${at.path}.generateName without ${at.path}.name is not supported; landlord applies children by name, so set ${at.path}.name`,
    ),

  namespaceNotAllowed: (at: Place, namespace: string, why: string, allowed: string): Refusal =>
    refuse(
      REFUSAL_REASON.namespaceNotAllowed,
      `${at.child}: ${at.path}: namespace ${namespace} ${why}; ${allowed}`,
    ),

  forbiddenMetadata: (at: Place, problem: string, fix: string): Refusal =>
    refuse(REFUSAL_REASON.forbiddenMetadata, `${at.child}: ${at.path}: ${problem}; ${fix}`),

  duplicateChild: (at: Place, firstPath: string): Refusal =>
    refuse(
      REFUSAL_REASON.duplicateChild,
      `${at.child}: ${at.path} has the same namespace and name as ${firstPath}; give each ConfigMap its own name, or merge them into one`,
    ),

  podSecurity: (at: Place, level: PodSecurityLevel, problem: string, fix: string): Refusal =>
    refuse(
      REFUSAL_REASON.podSecurityViolation,
      `${at.child}: ${at.path}: ${problem} by the ${level} Pod Security Standard; ${fix}`,
    ),
};
