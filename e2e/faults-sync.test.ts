// sync killed with SIGKILL in the middle of its work, and restarted: during the first scan of a
// large table, and while it follows the stream under a steady flow of writes. Nothing is deleted
// that has a row, what changed while it was down arrives, and what was done is not done again.
// Also the mass-deletion guard on the path sync-guard.test.ts does not take: a table emptied while
// sync was down, which only a scan (no stream record) can notice.
import { afterAll, describe, expect, it } from 'vitest';
import { ANNOTATION } from '../api/tenant.js';
import { SYNC_LOG } from '../sync/reasons.js';
import { waitUntil } from '../harness/wait.js';
import { uniqueName } from './support/env.js';
import { metricValue, type LandlordProcess } from './support/landlord.js';
import { seed, seededRandom, sleep, SOAK } from './support/suite.js';
import { tenantsLost, tenantUids, waitSynced } from './support/sync-converged.js';
import {
  batchWrite,
  createTable,
  deleteRow,
  deleteSyncedTenants,
  eventsFor,
  loggedAtLeast,
  lowLevel,
  row,
  startSync,
  syncedTenants,
  updateRow,
} from './support/sync.js';

const SEED = seed();
const SCAN_KILLS = SOAK ? 10 : 3;
const random = seededRandom(SEED);
const processes: LandlordProcess[] = [];
const tables: string[] = [];

function launch(table: string, env: Record<string, string> = {}): LandlordProcess {
  const sync = startSync(table, { LANDLORD_LOG_LEVEL: 'info', ...env });
  processes.push(sync);
  return sync;
}

async function newTable(prefix: string, stream = true): Promise<string> {
  const table = uniqueName(prefix);
  tables.push(table);
  await createTable(table, stream);
  return table;
}

/** Tenants sync made (POST) or wrote a spec to (apply). */
const specWrites = async (sync: LandlordProcess): Promise<number> => {
  const text = await sync.metrics();
  const count = (kind: string): number => metricValue(text, 'landlord_sync_writes_total', { kind });
  return count('create') + count('apply');
};
const scanned = (sync: LandlordProcess): boolean => sync.logs.some((l) => l.msg === SYNC_LOG.scanComplete);

