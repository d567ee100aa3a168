// One reconcile of one Tenant, level-triggered: read it from the cache, decide what its spec and
// state ask for, make the children match, then report. A Tenant a person paused is only reported
// on. Whatever happened, status is written in one place and only when it changed; the outcome
// tells the queue whether to retry.
import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import type { EventRecorder } from '../runtime/kube/events.js';
import type { Logger } from '../runtime/logger.js';
import { isPaused, type ClassSource, type Tenant, type TenantState } from '../api/tenant.js';
import type { TenantStatusWriter } from '../runtime/kube/tenant-status-writer.js';
import type { Outcome } from '../runtime/work-queue.js';
import type { Converged, Converger } from './converge.js';
import { childKey, type ChildRef } from './child-ref.js';
import { ChangeAnnouncer } from './announcer.js';
import { Placement } from './pool/placement.js';
import { requestedState } from './lifecycle.js';
import type { ClusterView, Effects } from './facets/contract.js';
import { actAll, keptReports, reportsOf, type FacetReports, type Wanted } from './facets/engine.js';
import { ReconcileError, retryable, stall } from './reconcile-error.js';
import type { ObservedState } from './observed.js';
import type { PolicyConfig } from './policy/index.js';
import { usesId } from './namespaces/ids.js';
import type { PoolClaims } from './pool/claim.js';
import type { TemplateUpgradeGate } from './rollout-budget.js';
import { OPERATOR_REASON } from './reasons.js';
import { childNames, computeStatus, type OperatorStatus, type StatusInput } from './status.js';
import { CONDITION } from '../api/tenant.js';
import { type RolloutTimes, StatusHold } from './status-hold.js';
import { newFailure, newFacetProblems } from './status-change.js';
import { classTemplates as namespaceTemplates } from './namespaces/rules.js';
import { fallbackClass, resolveClass } from './tenancy/resolve-class.js';
import { transitions } from './transitions.js';

export interface ReconcilerDeps {
  observed: ObservedState;
  converger: Converger;
  /** Writes only what changed (status-change.ts `unchanged`); tells the Tenant cache what it wrote. */
  statusWriter: TenantStatusWriter<OperatorStatus>;
  events: EventRecorder;
  /** The operator's policy; its tenantClass is the built-in class, used when no class is the default. */
  policy: PolicyConfig;
  logger: Logger;
  /** How long rollouts take now, shared with the operator's gauge of the status hold. */
  rolloutTimes: RolloutTimes;
  /** "{id}" classes: the namespace a Tenant holds, and warm pool claims (pool/claim.ts). */
  pool: PoolClaims;
  /** What facets' effects outside Kubernetes reach (a database server's admin Secret). */
  effects: Omit<Effects, 'read'>;
  /** The leader's upgrade budget for the operator's own pod template changes (rollout-budget.ts). */
  templateUpgrades?: TemplateUpgradeGate;
}

interface Attempt {
  state: TenantState;
  /** Paused by a person: nothing was applied or pruned. */
  paused: boolean;
  /** The children to report: the ones just applied or, after a failure, the ones still running. */
  children: ChildRef[];
  converged?: Converged;
  error?: ReconcileError;
  /** PerTenant: the tenant's namespace, once its children were applied there. */
  namespace?: string;
  /** The TenantClass to report in status.class: the one resolved, else the one reported before. */
  className?: string;
  /** How it was chosen (status.classSource), kept with it. */
  classSource?: ClassSource;
  /** What the facets report, once their children were looked at (applied, or the apply failed). */
  reports?: FacetReports;
  /** A facet's effect failed in a way that may pass: look again with backoff. */
  retry?: { reason: string; message: string };
}

export class Reconciler {
  private readonly hold: StatusHold;
  private readonly announcer: ChangeAnnouncer;
  private readonly placement: Placement;

  constructor(private readonly deps: ReconcilerDeps) {
    this.hold = new StatusHold(deps.rolloutTimes);
    this.announcer = new ChangeAnnouncer(deps.logger, deps.events);
    const { templateUpgrades } = deps;
    const view = (): ClusterView =>
      deps.observed.view(templateUpgrades === undefined ? {} : { templateUpgrades });
    this.placement = new Placement({ pool: deps.pool, events: deps.events, logger: deps.logger, view });
  }

