// sync when DynamoDB misbehaves or is not what it expects: frozen, missing, or without a stream.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ANNOTATION, type Tenant } from '../api/tenant.js';
import { SYNC_LOG } from '../sync/reasons.js';
import { waitUntil } from '../harness/wait.js';
import { envValue, uniqueName } from './support/env.js';
import { faults } from './support/faults.js';
import { metricValue, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteRow,
  deleteSyncedTenants,
  putRow,
  readTenant,
  row,
  startSync,
  syncedCondition,
  syncedTenants,
  updateRow,
} from './support/sync.js';

const started: LandlordProcess[] = [];
const tables: string[] = [];

function launch(table: string, env: Record<string, string> = {}): LandlordProcess {
  const sync = startSync(table, env);
  started.push(sync);
  return sync;
}

const image = (tenant: Tenant | undefined): string | undefined =>
  tenant?.spec?.deployment?.spec?.template.spec?.containers[0]?.image;

/** Waits until sync's Tenants for `table` are exactly `names`, all Synced=True. */
function convergedTo(table: string, names: string[], timeoutMs = 60_000): Promise<Tenant[]> {
  return waitUntil(
    `the Tenants of ${table} to be ${names.join(', ')}`,
    async () => {
      const tenants = await syncedTenants(table);
      const ok =
        tenants.length === names.length &&
        tenants.every((t) => names.includes(t.metadata.name!) && syncedCondition(t)?.status === 'True');
      return ok ? tenants : undefined;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

afterEach(async () => {
  // A frozen moto would fail every later test; resuming a running one is harmless.
  await faults.resumeDynamo();
  for (const sync of started.splice(0)) await sync.stop();
});

afterAll(async () => {
  for (const table of tables) await deleteSyncedTenants(table);
});

describe('DynamoDB unavailable', () => {
  it('deletes nothing while DynamoDB is frozen, stays alive, and converges once it returns', async () => {
    const table = uniqueName('sync-frozen');
    tables.push(table);
    await createTable(table);
    const names = [uniqueName('frozen'), uniqueName('frozen'), uniqueName('frozen')];
    for (const name of names) await putRow(table, row(name));
    const sync = launch(table, { LANDLORD_SYNC_RESYNC_SECONDS: '2' });
    const before = await convergedTo(table, names);
    const pausedAt = Date.now();
    await faults.pauseDynamo();
    try {
      // A resync came due while frozen: its scan failed, and nothing was pruned.
      await sync.waitForLog(
        (l) => l.msg === SYNC_LOG.scanFailed && Date.parse(String(l.time)) > pausedAt,
        120_000,
      );
      const during = await syncedTenants(table);
      expect(during.map((t) => t.metadata.uid).sort()).toEqual(before.map((t) => t.metadata.uid).sort());
      const health = await fetch(`http://127.0.0.1:${await sync.httpPort()}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await faults.resumeDynamo();
    }
    const recovered = Date.now();
    const added = uniqueName('after');
    await updateRow(table, names[0]!, { spec: String(row(names[0]!, 'nginx:1.28').spec) });
    await putRow(table, row(added));
    const after = await convergedTo(table, [...names, added]);
    expect(image(after.find((t) => t.metadata.name === names[0]))).toBe('nginx:1.28');
    console.log(`sync: converged ${((Date.now() - recovered) / 1000).toFixed(1)} s after DynamoDB resumed`);
    const kept = after.filter((t) => names.includes(t.metadata.name!)).map((t) => t.metadata.uid);
    expect(kept.sort()).toEqual(before.map((t) => t.metadata.uid).sort());
    expect(sync.logs.some((l) => l.msg === SYNC_LOG.deletedGone)).toBe(false);
    const text = await sync.metrics();
    expect(metricValue(text, 'landlord_dynamodb_retries_total')).toBeGreaterThan(0);
    expect(metricValue(text, 'landlord_sync_scans_total', { result: 'error' })).toBeGreaterThan(0);
  });
});

describe('start-up', () => {
  it('stops with one clear line when the table does not exist', async () => {
    const sync = launch('no-such-table');
    expect(await sync.exited).toBe(2);
    const errors = sync.logs.filter((l) => l.level === 'error');
    expect(errors[0]?.msg).toBe(
      `DYNAMODB_TABLE "no-such-table": table not found in us-east-1 at ${envValue('DYNAMODB_ENDPOINT')}`,
    );
  });

  it('stops with one line naming the variable when DYNAMODB_TABLE is missing', async () => {
    const sync = launch('');
    expect(await sync.exited).not.toBe(0);
    expect(sync.logs.map((l) => l.msg).join('\n')).toContain('DYNAMODB_TABLE is required');
  });
});

describe('a table without a stream', () => {
  it('is polled: rows still become Tenants, edits apply and gone rows are pruned', async () => {
    const table = uniqueName('sync-poll');
    tables.push(table);
    await createTable(table, false);
    const names = Array.from({ length: 6 }, () => uniqueName('poll'));
    for (const name of names) await putRow(table, row(name));
    const sync = launch(table, { LANDLORD_SYNC_POLL_SECONDS: '1', LANDLORD_SYNC_SCAN_SEGMENTS: '3' });
    await sync.waitForLog((l) => l.msg === 'reading the table' && l.mode === 'poll');
    await convergedTo(table, names);
    await updateRow(table, names[0]!, { spec: String(row(names[0]!, 'nginx:1.30').spec) });
    await deleteRow(table, names[1]!);
    await convergedTo(table, [names[0]!, ...names.slice(2)]);
    const edited = await waitUntil(
      'the edit to be polled',
      async () => {
        const tenant = await readTenant(names[0]!);
        return image(tenant) === 'nginx:1.30' ? tenant : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(edited.metadata.annotations?.[ANNOTATION.table]).toBe(table);
  });
});
