// Where a signup's wait goes, from the moments the bench saw on its watches: the row written, the
// Tenant created by sync, the operator's first reconcile (the tenant's namespace labelled for it,
// made cold or claimed from a pool; else its first status, which the operator may hold back until
// the Deployment is available), the tenant's Deployment written by the operator (labelled for it:
// made, once a cold namespace's quota is enforced, or a claimed member's taken over), the
// Deployment available (Available=True) and Ready=True. What lies between the Deployment written
// and available is the cluster's: the Deployment and ReplicaSet controllers, the scheduler, the
// kubelet (kwok) and the app's own start. The watch's moments are used rather than
// creationTimestamp and lastTransitionTime, which the API server keeps to the second: a pooled
// signup takes half of one. Each moment is the first the watch saw, tens of milliseconds after
// the write it reports.
import { CONDITION, type Tenant } from '../api/tenant.js';
import { summarize, type LatencySummary } from './measure/percentiles.js';

/** Epoch milliseconds of each step; a step not seen yet is absent. */
export interface SignupTimeline {
  writtenAt: number;
  createdAt?: number;
  reconciledAt?: number;
  workloadAt?: number;
  availableAt?: number;
  readyAt?: number;
  /** Placed in a namespace made before its row was written: a warm pool member it claimed. */
  claimed?: boolean;
}

/**
 * The stages of a signup, each from the step before it: row → Tenant → first reconcile → Deployment
 * written → available → Ready.
 */
export const STAGES = ['sync', 'operator', 'workload', 'app', 'status'] as const;
export type Stage = (typeof STAGES)[number];

const OPERATOR_CONDITIONS: readonly string[] = [CONDITION.applied, CONDITION.available, CONDITION.ready];

const conditionTrue = (tenant: Tenant, type: string): boolean =>
  tenant.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

/** The furthest step this sight of the Tenant shows: 0 created, 1 reconciled, 2 available, 3 Ready. */
function stepOf(tenant: Tenant): number {
  if (conditionTrue(tenant, CONDITION.ready)) return 3;
  if (conditionTrue(tenant, CONDITION.available)) return 2;
  const reconciled = tenant.status?.conditions?.some((c) => OPERATOR_CONDITIONS.includes(c.type)) === true;
  return reconciled ? 1 : 0;
}

/** Fills the steps this sight of the Tenant shows for the first time (earlier ones too: a watch may skip). */
export function observe(timeline: SignupTimeline, tenant: Tenant, now: number): void {
  const step = stepOf(tenant);
  timeline.createdAt ??= now;
  if (step >= 1) timeline.reconciledAt ??= now;
  if (step >= 2) timeline.workloadAt ??= now;
  if (step >= 2) timeline.availableAt ??= now;
  if (step >= 3) timeline.readyAt ??= now;
}

/**
 * The tenant's namespace, labelled for it, seen: the operator's first reconcile has acted. One made
 * before the row was written (to the second: creationTimestamp's) was a pool member; a cold one is
 * made after the Tenant.
 */
export function observeNamespace(timeline: SignupTimeline, now: number, namespaceCreatedAt: number): void {
  timeline.reconciledAt ??= now;
  timeline.claimed ??= namespaceCreatedAt < Math.floor(timeline.writtenAt / 1000) * 1000;
}

/** The tenant's Deployment, labelled for it, seen: the operator wrote its workload. */
export function observeWorkload(timeline: SignupTimeline, now: number): void {
  timeline.reconciledAt ??= now;
  timeline.workloadAt ??= now;
}

/** Milliseconds of each stage and in all, for a signup that became Ready; undefined otherwise. */
export function stagesOf(t: SignupTimeline): (Record<Stage, number> & { total: number }) | undefined {
  const { createdAt, reconciledAt, workloadAt, availableAt, readyAt } = t;
  if (
    createdAt === undefined ||
    reconciledAt === undefined ||
    workloadAt === undefined ||
    availableAt === undefined ||
    readyAt === undefined
  )
    return undefined;
  return {
    sync: createdAt - t.writtenAt,
    operator: reconciledAt - createdAt,
    workload: workloadAt - reconciledAt,
    app: availableAt - workloadAt,
    status: readyAt - availableAt,
    total: readyAt - t.writtenAt,
  };
}

export interface SignupSummary {
  written: number;
  ready: number;
  /** Row written → Ready. */
  total: LatencySummary;
  /** Each stage's own percentiles (their p50s need not add up to the total's). */
  stages: Record<Stage, LatencySummary>;
}

export function summarizeSignups(timelines: readonly SignupTimeline[]): SignupSummary {
  const done = timelines.map(stagesOf).filter((s) => s !== undefined);
  const stages = Object.fromEntries(STAGES.map((stage) => [stage, summarize(done.map((d) => d[stage]))]));
  return {
    written: timelines.length,
    ready: done.length,
    total: summarize(done.map((d) => d.total)),
    stages: stages as Record<Stage, LatencySummary>,
  };
}
