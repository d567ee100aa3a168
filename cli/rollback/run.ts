// `landlord rollback`'s steps: read the tenant's revisions (the cluster) and its row (the table,
// strongly consistent); refuse unless the row still holds the newest revision's content; then the
// one conditional write (write.ts), or with --dry-run none. It never writes to the cluster: sync
// applies the row as any edit, and records it as a revision whose SOURCE is rollback.
import { GetItemCommand, UpdateItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { createClients } from '../../sync/dynamo/clients.js';
import { isConditionFailed } from '../../sync/dynamo/errors.js';
import type { Revision } from '../../api/revision.js';
import { parseRow } from '../../sync/row/index.js';
import { specDiff, summarize } from '../history/changes.js';
import { readRevisions } from '../history/read.js';
import { rollbackUpdate } from './write.js';

export interface RollbackRequest {
  tenant: string;
  revision: number;
  namespace: string;
  table: string;
  endpoint?: string;
  dryRun: boolean;
  changedBy: string;
}

/** A rollback that must not write: the reason is the whole message, for one line on stderr. */
class RollbackRefused extends Error {
  override name = 'RollbackRefused';
}

type Item = Record<string, AttributeValue>;

const rowChanged = (tenant: string, newest: Revision): string =>
  `the row of tenant ${tenant} changed since revision ${newest.revision} was recorded (edited since, or ` +
  'not yet applied by sync): nothing written; see `landlord history` once sync has applied it, and roll back from there';

function choose(
  revisions: readonly Revision[],
  request: RollbackRequest,
): { target: Revision; newest: Revision } {
  const newest = revisions.at(-1);
  if (newest === undefined)
    throw new RollbackRefused(`no revisions of tenant ${request.tenant} in namespace ${request.namespace}`);
  const target = revisions.find((r) => r.revision === request.revision);
  if (target === undefined) {
    const kept = revisions.map((r) => r.revision).join(', ');
    throw new RollbackRefused(`tenant ${request.tenant} has no revision ${request.revision} (kept: ${kept})`);
  }
  return { target, newest };
}

/** The row, checked to hold exactly the newest revision's content. */
function checkRow(item: Item | undefined, request: RollbackRequest, newest: Revision): Item {
  if (item === undefined)
    throw new RollbackRefused(`tenant ${request.tenant} has no row in table ${request.table}`);
  const row = parseRow(item);
  if (row.kind !== 'tenant' || row.hash !== newest.hash)
    throw new RollbackRefused(rowChanged(request.tenant, newest));
  return item;
}

/** What rollback did (or would do), for stdout. */
export async function rollback(request: RollbackRequest): Promise<string> {
  const { tenant, table } = request;
  const { target, newest } = choose(await readRevisions(request), request);
  const changes = specDiff(newest.row.spec, target.row.spec).map((c) => `  ${c}`);
  if (target.hash === newest.hash)
    return `tenant ${tenant}: the newest revision (${newest.revision}) already holds revision ${target.revision}'s content; nothing written\n`;
  const { db, streams } = createClients(request.endpoint);
  try {
    const read = await db.send(
      new GetItemCommand({ TableName: table, Key: { name: { S: tenant } }, ConsistentRead: true }),
    );
    const item = checkRow(read.Item, request, newest);
    const what = `revision ${target.revision} (now at ${newest.revision}): ${summarize(newest.row.spec, target.row.spec)}`;
    if (request.dryRun)
      return [
        `tenant ${tenant}: would roll back to ${what}`,
        ...changes,
        'dry run: nothing written',
        '',
      ].join('\n');
    try {
      await db.send(
        new UpdateItemCommand(rollbackUpdate({ table, read: item, target, changedBy: request.changedBy })),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new RollbackRefused(rowChanged(tenant, newest), { cause: err });
      throw err;
    }
    return [
      `tenant ${tenant}: rolled back to ${what}`,
      ...changes,
      `written to table ${table}; sync applies it as any edit, and records it as a revision with SOURCE rollback`,
      '',
    ].join('\n');
  } finally {
    db.destroy();
    streams.destroy();
  }
}