  async reconcile(name: string): Promise<Outcome> {
    const tenant = this.deps.observed.tenant(name);
    // Gone or going: the garbage collector removes the children through their ownerReferences, and
    // what converging remembered of them goes now.
    if (tenant === undefined || tenant.metadata.deletionTimestamp !== undefined) {
      this.deps.converger.forget(name);
      this.hold.forget(name);
      this.announcer.forget(name);
      this.deps.pool.forget(tenant ?? name);
      this.deps.templateUpgrades?.forget(name);
      return { kind: 'done' };
    }
    const attempt = isPaused(tenant) ? this.leaveAlone(tenant) : await this.applySpec(tenant);
    let held: number;
    try {
      held = await this.report(tenant, attempt);
    } catch (error) {
      // The API server is unreachable or busy: an expected fault, retried with backoff.
      this.deps.logger.warn('could not write the Tenant status; will retry', {
        tenant: name,
        error: String(error),
      });
      return { kind: 'retry', error };
    }
    // A child changed during its apply, and its event woke nobody (converge.ts): look again now.
    if (attempt.converged?.changedMeanwhile === true) return { kind: 'requeueAfter', delayMs: 0 };
    // A held status is written by a later reconcile: the Deployment's next event, or this one.
    if (held > 0) return { kind: 'requeueAfter', delayMs: held };
    return settled(attempt);
  }

  /** Paused: no apply, no prune, so a person's edits to the children stay; only status is reported. */
  private leaveAlone(tenant: Tenant): Attempt {
    this.deps.templateUpgrades?.paused(tenant.metadata.name!);
    const children = this.deps.observed.childrenOf(tenant.metadata.name!);
    return { state: requestedState(tenant), paused: true, children, ...reportedClass(tenant) };
  }

  /**
   * The Tenant's class first: without one (ClassNotFound, AmbiguousDefaultClass) nothing is
   * applied or pruned, as for a policy refusal, and status.class keeps what it said.
   */
  private async applySpec(tenant: Tenant): Promise<Attempt> {
    const classes = this.deps.observed.tenantClasses();
    const resolved = resolveClass(tenant, classes, fallbackClass(this.deps.policy));
    if (!resolved.ok) {
      const error = stall(resolved.refusal.reason, resolved.refusal.message);
      return this.failed(tenant, requestedState(tenant), error, reportedClass(tenant));
    }
    const classTemplates = namespaceTemplates(classes);
    const reported = { className: resolved.policy.name, classSource: resolved.source };
    const policy = { ...this.deps.policy, tenantClass: resolved.policy, classTemplates };
    let wanted: Wanted;
    try {
      wanted = await this.placement.place(tenant, policy);
    } catch (err) {
      return this.failed(tenant, requestedState(tenant), asReconcileError(err), reported);
    }
    const attempt = await this.converge(tenant, wanted);
    if (attempt.error === undefined && attempt.namespace !== undefined && usesId(namespaceTemplateOf(policy)))
      await this.deps.pool.dropLeftovers(attempt.namespace, deploymentNames(attempt.children));
    return { ...attempt, ...reported };
  }

  /** Nothing was applied: the children still running are reported, with the error. */
  private failed(
    tenant: Tenant,
    state: TenantState,
    error: ReconcileError,
    reported: Pick<Attempt, 'className' | 'classSource'> = {},
  ): Attempt {
    return { state, paused: false, children: this.running(tenant), error, ...reported };
  }

  private running(tenant: Tenant): ChildRef[] {
    return this.deps.observed.childrenOf(tenant.metadata.name!);
  }

  /** Applies what the facets want, then asks each for its report, reading what converging left. */
  private async converge(tenant: Tenant, decided: Wanted): Promise<Attempt> {
    const { state } = decided;
    if (!decided.ok)
      return this.failed(tenant, state, stall(decided.refusal.reason, decided.refusal.message));
    const read = (ref: ChildRef): KubernetesObject | undefined => this.deps.observed.child(ref);
    const { wanted, retry } = await actAll(decided, { ...this.deps.effects, read });
    const again = retry === undefined ? {} : { retry };
    // Read after converging: an ExternalSecret just applied is in the cache as its apply returned it.
    const reports = (): FacetReports => reportsOf(wanted, (ref) => this.deps.observed.child(ref));
    try {
      const converged = await this.deps.converger.converge(tenant, wanted.children, wanted.retained);
      this.announcer.onceApplied(tenant, converged);
      const children = wanted.children.map((d) => d.ref);
      const namespace = wanted.namespace;
      return { state, paused: false, children, converged, namespace, reports: reports(), ...again };
    } catch (err) {
      return { ...this.failed(tenant, state, asReconcileError(err)), reports: reports(), ...again };
    }
  }

