// Edit latency: from the UpdateItem that changes a row's image to the moment the watch on the
// tenants' Deployments (the bench namespace's, or PerTenant every namespace's) sees the tenant's
// first Deployment with that image; a row of several Deployments is edited whole. With a stream,
// edits go one at a time; by polling, in waves of a few distinct tenants, since each waits out a
// poll interval and a full scan anyway (the latency of each is still its own). Each wave waits a
// random 0-1 s first: an edit made right after the previous one was seen would always land at the
// same point of sync's polling cycle (just after a read) and measure its worst case, not a user's.
import type { V1Deployment } from '@kubernetes/client-node';
import { editImage, recreateWithoutStream } from '../dynamo.js';
import { summarize, type LatencySummary } from '../measure/percentiles.js';
import { sleep } from '../pool.js';
import { benchReplicas, deploymentName } from '../rows.js';
import { TABLE, type Session } from './session.js';

export type EditMode = 'stream' | 'poll';

export interface EditResult extends LatencySummary {
  mode: EditMode;
  /** LANDLORD_SYNC_POLL_SECONDS, for the polling run. */
  pollSeconds?: number;
  wave: number;
  timeouts: number;
}

const EDIT_TIMEOUT_MS = 120_000;
const POLL_WAVE = 5;

type Waiter = { image: string; resolve: (at: number) => void };

function imageOf(d: V1Deployment): string | undefined {
  return d.spec?.template.spec?.containers[0]?.image;
}

/** Spreads edits over the tenants; consecutive edits always touch different tenants. */
const target = (session: Session, i: number, count: number): string =>
  session.names[Math.floor((i * session.n) / Math.max(count, session.n)) % session.n]!;

export async function measureEdits(session: Session, mode: EditMode): Promise<EditResult> {
  const deployments = await session.watchDeployments();
  const waiters = new Map<string, Waiter>();
  const seen = (d: V1Deployment): void => {
    const waiter = waiters.get(d.metadata?.name ?? '');
    if (waiter !== undefined && imageOf(d) === waiter.image) waiter.resolve(performance.now());
  };
  deployments.on('add', seen);
  deployments.on('update', seen);
  const count = session.ctx.options.edits;
  const wave = mode === 'stream' ? 1 : POLL_WAVE;
  const latencies: number[] = [];
  let timeouts = 0;
  for (let start = 0; start < count; start += wave) {
    const batch = Array.from({ length: Math.min(wave, count - start) }, (_, k) => start + k);
    await sleep(Math.random() * 1_000);
    session.assertRunning();
    const results = await Promise.all(batch.map((i) => editOnce(session, waiters, i, mode)));
    for (const ms of results) {
      if (ms === undefined) timeouts += 1;
      else latencies.push(ms);
    }
    if (start % 20 === 0)
      session.ctx.print(`[N=${session.n}] edits (${mode}): ${start + batch.length}/${count}`);
  }
  return {
    mode,
    wave,
    timeouts,
    ...(mode === 'poll' ? { pollSeconds: session.ctx.pollSeconds } : {}),
    ...summarize(latencies),
  };
}

async function editOnce(
  session: Session,
  waiters: Map<string, Waiter>,
  i: number,
  mode: EditMode,
): Promise<number | undefined> {
  const name = target(session, i, session.ctx.options.edits);
  const image = `nginx:${mode}-${i}`;
  const key = deploymentName(name);
  let timer: NodeJS.Timeout | undefined;
  const changed = new Promise<number | undefined>((resolve) => {
    waiters.set(key, { image, resolve });
    timer = setTimeout(() => resolve(undefined), EDIT_TIMEOUT_MS);
  });
  const started = performance.now();
  const { options } = session.ctx;
  await editImage(session.dynamo, TABLE, {
    name,
    image,
    replicas: benchReplicas(options),
    services: options.services,
  });
  const watchdog = new AbortController();
  const at = await Promise.race([changed, failed(session, watchdog.signal)]).finally(() => watchdog.abort());
  clearTimeout(timer);
  waiters.delete(key);
  return at === undefined ? undefined : at - started;
}

/** Rejects as soon as sync or the operator is found dead, so an edit does not wait out its timeout. */
async function failed(session: Session, stop: AbortSignal): Promise<undefined> {
  while (!stop.aborted) {
    await sleep(1_000);
    if (!stop.aborted) session.assertRunning();
  }
  return undefined;
}

/** Replaces the stream-following sync by one that polls a table without a stream. */
export async function switchToPolling(session: Session): Promise<void> {
  await session.stopSync('sync-stream');
  await recreateWithoutStream(session.dynamo, TABLE);
  const sync = session.startSync('sync-poll', {
    LANDLORD_SYNC_POLL_SECONDS: String(session.ctx.pollSeconds),
  });
  const timeoutMs = session.ctx.timeoutMs(session.n);
  const mode = await sync.waitForLog((l) => l.msg === 'reading the table', timeoutMs);
  if (mode.mode !== 'poll') throw new Error(`sync still reads the table in ${String(mode.mode)} mode`);
  await sync.waitForLog((l) => l.msg === 'scan complete', timeoutMs);
}
