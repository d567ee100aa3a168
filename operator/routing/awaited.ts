// Whether a person waits on a Tenant now: its reconciles go in the work queue's urgent lane, ahead
// of the rechecks a class rollout or a resync makes of every running tenant (issue 56: at 1,000
// running, new tenants waited a minute behind a rollout). A Tenant keeps no record of having been
// Ready once, so "not serving yet" stands for "never Ready": its spec not yet acted on (a new row, an
// edited one), or active with no Available Deployment. A running tenant whose pods roll stays
// Available and is not urgent; a broken one is, and the queue's fairness bound keeps a crowd of
// them from holding rollouts back.
import { CONDITION, type Tenant } from '../../api/tenant.js';

export function awaited(tenant: Tenant | undefined): boolean {
  if (tenant === undefined) return false;
  const status = tenant.status;
  const observed = status?.observedGeneration;
  if (observed === undefined || observed !== tenant.metadata.generation) return true;
  // A suspended or archived tenant serves nothing on purpose.
  if (status?.state !== undefined) return false;
  const available = status?.conditions?.find((c) => c.type === CONDITION.available);
  return available?.status !== 'True';
}

/**
 * Slots of the work queue kept for Tenants someone waits on: a quarter. The lanes order what starts
 * next, but a rollout's reconciles each hold a slot for a round trip to a loaded API server, and
 * when they hold them all a signup waits for one to finish, however urgent its lane. A quarter of
 * the default 32 is 8, room for 10 signups a second at 0.8 s each; the rest stays the rollout's.
 */
export const urgentSlots = (concurrency: number): number => Math.floor(concurrency / 4);
