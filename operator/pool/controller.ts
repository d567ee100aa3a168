// The warm pool controller, on the Lease holder: for every TenantClass, keep `size` members Ready or
// starting (plan.ts), make new ones at a bounded rate shared by all classes (rate.ts), remove the
// ones a smaller size or a changed spec no longer wants, and complete one a crash left half-made.
// It runs beside the tenant queue, never in it: a claim (claim.ts, in a tenant's reconcile) never
// waits for a refill. Level-triggered like the reconciler: a watch event only wakes it, and each
// pass decides from the caches. A pass over classes whose pools are full writes nothing.
import type { KubernetesObject } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../../api/tenant.js';
import {
  CLASS_API_VERSION,
  CLASS_KIND,
  fillId,
  policyOf,
  type ClassPolicy,
  type TenantClass,
} from '../../api/tenantclass.js';
import { ApiError, CONTENT_TYPE, isConflict, isNotFound, type KubeApi } from '../../runtime/kube/api.js';
import { apiPath } from '../../runtime/kube/paths.js';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import { childRef, errorText, type ChildRef } from '../child-ref.js';
import { randomId } from '../namespaces/ids.js';
import { poolTemplateProblem, tenantNamespaceName } from '../namespaces/rules.js';
import type { PolicyConfig } from '../policy/index.js';
import type { SecretSources } from '../secrets/sources.js';
import type { PoolCaches } from '../watches.js';
import { memberContents, memberNamespace, poolBlueprint, type PoolBlueprint } from './member-objects.js';
import { memberClassUid, memberOf, type Member } from './members.js';
import { planPool, type PoolTarget } from './plan.js';
import { TokenBucket } from './rate.js';

export interface PoolControllerDeps {
  api: KubeApi;
  caches: PoolCaches;
  classes: () => readonly TenantClass[];
  /** The operator's policy; each class's replaces its tenantClass. */
  policy: PolicyConfig;
  /** The source Secrets as last seen: members hold copies of the shared ones. */
  sources: SecretSources;
  logger: Logger;
  metrics: Metrics;
  refillPerSecond: number;
}

/** A pass after an event waits this long, so a burst of events is one pass. */
const DEBOUNCE_MS = 100;
/** The safety net for a lost event, as the tenants' resync is. */
const TICK_MS = 5_000;
/** A member without its Deployment this long after it was made was left half-made: completed again. */
const HALF_MADE_MS = 10_000;

type Blueprint = Extract<PoolBlueprint, { ok: true }>;

export class PoolController {
  private readonly bucket: TokenBucket;
  private timer: NodeJS.Timeout | undefined;
  private tick: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** class → the refusal last logged for its pool's Deployment: said once, not every pass. */
  private readonly refused = new Map<string, string>();
  /** class → the hash of what its members hold now, as the last pass computed it. */
  private readonly hashes = new Map<string, string>();

  constructor(private readonly deps: PoolControllerDeps) {
    this.bucket = new TokenBucket(deps.refillPerSecond, Date.now());
  }

