// Issue 41's measurement: how long a new customer waits, from the row written to the Tenant Ready,
// with a warm pool against without, on a cluster already running N tenants. The N tenants come
// first, under the default class standard (not timed). Then a pooled class keeps POOL members of an
// app that takes START_SECONDS to start (kwok's delay stage, harness/controlplane/kwok); once they
// are Ready, SIGNUPS rows of that class are written one after another, as signups come, each timed
// alone. Last, COLD rows of a class with the same app and no pool, written together and each timed
// from its own write: the cold path a pool saves.
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GROUP, VERSION } from '../../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, CLASS_PLURAL, type TenantClass } from '../../api/tenantclass.js';
import { KWOK_READY_DELAY_ANNOTATION } from '../../harness/components.js';
import { sumOf } from '../../harness/prom-text.js';
import { freshCluster, stopCluster } from '../cluster.js';
import { tenantReady, waitForCount } from '../kube.js';
import { summarize, type LatencySummary } from '../measure/percentiles.js';
import { sleep } from '../pool.js';
import type { RunContext } from '../run-context.js';
import { installClass } from '../tenancy.js';
import { Session, TABLE } from './session.js';
import { POOL } from '../args.js';
const SIGNUPS = 20;
const COLD = 10;
export const START_SECONDS = 20;
export const POOLED_CLASS = 'bench-pooled';
export const COLD_CLASS = 'bench-slow';

export interface WarmPoolResult {
  /** Tenants already running (class standard) while the signups were measured. */
  tenants: number;
  poolSize: number;
  /** The app's simulated start, from its pods' creation to Ready. */
  appStartSeconds: number;
  /** Row written → Tenant Ready, for rows of the pooled class written one after another. */
  warm: LatencySummary;
  /** The same for rows of a class with the same app and no pool. */
  cold: LatencySummary;
  /** cold p50 / warm p50. */
  ratioP50: number;
  /** How many of the signups the operator counted as claims of a member (the rest went cold). */
  warmClaims: number;
  /** Until the N tenants were Ready, from the start of sync and the operator. */
  backgroundSeconds: number;
}

/** The app members run and the signups ask for: one name and pod template, so claims keep its pods. */
function slowApp(): Record<string, unknown> {
  const labels = { app: 'signup' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'app', namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels, annotations: { [KWOK_READY_DELAY_ANNOTATION]: `${START_SECONDS}s` } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    },
  };
}

export function signupClass(name: string, pooled: boolean, poolSize = POOL): TenantClass {
  const namespace = { mode: 'PerTenant' as const, nameTemplate: pooled ? 'wp-{id}' : 'slow-{name}' };
  const warmPool = { size: poolSize, deployment: slowApp(), maxUnavailable: 2 };
  return {
    apiVersion: CLASS_API_VERSION,
    kind: CLASS_KIND,
    metadata: { name },
    spec: { namespace, ...(pooled ? { warmPool } : {}) },
  };
}

export async function runWarmPool(n: number, ctx: RunContext): Promise<WarmPoolResult> {
  const bench = await freshCluster(ctx.log);
  const session = new Session(bench, n, ctx, 'pertenant');
  try {
    await session.seed();
    const backgroundSeconds = await background(session);
    await installClass(bench.api, signupClass(COLD_CLASS, false));
    await installClass(bench.api, signupClass(POOLED_CLASS, true));
    await untilWarm(session);
    ctx.print(`[N=${n}] warm pool: ${POOL} members Ready; ${SIGNUPS} signups one after another`);
    const warm: number[] = [];
    for (let i = 0; i < SIGNUPS; i++) warm.push(await signup(session, `warm-${i}`, POOLED_CLASS));
    ctx.print(`[N=${n}] warm pool: ${COLD} signups of a class without a pool, together`);
    const cold = await Promise.all(
      Array.from({ length: COLD }, (_, i) => signup(session, `cold-${i}`, COLD_CLASS)),
    );
    const claims = await claimCounts(session);
    const [warmSummary, coldSummary] = [summarize(warm), summarize(cold)];
    return {
      tenants: n,
      poolSize: POOL,
      appStartSeconds: START_SECONDS,
      warm: warmSummary,
      cold: coldSummary,
      ratioP50: Math.round((coldSummary.p50Ms / warmSummary.p50Ms) * 10) / 10,
      warmClaims: claims.warm,
      backgroundSeconds,
    };
  } finally {
    await session.close();
    await stopCluster(bench.cluster);
  }
}

/** Starts sync and the operator and waits for the N tenants of class standard; seconds it took. */
export async function background(session: Session, label = 'warm pool'): Promise<number> {
  const { n, ctx } = session;
  const started = performance.now();
  session.startSync('sync');
  session.startOperator('operator');
  const what = `[N=${n}] ${label}: background Tenants Ready`;
  const ready = await waitForCount(() => session.tenants!.list().filter(tenantReady).length, {
    target: n,
    timeoutMs: ctx.timeoutMs(n),
    since: started,
    print: ctx.print,
    check: () => session.assertRunning(),
    what,
  });
  return Math.round((ready - started) / 100) / 10;
}

/** Until the pooled class reports `size` warm members (its status.warm). */
export async function untilWarm(session: Session, size = POOL): Promise<void> {
  const path = `/apis/${GROUP}/${VERSION}/${CLASS_PLURAL}/${POOLED_CLASS}`;
  const deadline = performance.now() + session.ctx.timeoutMs(size) + START_SECONDS * 1000;
  for (;;) {
    session.assertRunning();
    const tc = await session.bench.api.request<{ status?: { warm?: number } }>({ method: 'GET', path });
    if ((tc.status?.warm ?? 0) >= size) return;
    if (performance.now() > deadline) throw new Error(`the pool of ${POOLED_CLASS} did not fill to ${size}`);
    await sleep(250);
  }
}

/** Writes a signup's row: the slow app, under the class. */
export async function writeSignup(session: Session, name: string, className: string): Promise<void> {
  const Item = {
    name: { S: name },
    class: { S: className },
    spec: { S: JSON.stringify(slowApp()) },
    customizations: { S: '[]' },
    deleted: { BOOL: false },
  };
  await session.dynamo.send(new PutItemCommand({ TableName: TABLE, Item }));
}

/** Writes one row of the class and waits for its Tenant to be Ready: milliseconds from the write. */
async function signup(session: Session, name: string, className: string): Promise<number> {
  const written = performance.now();
  await writeSignup(session, name, className);
  const deadline = written + START_SECONDS * 1000 + 120_000;
  for (;;) {
    session.assertRunning();
    const tenant = session.tenants!.get(name);
    if (tenant !== undefined && tenantReady(tenant)) return Math.round(performance.now() - written);
    if (performance.now() > deadline) throw new Error(`signup ${name} was not Ready in time`);
    await sleep(20);
  }
}

/** The operator's claims of the pooled class, by result. */
export async function claimCounts(session: Session): Promise<{ warm: number; cold: number }> {
  const text = await session.operator!.metrics();
  const count = (result: string): number =>
    sumOf(text, 'landlord_pool_claims_total', { class: POOLED_CLASS, result });
  return { warm: count('warm'), cold: count('cold') };
}
