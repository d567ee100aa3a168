// What users feel: signups at a steady rate on a cluster already running N tenants, while those
// tenants' rows are edited and the default class rolls out to all of them. The N tenants come
// first (class standard, not timed), then warm-pool.ts's two classes of the same slow app, one
// pooled and one cold, and its pool filled. Then rows are written at --signup-rate for
// --signup-seconds, alternately of each class; meanwhile running rows get their image changed at
// --signup-edit-rate, and a third of the way in the default class's quota changes, which every
// running tenant's ResourceQuota follows. Each signup is timed from its write to Ready, split into
// stages by what the watch of Tenants saw (signup-timeline.ts); the rollout from the class edit
// until every running tenant's quota says the new value.
import type { KubernetesObject, V1Deployment, V1Namespace, V1ResourceQuota } from '@kubernetes/client-node';
import { GROUP, LABEL, VERSION, type Tenant } from '../../api/tenant.js';
import { CLASS_PLURAL } from '../../api/tenantclass.js';
import { Informer } from '../../runtime/kube/informer.js';
import { apiPath } from '../../runtime/kube/paths.js';
import { CHILD_API_VERSION } from '../../operator/child-ref.js';
import { CONTENT_TYPE, type KubeApi } from '../../runtime/kube/api.js';
import { createLogger } from '../../runtime/logger.js';
import { freshCluster, stopCluster } from '../cluster.js';
import { editImage } from '../dynamo.js';
import { waitForCount } from '../kube.js';
import { sleep } from '../pool.js';
import { FIRST_IMAGE, benchReplicas } from '../rows.js';
import type { RunContext } from '../run-context.js';
import {
  observe,
  observeNamespace,
  observeWorkload,
  summarizeSignups,
  type SignupSummary,
  type SignupTimeline,
} from '../signup-timeline.js';
import { benchPolicy, installClass, namespaceOf } from '../tenancy.js';
import { Session, TABLE } from './session.js';
import {
  COLD_CLASS,
  POOLED_CLASS,
  START_SECONDS,
  background,
  claimCounts,
  signupClass,
  untilWarm,
  writeSignup,
} from './warm-pool.js';

/** The default class's quota of pods before and after the rollout: a change every tenant's quota takes. */
const PODS_BEFORE = '20';
const PODS_AFTER = '21';
const DEFAULT_CLASS = 'standard';
/** After the last write, how long signups may still take to be Ready. */
const GRACE_MS = START_SECONDS * 1000 + 180_000;
const EDITED_IMAGE = 'nginx:1.27.1';

export interface SignupResult {
  tenants: number;
  rate: number;
  seconds: number;
  editRate: number;
  appStartSeconds: number;
  poolSize: number;
  /** Per class: pooled, the pooled signups that claimed a member, cold. */
  classes: Record<string, SignupSummary>;
  warmClaims: number;
  /** Edits of running tenants' rows written meanwhile. */
  edits: number;
  rollout: { startedAfterSeconds: number; tenants: number; seconds?: number };
  /** Until the N tenants were Ready, from the start of sync and the operator. */
  backgroundSeconds: number;
}

/** The moment (ms after the start) of the i-th event of a steady `perSecond` stream. */
export const scheduledAt = (i: number, perSecond: number): number => (i * 1000) / perSecond;

/** Signup names, alternately of the pooled class and the cold one. */
export const signupOf = (i: number): { name: string; className: string } => ({
  name: `su-${String(i).padStart(5, '0')}`,
  className: i % 2 === 0 ? POOLED_CLASS : COLD_CLASS,
});

