// One purge of one tenant: its partition in each data table, one table after another, with the
// count per table kept in a PurgeStatus that the caller reports as it goes. Tables an earlier
// attempt completed are skipped; the others start again (the engine queries what is left) and
// their counts go on from what the earlier attempt recorded.
import { rfc3339 } from '../api/conditions.js';
import type { DatabasePurgeStatus, PurgeStatus } from '../api/tenant.js';
import type { DataTableSpec } from './data/data-table.js';
import { PermanentPurgeError, PurgeAbortedError } from './data/errors.js';
import { purgePartition, type PartitionPurgeOptions } from './data/partition-purge.js';
import { databaseLabel, withDatabase, withTable } from './status.js';

export type RunEnd =
  | { kind: 'completed'; purge: PurgeStatus }
  /** A table failed; `permanent`: retrying cannot help until the table or the configuration changes. */
  | { kind: 'failed'; purge: PurgeStatus; table: string; error: string; permanent: boolean }
  /** The signal stopped it; the purge says what was deleted until then. */
  | { kind: 'aborted'; purge: PurgeStatus };

export interface RunOptions {
  tenant: string;
  tables: readonly DataTableSpec[];
  engine: Omit<PartitionPurgeOptions, 'table' | 'tenant' | 'signal' | 'onProgress'>;
  signal: AbortSignal;
  /** Drops one tenant database and its role, idempotently (databases/drop.ts). */
  dropDatabase: (database: DatabasePurgeStatus) => Promise<void>;
  /** Called whenever a count or a table's phase moves; `deleted` and `throttled` are the increments. */
  onProgress: (purge: PurgeStatus, step: { table: string; deleted: number; throttled: number }) => void;
}

export async function runPurge(start: PurgeStatus, o: RunOptions): Promise<RunEnd> {
  let purge = start;
  for (const spec of o.tables) {
    const recorded = purge.tables.find((t) => t.table === spec.table);
    if (recorded?.phase === 'Completed') continue;
    const base = recorded?.deleted ?? 0;
    purge = withTable(purge, spec.table, { phase: 'Running', startedAt: rfc3339(new Date()) });
    o.onProgress(purge, { table: spec.table, deleted: 0, throttled: 0 });
    const ended = await purgeTable(purge, spec, base, o);
    purge = ended.purge;
    if (ended.kind !== 'completed') return ended;
  }
  return dropDatabases(purge, o);
}

/** The tenant's databases, after its tables: those an earlier attempt dropped are skipped. */
async function dropDatabases(start: PurgeStatus, o: RunOptions): Promise<RunEnd> {
  let purge = start;
  for (const database of start.databases ?? []) {
    if (database.phase === 'Completed') continue;
    if (o.signal.aborted) return { kind: 'aborted', purge };
    const label = databaseLabel(database);
    try {
      await o.dropDatabase(database);
    } catch (err) {
      purge = withDatabase(purge, database.name, { phase: 'Failed', finishedAt: rfc3339(new Date()) });
      // Retried with backoff whatever the cause: a fixed admin Secret must finish the purge unaided.
      const error = err instanceof Error ? err.message : String(err);
      return { kind: 'failed', purge, table: label, error, permanent: false };
    }
    purge = withDatabase(purge, database.name, { phase: 'Completed', finishedAt: rfc3339(new Date()) });
    o.onProgress(purge, { table: label, deleted: 0, throttled: 0 });
  }
  return { kind: 'completed', purge };
}

async function purgeTable(
  start: PurgeStatus,
  spec: DataTableSpec,
  base: number,
  o: RunOptions,
): Promise<RunEnd> {
  let purge = start;
  let seen = { deleted: 0, throttled: 0 };
  const onProgress = (p: { deleted: number; throttled: number }): void => {
    const step = {
      table: spec.table,
      deleted: p.deleted - seen.deleted,
      throttled: p.throttled - seen.throttled,
    };
    seen = { deleted: p.deleted, throttled: p.throttled };
    purge = withTable(purge, spec.table, { deleted: base + p.deleted });
    o.onProgress(purge, step);
  };
  try {
    const result = await purgePartition({
      ...o.engine,
      table: spec,
      tenant: o.tenant,
      signal: o.signal,
      onProgress,
    });
    onProgress({ deleted: result.deleted, throttled: result.throttled });
    const finishedAt = rfc3339(new Date());
    purge = withTable(purge, spec.table, { phase: 'Completed', finishedAt });
    return { kind: 'completed', purge };
  } catch (err) {
    if (err instanceof PurgeAbortedError || o.signal.aborted) return { kind: 'aborted', purge };
    purge = withTable(purge, spec.table, { phase: 'Failed', finishedAt: rfc3339(new Date()) });
    const error = err instanceof Error ? err.message : String(err);
    return { kind: 'failed', purge, table: spec.table, error, permanent: err instanceof PermanentPurgeError };
  }
}
