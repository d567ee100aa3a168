// The warm pool controller, on the Lease holder: for every TenantClass, keep `size` members Ready or
// starting (sizing.ts), make new ones at a bounded rate shared by all classes (rate.ts), remove the
// ones a smaller size or a changed spec no longer wants, and complete one a crash left half-made.
// It runs beside the tenant queue, never in it: a claim (claim.ts, in a tenant's reconcile) never
// waits for a refill. Level-triggered like the reconciler: a watch event only wakes it, and each
// pass decides from the caches. A pass over classes whose pools are full writes nothing.
//
// Members are written through the operator's Applier (member-writes.ts), the one apply path tenants
// use; the class's status.warm by the runtime's status writer (warm-status.ts decides what it says).
import type { KubernetesObject } from '@kubernetes/client-node';
import { ANNOTATION, FIELD_MANAGER } from '../../api/tenant.js';
import {
  CLASS_API_VERSION,
  CLASS_KIND,
  fillId,
  policyOf,
  type ClassPolicy,
  type TenantClass,
} from '../../api/tenantclass.js';
import type { KubeApi } from '../../runtime/kube/api.js';
import { StatusWriter } from '../../runtime/kube/status-writer.js';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import { childKey, childRef, errorText } from '../child-ref.js';
import { randomId } from '../namespaces/ids.js';
import { poolTemplateProblem, tenantNamespaceName } from '../namespaces/rules.js';
import type { ClusterView } from '../facets/contract.js';
import type { PolicyConfig } from '../policy/index.js';
import type { PoolCaches } from '../watches.js';
import { poolBlueprint, type PoolBlueprint } from './member-objects.js';
import { MemberWrites, type Filled, type MemberSpec } from './member-writes.js';
import { memberClassUid, memberOf, type Member } from './members.js';
import { sizePool, unfinished, type PoolTarget } from './sizing.js';
import { TokenBucket } from './rate.js';
import { poolStatusOf, saysPoolStatus, type PoolStatus } from './warm-status.js';

export interface PoolControllerDeps {
  api: KubeApi;
  caches: PoolCaches;
  classes: () => readonly TenantClass[];
  /** The operator's policy; each class's replaces its tenantClass. */
  policy: PolicyConfig;
  /** The cluster as the caches hold it: members hold copies of the shared source Secrets. */
  cluster: ClusterView;
  logger: Logger;
  metrics: Metrics;
  refillPerSecond: number;
}