export async function runSignups(n: number, ctx: RunContext): Promise<SignupResult> {
  const bench = await freshCluster(ctx.log);
  const session = new Session(bench, n, ctx, 'pertenant');
  const quotas = new Informer<V1ResourceQuota>(bench.api, {
    path: '/api/v1/resourcequotas',
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    logger: createLogger('bench', 'warn'),
  });
  const namespaces = watchLabelled<V1Namespace>(bench.api, 'Namespace');
  const deployments = watchLabelled<V1Deployment>(bench.api, 'Deployment');
  try {
    await session.seed();
    const backgroundSeconds = await background(session, 'signups');
    await installClass(bench.api, signupClass(COLD_CLASS, false));
    await installClass(bench.api, signupClass(POOLED_CLASS, true, ctx.options.signups.pool));
    await untilWarm(session, ctx.options.signups.pool);
    await Promise.all([quotas.start(), namespaces.start(), deployments.start()]);
    return await measure(session, { quotas, namespaces, deployments }, backgroundSeconds);
  } finally {
    await Promise.allSettled([quotas.stop(), namespaces.stop(), deployments.stop()]);
    await session.close();
    await stopCluster(bench.cluster);
  }
}

/** The signups, the edits and the rollout, together; then the summary. */
async function measure(session: Session, watches: Watches, backgroundSeconds: number): Promise<SignupResult> {
  const { n, ctx } = session;
  const { rate, seconds, editRate } = ctx.options.signups;
  const total = Math.round(rate * seconds);
  ctx.print(
    `[N=${n}] signups: ${total} rows at ${rate}/s, ${editRate} edits/s, a class rollout at ${Math.round(seconds / 3)} s`,
  );
  const timelines = followSignups(session.tenants!, watches);
  const start = Date.now();
  const stop = { now: false };
  const edits = editRunning(session, start, stop);
  const rollout = rollOut(session, watches.quotas, start + (seconds * 1000) / 3);
  rollout.catch(() => undefined);
  await writeSignups(session, timelines, start, total);
  const lastWrite = Date.now();
  stop.now = true;
  await untilReady(session, timelines, lastWrite);
  const [editCount, rolled, claims] = await Promise.all([edits, rollout, claimCounts(session)]);
  const byClass = (className: string): SignupTimeline[] =>
    [...timelines.entries()].filter(([name]) => classOf(name) === className).map(([, t]) => t);
  return {
    tenants: n,
    rate,
    seconds,
    editRate,
    appStartSeconds: START_SECONDS,
    poolSize: ctx.options.signups.pool,
    classes: {
      [POOLED_CLASS]: summarizeSignups(byClass(POOLED_CLASS)),
      // The pooled signups the pool had a member for: what a pool gives, apart from its running out.
      [`${POOLED_CLASS}, claimed`]: summarizeSignups(byClass(POOLED_CLASS).filter((t) => t.claimed === true)),
      [COLD_CLASS]: summarizeSignups(byClass(COLD_CLASS)),
    },
    warmClaims: claims.warm,
    edits: editCount,
    rollout: { ...rolled, startedAfterSeconds: (rolled.startedAt - start) / 1000 },
    backgroundSeconds,
  };
}

const classOf = (name: string): string => signupOf(Number(name.slice('su-'.length))).className;

interface Watches {
  quotas: Informer<V1ResourceQuota>;
  namespaces: Informer<V1Namespace>;
  deployments: Informer<V1Deployment>;
}

/**
 * Every sight of a signup's Tenant, namespace or Deployment fills its timeline; rows are entered as
 * they are written.
 */
function followSignups(
  tenants: Informer<Tenant>,
  { namespaces, deployments }: Pick<Watches, 'namespaces' | 'deployments'>,
): Map<string, SignupTimeline> {
  const timelines = new Map<string, SignupTimeline>();
  const seen = (tenant: Tenant): void => {
    const timeline = timelines.get(tenant.metadata.name ?? '');
    if (timeline !== undefined) observe(timeline, tenant, Date.now());
  };
  tenants.on('add', seen);
  tenants.on('update', seen);
  const placed = (namespace: V1Namespace): void => {
    const timeline = timelines.get(namespace.metadata?.labels?.[LABEL.tenant] ?? '');
    const created = Date.parse(String(namespace.metadata?.creationTimestamp ?? ''));
    if (timeline !== undefined) observeNamespace(timeline, Date.now(), created);
  };
  namespaces.on('add', placed);
  namespaces.on('update', placed);
  const written = (deployment: V1Deployment): void => {
    const timeline = timelines.get(deployment.metadata?.labels?.[LABEL.tenant] ?? '');
    if (timeline !== undefined) observeWorkload(timeline, Date.now());
  };
  deployments.on('add', written);
  deployments.on('update', written);
  return timelines;
}