/** A row padded to about `bytes`, so that a scan of many of them spans several 1 MB pages. */
function paddedRow(name: string, bytes: number, image = 'nginx:1.27'): Record<string, unknown> {
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${name}-pad`, namespace: 'default' },
    data: { pad: 'x'.repeat(bytes) },
  };
  return { ...row(name, image), customizations: JSON.stringify([configMap]) };
}

afterAll(async () => {
  for (const p of processes) p.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  for (const table of tables) await deleteSyncedTenants(table);
});

/** The Tenants that carry a row hash (sync wrote them), once that number held still for a second. */
async function writtenOnceSettled(table: string): Promise<number> {
  let previous = -1;
  for (;;) {
    const now = (await syncedTenants(table)).filter(
      (t) => t.metadata.annotations?.[ANNOTATION.rowHash],
    ).length;
    if (now === previous) return now;
    previous = now;
    await sleep(1_000);
  }
}

describe('SIGKILL of sync', () => {
  it(`during the first scan of a large table, ${SCAN_KILLS} times: each restart writes only what is left`, async () => {
    console.log(`faults-sync: seed ${SEED}`);
    // Each run is killed after 20-170 writes, and the writes already in flight land too (up to
    // about 60 more were seen): 300 rows per kill keep every kill in the middle of the scan.
    const ROWS = SCAN_KILLS * 300;
    const table = await newTable('kill-scan', false);
    const names = Array.from({ length: ROWS }, (_, i) => `${table}-${String(i).padStart(4, '0')}`);
    // 2.5 KB rows: a table of 900 (2.2 MB) takes three Scan pages.
    await batchWrite(
      table,
      names.map((name) => ({ PutRequest: { Item: lowLevel(paddedRow(name, 2_300)) } })),
    );
    const rows = new Map(names.map((name) => [name, 'nginx:1.27']));
    const seen = new Map<string, string>();
    for (let kill = 1; kill <= SCAN_KILLS; kill++) {
      const sync = launch(table, { LANDLORD_SYNC_POLL_SECONDS: '2' });
      const at = 20 + Math.floor(random() * 150);
      await waitUntil(`sync to write ${at} Tenants`, async () => (await specWrites(sync)) >= at, {
        timeoutMs: 120_000,
      });
      sync.kill('SIGKILL');
      expect(await sync.exited).toBe('SIGKILL');
      expect(scanned(sync)).toBe(false);
      for (const [name, uid] of await tenantUids(table)) if (!seen.has(name)) seen.set(name, uid);
      console.log(`faults-sync: kill ${kill} mid-scan after ${at}+ writes; ${seen.size} Tenants so far`);
    }
    // Requests already sent when the process died may still land: count once the count holds still.
    const done = await writtenOnceSettled(table);
    const sync = launch(table, { LANDLORD_SYNC_POLL_SECONDS: '2' });
    const ms = await waitSynced(table, rows, 240_000);
    console.log(`faults-sync: ${ROWS} Tenants synced ${(ms / 1000).toFixed(1)} s after the last restart`);
    expect(await tenantsLost(table, seen)).toEqual([]);
    expect(await specWrites(sync)).toBe(ROWS - done);
  });

  it('while it follows the stream: changes made while it was down arrive, deleted rows go, the rest stay', async () => {
    const table = await newTable('kill-stream');
    const rows = new Map<string, string>();
    const put = async (names: string[], image = 'nginx:1.27'): Promise<void> => {
      await batchWrite(
        table,
        names.map((name) => ({ PutRequest: { Item: lowLevel(row(name, image)) } })),
      );
      names.forEach((name) => rows.set(name, image));
    };
    const first = Array.from({ length: 20 }, (_, i) => `${table}-a${i}`);
    await put(first);
    const sync = launch(table, { LANDLORD_SYNC_RESYNC_SECONDS: '300' });
    await waitSynced(table, rows, 60_000);
    const before = await tenantUids(table);
    // A steady flow of new rows, which only the stream brings in until the next resync.
    const flowing = (async () => {
      for (let wave = 0; wave < 15; wave++) {
        await put(Array.from({ length: 10 }, (_, i) => `${table}-w${wave}-${i}`));
        await sleep(300);
      }
    })();
    await waitUntil('sync to write 40 Tenants from the stream', async () => (await specWrites(sync)) >= 60, {
      timeoutMs: 60_000,
    });
    sync.kill('SIGKILL');
    await sync.exited;
    const edited = first.slice(0, 5);
    for (const name of edited) {
      await updateRow(table, name, { spec: String(row(name, 'nginx:1.28').spec) });
      rows.set(name, 'nginx:1.28');
    }
    const removed = first.slice(5, 8);
    for (const name of removed) {
      await deleteRow(table, name);
      rows.delete(name);
    }
    await flowing;
    const restarted = launch(table, { LANDLORD_SYNC_RESYNC_SECONDS: '300' });
    const ms = await waitSynced(table, rows, 120_000);
    console.log(
      `faults-sync: ${rows.size} Tenants match their rows ${(ms / 1000).toFixed(1)} s after restart`,
    );
    expect(await tenantsLost(table, before, new Set(removed))).toEqual([]);
    const deleted = (await loggedAtLeast(restarted, SYNC_LOG.deletedGone, removed.length)).map(
      (l) => l.tenant,
    );
    expect(deleted.sort()).toEqual([...removed].sort());
  });
});

describe('a table emptied while sync was down', () => {
  it('is noticed by the first scan, which deletes at most the allowed share and reports the rest', async () => {
    const table = await newTable('guard-scan', false);
    const names = Array.from({ length: 30 }, (_, i) => `${table}-${String(i).padStart(2, '0')}`);
    await batchWrite(
      table,
      names.map((name) => ({ PutRequest: { Item: lowLevel(row(name)) } })),
    );
    const env = {
      LANDLORD_SYNC_POLL_SECONDS: '1',
      // Without a stream the budget lasts a resync interval, not a poll: a pass every 3 s.
      LANDLORD_SYNC_RESYNC_SECONDS: '3',
      LANDLORD_SYNC_MAX_DELETE_FRACTION: '0.1',
      LANDLORD_SYNC_MAX_DELETE_MINIMUM: '2',
    };
    const first = launch(table, env);
    await waitSynced(table, new Map(names.map((n) => [n, 'nginx:1.27'])), 60_000);
    expect(await first.stop()).toBe(0);
    await batchWrite(
      table,
      names.map((name) => ({ DeleteRequest: { Key: { name: { S: name } } } })),
    );
    const sync = launch(table, env);
    const held = await sync.waitForLog((l) => l.msg === SYNC_LOG.heldBack);
    expect(held.heldBack).toBe(27); // max(2, 10% of 30) = 3 may go in the first pass
    await waitUntil(
      'three more passes',
      () => {
        const passes = sync.logs.filter((l) => l.msg === SYNC_LOG.heldBack).map((l) => Number(l.pass));
        return Promise.resolve(Math.max(...passes) >= 4);
      },
      { timeoutMs: 60_000 },
    );
    const perPass = new Map<number, number>();
    for (const line of sync.logs.filter((l) => l.msg === SYNC_LOG.deletedGone))
      perPass.set(Number(line.pass), (perPass.get(Number(line.pass)) ?? 0) + 1);
    console.log(
      `faults-sync: deletions per pass after the table was emptied: ${JSON.stringify([...perPass])}`,
    );
    expect(Math.max(...perPass.values())).toBeLessThanOrEqual(3);
    expect((await syncedTenants(table)).length).toBeGreaterThanOrEqual(30 - 3 * Math.max(...perPass.keys()));
    const heldName = (held.tenants as string[]).at(-1)!;
    await waitUntil(
      'a DeletionsHeldBack Event',
      async () => (await eventsFor(heldName, 'DeletionsHeldBack')).length > 0,
      {
        timeoutMs: 30_000,
      },
    );
    expect(
      metricValue(await sync.metrics(), 'landlord_sync_deletions_held_back_total'),
    ).toBeGreaterThanOrEqual(27);
  });
});