/** A pass after an event waits this long, so a burst of events is one pass. */
const DEBOUNCE_MS = 100;
/** The safety net for a lost event, as the tenants' resync is. */
const TICK_MS = 5_000;
/** A member whose Deployment waits for its quota to be enforced is looked at again this soon. */
const QUOTA_WAIT_MS = 500;

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
  /** class → how many Deployments its members run now (one, or its pool's list). */
  private readonly deploymentCounts = new Map<string, number>();
  private readonly writes: MemberWrites;
  private readonly status: StatusWriter<TenantClass, PoolStatus>;

  constructor(private readonly deps: PoolControllerDeps) {
    this.bucket = new TokenBucket(deps.refillPerSecond, Date.now());
    this.writes = new MemberWrites(deps.api, deps.caches);
    this.status = new StatusWriter(deps.api, undefined, {
      apiVersion: CLASS_API_VERSION,
      kind: CLASS_KIND,
      fieldManager: FIELD_MANAGER.operator,
      current: saysPoolStatus,
    });
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

  /**
   * The members of a class now: its Namespaces, each with its Deployments' readiness. A member of
   * the current pool spec is complete with as many as the spec runs; an older one with any.
   */
  membersOf(className: string, classUid: string): Member[] {
    const { namespaces, deployments } = this.deps.caches;
    const current = this.hashOf(className);
    const expected = this.deploymentCounts.get(className) ?? 1;
    return namespaces
      .list()
      .filter((ns) => memberClassUid(ns, className) === classUid)
      .map((ns) => {
        const held = deployments?.list(ns.metadata?.name ?? '') ?? [];
        const hash = ns.metadata?.annotations?.[ANNOTATION.poolHash];
        return memberOf(ns, held, hash === current ? expected : 1);
      });
  }

  /**
   * What a member a tenant just claimed holds, by child key, for the tenant's first apply to name
   * without reading (claim.ts): what its fills wrote (member-writes.ts), and its Deployments whole
   * from the pool's cache (their spec and status, which a claim's same-spec bump is read from).
   */
  handOver(member: string): Map<string, KubernetesObject> {
    const held = this.writes.handOver(member) ?? new Map<string, KubernetesObject>();
    for (const deployment of this.deps.caches.deployments?.list(member) ?? []) {
      const name = deployment.metadata?.name;
      if (name === undefined || deployment.metadata?.uid === undefined || deployment.spec === undefined)
        continue;
      held.set(childKey(childRef('Deployment', member, name)), deployment);
    }
    return held;
  }

  private async reconcileClass(tc: TenantClass): Promise<void> {
    const className = tc.metadata.name ?? '';
    const classUid = tc.metadata.uid ?? '';
    const tenantClass = policyOf(tc);
    const members = this.membersOf(className, classUid);
    const wanted = this.target(tenantClass);
    await this.report(tc, tenantClass.warmPool !== undefined, members);
    const sizing = sizePool(wanted.target, members);
    for (const member of sizing.remove) await this.remove(member);
    this.writes.keepOnly(className, members);
    if (wanted.blueprint === undefined) return;
    const spec = { tenantClass, classUid, blueprint: wanted.blueprint };
    // Each member's writes wait on the API server one after another; members are made side by side,
    // as many as the bucket allows, so the pool refills at its rate however slow each write is.
    const creates = this.take(sizing.create);
    await allDone(Array.from({ length: creates }, () => this.create(spec)));
    if (creates < sizing.create) return;
    const waiting = (m: string): boolean => this.writes.waitsForQuota(m);
    const half = unfinished(members, wanted.target.hash, Date.now(), waiting);
    await allDone(half.slice(0, this.take(half.length)).map((member) => this.fill(spec, member.name, true)));
  }

  /** The Ready members, as a gauge and in status.warm (warm-status.ts), written only when it changed. */
  private async report(tc: TenantClass, pooled: boolean, members: readonly Member[]): Promise<void> {
    const ready = members.filter((m) => m.ready && !m.deleting).length;
    if (pooled || members.length > 0)
      this.deps.metrics.poolMembersReady.set({ class: tc.metadata.name }, ready);
    await this.status.write(tc, poolStatusOf(tc, pooled, ready));
  }

  /** Tokens for up to `wanted` members' writes; when they run short, a pass when the next one comes. */
  private take(wanted: number): number {
    const now = Date.now();
    let taken = 0;
    while (taken < wanted && this.bucket.take(now)) taken += 1;
    if (taken < wanted) this.wake(this.bucket.waitMs(now));
    return taken;
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
    const blueprint = poolBlueprint({ ...this.deps.policy, tenantClass }, this.deps.cluster);
    if (!blueprint.ok) {
      this.refuse(tenantClass.name, `${blueprint.refusal.reason}: ${blueprint.refusal.message}`);
      return none;
    }
    this.refused.delete(tenantClass.name);
    this.hashes.set(tenantClass.name, blueprint.hash);
    this.deploymentCounts.set(tenantClass.name, blueprint.deployments.length);
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
  private async create(spec: MemberSpec): Promise<void> {
    const { tenantClass } = spec;
    const id = randomId();
    const named = tenantNamespaceName('', tenantClass, { ...this.deps.policy, namespaceId: id });
    const name = fillId(tenantClass.namespace.nameTemplate, id);
    if (!named.ok) {
      this.refuse(tenantClass.name, `namespace ${name} ${named.problem}`);
      return;
    }
    if ((await this.fill(spec, name, false)) === 'taken') return;
    this.deps.logger.info('made warm pool member', { class: tenantClass.name, namespace: name });
  }

  /** Makes or completes a member; one whose Deployment waits for its quota is looked at again soon. */
  private async fill(spec: MemberSpec, name: string, existing: boolean): Promise<Filled> {
    const filled = await this.writes.fill(spec, name, existing);
    if (filled === 'waiting') this.wake(QUOTA_WAIT_MS);
    return filled;
  }

  private async remove(member: Member): Promise<void> {
    if (await this.writes.remove(member))
      this.deps.logger.info('removed warm pool member', { namespace: member.name });
  }
}

/** Waits for every write to end, then fails with the first failure, if any: none is left running. */
async function allDone(writes: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(writes)).find((r) => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