  start(): void {
    this.tick = setInterval(() => this.wake(), TICK_MS);
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.tick);
    clearTimeout(this.timer);
    await this.running;
  }

  /** Something changed: a pass soon (one for a burst of events). */
  wake(delayMs = DEBOUNCE_MS): void {
    if (this.stopped || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.running !== undefined) {
        this.again = true;
        return;
      }
      this.running = this.pass().finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
    }, delayMs);
  }

  private async pass(): Promise<void> {
    if (this.deps.caches.deployments === undefined) return this.unsupported();
    for (const tc of this.deps.classes()) {
      if (this.stopped) return;
      try {
        await this.reconcileClass(tc);
      } catch (err) {
        this.deps.logger.warn('warm pool pass failed; will retry', {
          class: tc.metadata.name,
          error: errorText(err),
        });
        this.wake(1000);
      }
    }
  }

  /** Confined to listed namespaces, the operator cannot see members' Deployments: it says so once. */
  private unsupported(): void {
    for (const tc of this.deps.classes()) {
      if (tc.spec?.warmPool === undefined) continue;
      this.refuse(
        tc.metadata.name ?? '',
        'warm pools need the operator to watch Deployments cluster-wide; LANDLORD_ALLOWED_NAMESPACES confines it',
      );
    }
  }

  /** The hash current members of the class carry ('' before the first pass). */
  hashOf(className: string): string {
    return this.hashes.get(className) ?? '';
  }

  /** The members of a class now: its Namespaces, each with its Deployment's readiness. */
  membersOf(className: string, classUid: string): Member[] {
    const { namespaces, deployments } = this.deps.caches;
    return namespaces
      .list()
      .filter((ns) => memberClassUid(ns, className) === classUid)
      .map((ns) => {
        const name = ns.metadata!.name!;
        const deployment = deployments?.list(name)[0];
        return memberOf(ns, deployment);
      });
  }

  private async reconcileClass(tc: TenantClass): Promise<void> {
    const className = tc.metadata.name ?? '';
    const classUid = tc.metadata.uid ?? '';
    const tenantClass = policyOf(tc);
    const members = this.membersOf(className, classUid);
    const wanted = this.target(tenantClass);
    await this.report(tc, tenantClass.warmPool !== undefined, members);
    const plan = planPool(wanted.target, members);
    for (const member of plan.remove) await this.remove(member);
    if (wanted.blueprint === undefined) return;
    for (let i = 0; i < plan.create; i++) {
      if (!this.take()) return;
      await this.create(tenantClass, classUid, wanted.blueprint);
    }
    const now = Date.now();
    const halfMade = members.filter(
      (m) =>
        !m.hasDeployment && !m.deleting && m.hash === wanted.target.hash && now - m.created > HALF_MADE_MS,
    );
    for (const member of halfMade) {
      if (!this.take()) return;
      await this.fill(member.name, className, wanted.blueprint);
    }
  }

  /** The Ready members, as a gauge and in status.warm; nothing for a class that never had a pool. */
  private async report(tc: TenantClass, pooled: boolean, members: readonly Member[]): Promise<void> {
    const ready = members.filter((m) => m.ready && !m.deleting).length;
    if (pooled || members.length > 0)
      this.deps.metrics.poolMembersReady.set({ class: tc.metadata.name }, ready);
    await this.reportWarm(tc, !pooled && ready === 0 ? undefined : ready);
  }

  /**
   * status.warm, kubectl get tc's WARM column: the one writer of a class's status, and only when
   * the count changed (undefined: the class has no pool, and none is reported).
   */
  private async reportWarm(tc: TenantClass, warm: number | undefined): Promise<void> {
    if (tc.status?.warm === warm) return;
    await this.deps.api.request({
      method: 'PATCH',
      path: apiPath({
        apiVersion: CLASS_API_VERSION,
        kind: CLASS_KIND,
        name: tc.metadata.name,
        subresource: 'status',
      }),
      contentType: CONTENT_TYPE.merge,
      body: { status: { warm: warm ?? null } },
    });
  }

  /** A token for one member's writes, else a pass when the next one comes. */
  private take(): boolean {
    const now = Date.now();
    if (this.bucket.take(now)) return true;
    this.wake(this.bucket.waitMs(now));
    return false;
  }

  /** What the class's pool asks for: size 0 when it has none, or none it may have. */
  private target(tenantClass: ClassPolicy): { target: PoolTarget; blueprint?: Blueprint } {
    const pool = tenantClass.warmPool;
    const none = { target: { size: 0, maxUnavailable: 1, hash: '' } };
    if (pool === undefined || tenantClass.mode !== 'PerTenant' || pool.size === 0) return none;
    const problem = poolTemplateProblem(tenantClass);
    if (problem !== undefined) {
      this.refuse(tenantClass.name, `the namespace ${problem}`);
      return none;
    }
    const blueprint = poolBlueprint({ ...this.deps.policy, tenantClass }, this.deps.sources);
    if (!blueprint.ok) {
      this.refuse(tenantClass.name, `${blueprint.refusal.reason}: ${blueprint.refusal.message}`);
      return none;
    }
    this.refused.delete(tenantClass.name);
    this.hashes.set(tenantClass.name, blueprint.hash);
    const target = { size: pool.size, maxUnavailable: pool.maxUnavailable, hash: blueprint.hash };
    return { target, blueprint };
  }

  private refuse(className: string, message: string): void {
    if (this.refused.get(className) === message) return;
    this.refused.set(className, message);
    this.deps.logger.warn('warm pool not kept: the class cannot have one', { class: className, message });
  }

  /**
   * Makes one member: its Namespace first (a create: the name is new), then what goes in it. A
   * name the namespace rules refuse (reserved, trusted) or that exists already is skipped; the
   * next pass draws another id.
   */
  private async create(tenantClass: ClassPolicy, classUid: string, blueprint: Blueprint): Promise<void> {
    const id = randomId();
    const named = tenantNamespaceName('', tenantClass, { ...this.deps.policy, namespaceId: id });
    const name = fillId(tenantClass.namespace.nameTemplate, id);
    if (!named.ok) {
      this.refuse(tenantClass.name, `namespace ${name} ${named.problem}`);
      return;
    }
    const namespace = memberNamespace(tenantClass, classUid, name, blueprint.hash);
    try {
      await this.apply(childRef('Namespace', '', name), {
        ...namespace,
        metadata: { ...namespace.metadata, resourceVersion: '1' },
      });
    } catch (err) {
      if (isConflict(err)) return;
      throw err;
    }
    await this.fill(name, tenantClass.name, blueprint);
    this.deps.logger.info('made warm pool member', { class: tenantClass.name, namespace: name });
  }

  /** The objects in a member's namespace, the Deployment last (so the quota and limits apply to its pods). */
  private async fill(namespace: string, className: string, blueprint: Blueprint): Promise<void> {
    const contents = memberContents(blueprint, className, namespace);
    const deployment = contents.filter((c) => c.ref.kind === 'Deployment');
    const fences = contents.filter((c) => c.ref.kind !== 'Deployment');
    await Promise.all(fences.map((c) => this.apply(c.ref, c.manifest)));
    await Promise.all(deployment.map((c) => this.apply(c.ref, c.manifest)));
  }

  private async apply(ref: ChildRef, manifest: KubernetesObject): Promise<void> {
    await this.deps.api.request({
      method: 'PATCH',
      path: apiPath(ref),
      query: { fieldManager: FIELD_MANAGER.operator, force: true },
      contentType: CONTENT_TYPE.apply,
      body: { apiVersion: ref.apiVersion, kind: ref.kind, ...manifest },
      verb: 'apply',
    });
  }

  /**
   * Deletes an unclaimed member, on the condition that it is still the version the plan saw: a
   * member claimed meanwhile has another resourceVersion, and the API server refuses (409).
   */
  private async remove(member: Member): Promise<void> {
    try {
      await this.deps.api.request({
        method: 'DELETE',
        path: apiPath(childRef('Namespace', '', member.name)),
        body: {
          kind: 'DeleteOptions',
          apiVersion: 'v1',
          preconditions: { uid: member.uid, resourceVersion: member.resourceVersion },
          propagationPolicy: 'Background',
        },
      });
      this.deps.logger.info('removed warm pool member', { namespace: member.name });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err instanceof ApiError ? err : new Error(errorText(err));
    }
  }
}
