// What the operator itself adds to a tenant's pod template, by template revision: a release that
// adds something every tenant's pods get bumps TEMPLATE_REVISION, and the Deployment records the
// revision it was written at (an annotation on the Deployment, never on its pods). The spec hash
// (desired.ts) covers what the row and its class ask for, not these additions: a Deployment whose
// hash still matches and whose revision is older changed only because the operator did, which is
// the rollout the upgrade budget paces (rollout-budget.ts); and a release that does not know an
// addition (a rollback) sees the Deployment it would write, extra fields and all, and writes
// nothing. Pure.
import type { V1Deployment } from '@kubernetes/client-node';
import { LABEL } from '../../api/tenant.js';
import type { ClassPolicy } from '../../api/tenantclass.js';
import { SPEC_HASH_ANNOTATION, type DesiredChild } from '../desired.js';
import { usesId } from '../namespaces/ids.js';

/**
 * 1: what 0.1.0 wrote (and a Deployment without the annotation). 2: every tenant pod is labelled
 * `landlord.dev/tenant: <name>`, but in classes whose namespaces are named by "{id}".
 */
export const TEMPLATE_REVISION = 2;

/** On a Deployment the operator wrote with additions: the template revision they are from. */
export const TEMPLATE_REVISION_ANNOTATION = 'landlord.dev/template-revision';

/** The revision a live Deployment was written at; without the annotation, the first. */
export function revisionOf(live: V1Deployment | undefined): number {
  const text = live?.metadata?.annotations?.[TEMPLATE_REVISION_ANNOTATION];
  const revision = text === undefined ? NaN : Number.parseInt(text, 10);
  return Number.isInteger(revision) && revision > 0 ? revision : 1;
}

/** Whom the additions are for: the Tenant's name and its class. */
export interface TemplateOwner {
  tenant: string;
  tenantClass: Pick<ClassPolicy, 'namespace'>;
}

/**
 * The labels revision `revision` adds to the pods. A class whose namespaces are named by "{id}"
 * may have a warm pool, whose pods run before their tenant exists and keep running after a claim:
 * a label naming the tenant would restart them at the claim, so there the namespace's own
 * `landlord.dev/tenant` label names the tenant, and the pods get nothing.
 */
function podLabelsAt(revision: number, owner: TemplateOwner): Record<string, string> {
  if (revision < 2 || usesId(owner.tenantClass.namespace.nameTemplate)) return {};
  return { [LABEL.tenant]: owner.tenant };
}

/** Whether revisions `from` and `to` add different things to this owner's pods. */
function additionsDiffer(from: number, to: number, owner: TemplateOwner): boolean {
  const a = podLabelsAt(from, owner);
  const b = podLabelsAt(to, owner);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].some((k) => a[k] !== b[k]);
}

/**
 * The Deployment child with revision `revision`'s additions: its pods' labels, and the revision
 * annotation when it adds any (a Deployment that gets nothing looks as the first revision wrote
 * it). The hash is kept: it names what the row and class ask for.
 */
export function atRevision(child: DesiredChild, revision: number, owner: TemplateOwner): DesiredChild {
  const labels = podLabelsAt(revision, owner);
  if (Object.keys(labels).length === 0) return child;
  const deployment = child.manifest as V1Deployment;
  const template = deployment.spec!.template;
  const podMetadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...labels } };
  const annotations = {
    ...deployment.metadata?.annotations,
    [TEMPLATE_REVISION_ANNOTATION]: String(revision),
  };
  const manifest: V1Deployment = {
    ...deployment,
    metadata: { ...deployment.metadata, annotations },
    spec: { ...deployment.spec!, template: { ...template, metadata: podMetadata } },
  };
  return { ...child, manifest };
}

/**
 * Why the Deployment would change for the operator's revision `target`:
 * - `none`: it is at `target` already, the revisions add the same, or it runs no pods to restart;
 * - `tenant`: it is new, or the row, its class or its state changed since it was written (its
 *   hash differs): the Tenant asked for a rollout, which carries the additions with it;
 * - `operator`: only the additions would change: an upgrade's rollout, which waits for a slot.
 */
export type UpgradeCause = 'none' | 'tenant' | 'operator';

export function upgradeCause(
  live: V1Deployment | undefined,
  desired: DesiredChild,
  target: number,
  owner: TemplateOwner,
): UpgradeCause {
  if (live === undefined) return 'tenant';
  if (live.metadata?.annotations?.[SPEC_HASH_ANNOTATION] !== desired.hash) return 'tenant';
  const from = revisionOf(live);
  if (from >= target || !additionsDiffer(from, target, owner)) return 'none';
  return live.spec?.replicas === 0 ? 'none' : 'operator';
}