  /**
   * The one place that writes status, with a Warning Event when a new failure appears and an Event
   * for a state reached or a pause begun or ended. A status that only says a new generation is
   * rolling out is held back (status-hold.ts): returns how long, else 0.
   */
  private async report(tenant: Tenant, attempt: Attempt): Promise<number> {
    const status = this.statusOf(tenant, attempt);
    const held = this.hold.delay(tenant, status, Date.now());
    if (held > 0) return held;
    this.announceStatus(tenant, status);
    await this.deps.statusWriter.write(tenant, status);
    if (status.conditions?.some((c) => c.type === CONDITION.ready && c.status === 'True'))
      this.deps.pool.readyNow(tenant.metadata.name!);
    return 0;
  }

  private statusOf(tenant: Tenant, attempt: Attempt): OperatorStatus {
    // Until a reconcile places the children elsewhere, they stay where the last one did.
    const settled = attempt.error === undefined && !attempt.paused;
    // Refused or paused, nothing was looked at: the facets' conditions and fields stay as they were.
    const kept = keptReports(tenant);
    const reports = attempt.reports ?? kept;
    return computeStatus({
      tenant,
      error: attempt.error,
      now: new Date(),
      deployment: this.deployment(attempt),
      ...this.workloads(tenant, attempt),
      state: attempt.state,
      paused: attempt.paused,
      namespace: settled ? attempt.namespace : tenant.status?.namespace,
      facets: { conditions: reports.conditions, status: settled ? reports.status : kept.status },
      className: attempt.className,
      classSource: attempt.classSource,
      quotaWait: attempt.converged?.quotaWait,
      ...childNames(attempt.children),
    });
  }

  /** A new failure or facet problem as a Warning, and every transition, as Events and log lines. */
  private announceStatus(tenant: Tenant, status: OperatorStatus): void {
    const failure = newFailure(tenant, status);
    if (failure !== undefined) {
      this.deps.logger.warn(failure.message, { tenant: tenant.metadata.name, reason: failure.reason });
      this.deps.events.record(tenant, 'Warning', failure.reason, failure.message);
    }
    for (const problem of newFacetProblems(tenant, status))
      this.deps.events.record(tenant, 'Warning', problem.reason, problem.message);
    for (const change of transitions(tenant, status)) {
      this.deps.logger.info(change.message, { tenant: tenant.metadata.name, reason: change.reason });
      this.deps.events.record(tenant, change.type, change.reason, change.message);
    }
  }

  /**
   * A tenant of several Deployments: each one the attempt reports, with its freshest copy; a tenant
   * of one: nothing, so its status says what it always said.
   */
  private workloads(tenant: Tenant, attempt: Attempt): Pick<StatusInput, 'workloads'> {
    if (tenant.spec?.deployments === undefined) return {};
    const workloads = attempt.children
      .filter((ref) => ref.kind === 'Deployment')
      .map((ref) => ({
        name: `${ref.namespace}/${ref.name}`,
        deployment:
          attempt.converged?.deployments.get(childKey(ref)) ?? this.deps.observed.child<V1Deployment>(ref),
      }));
    return { workloads };
  }

  /** The freshest copy: the one converging returned, else the cache's. */
  private deployment(attempt: Attempt): V1Deployment | undefined {
    if (attempt.converged?.deployment !== undefined) return attempt.converged.deployment;
    const ref = attempt.children.find((r) => r.kind === 'Deployment');
    return ref === undefined ? undefined : this.deps.observed.child<V1Deployment>(ref);
  }
}

/** What the queue does next once status is written: done, retry with backoff, or stop. */
function settled(attempt: Pick<Attempt, 'error' | 'retry'>): Outcome {
  const { error, retry } = attempt;
  // A facet's effect that may pass (a database server down) retries, though the apply succeeded.
  if (error === undefined)
    return retry === undefined ? { kind: 'done' } : { kind: 'retry', error: new Error(retry.message) };
  return error.retry ? { kind: 'retry', error } : { kind: 'stop' };
}

function deploymentNames(children: readonly ChildRef[]): string[] {
  return children.filter((ref) => ref.kind === 'Deployment').map((ref) => ref.name);
}

const asReconcileError = (err: unknown): ReconcileError =>
  err instanceof ReconcileError ? err : retryable(OPERATOR_REASON.applyFailed, String(err));

const namespaceTemplateOf = (policy: PolicyConfig): string => policy.tenantClass.namespace.nameTemplate;

/** The class status already reports, kept while no other can be chosen (or the Tenant is paused). */
function reportedClass(tenant: Tenant): Pick<Attempt, 'className' | 'classSource'> {
  return { className: tenant.status?.class, classSource: tenant.status?.classSource };
}