/**
 * Objects of a kind labelled for a tenant, cluster-wide: namespaces as the operator makes them cold
 * or claims them from a pool, Deployments as it writes them.
 */
function watchLabelled<T extends KubernetesObject>(
  api: KubeApi,
  kind: 'Namespace' | 'Deployment',
): Informer<T> {
  const apiVersion = CHILD_API_VERSION[kind];
  return new Informer<T>(api, {
    path: apiPath({ apiVersion, kind }),
    apiVersion,
    kind,
    labelSelector: LABEL.tenant,
    logger: createLogger('bench', 'warn'),
  });
}

/** Writes the rows on schedule, each without waiting for the one before (a slow write does not slow the rate). */
async function writeSignups(
  session: Session,
  timelines: Map<string, SignupTimeline>,
  start: number,
  total: number,
): Promise<void> {
  const writes: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    await sleep(Math.max(0, start + scheduledAt(i, session.ctx.options.signups.rate) - Date.now()));
    session.assertRunning();
    const { name, className } = signupOf(i);
    timelines.set(name, { writtenAt: Date.now() });
    writes.push(writeSignup(session, name, className));
  }
  await Promise.all(writes);
}

/** Until every signup is Ready, or GRACE_MS after the last write (the rest count as not Ready). */
async function untilReady(
  session: Session,
  timelines: Map<string, SignupTimeline>,
  lastWrite: number,
): Promise<void> {
  const pending = (): number => [...timelines.values()].filter((t) => t.readyAt === undefined).length;
  while (pending() > 0 && Date.now() - lastWrite < GRACE_MS) {
    session.assertRunning();
    await sleep(250);
  }
  if (pending() > 0) session.ctx.print(`[N=${session.n}] signups: ${pending()} not Ready in time`);
}

/** Image edits of running tenants, round robin at the edit rate until told to stop; resolves to their count. */
async function editRunning(session: Session, start: number, stop: { now: boolean }): Promise<number> {
  const { editRate } = session.ctx.options.signups;
  if (editRate === 0) return 0;
  const replicas = benchReplicas(session.ctx.options);
  let count = 0;
  while (!stop.now) {
    await sleep(Math.max(0, start + scheduledAt(count, editRate) - Date.now()));
    const name = session.names[count % session.n]!;
    const image = Math.floor(count / session.n) % 2 === 0 ? EDITED_IMAGE : FIRST_IMAGE;
    await editImage(session.dynamo, TABLE, { name, image, replicas });
    count += 1;
  }
  return count;
}

/** At `at`, the default class's quota changes; resolves once every running tenant's quota has followed. */
async function rollOut(
  session: Session,
  quotas: Informer<V1ResourceQuota>,
  at: number,
): Promise<{ startedAt: number; tenants: number; seconds?: number }> {
  const { n, ctx, bench } = session;
  await sleep(Math.max(0, at - Date.now()));
  const policy = benchPolicy(ctx.options);
  const namespaces = new Set(session.names.map((name) => namespaceOf(name, policy)));
  const startedAt = Date.now();
  await bench.api.request({
    method: 'PATCH',
    path: `/apis/${GROUP}/${VERSION}/${CLASS_PLURAL}/${DEFAULT_CLASS}`,
    body: { spec: { resourceQuota: { hard: { pods: PODS_AFTER } } } },
    contentType: CONTENT_TYPE.merge,
  });
  const followed = (): number =>
    quotas
      .list()
      .filter((q) => namespaces.has(q.metadata?.namespace ?? '') && q.spec?.hard?.pods === PODS_AFTER).length;
  try {
    await waitForCount(followed, {
      what: `[N=${n}] signups: tenants' quotas at pods ${PODS_AFTER} (was ${PODS_BEFORE})`,
      target: n,
      timeoutMs: ctx.timeoutMs(n),
      since: performance.now(),
      print: ctx.print,
    });
    return { startedAt, tenants: n, seconds: Math.round((Date.now() - startedAt) / 100) / 10 };
  } catch {
    return { startedAt, tenants: n };
  }
}
