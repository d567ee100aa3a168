// A full, strongly consistent, paginated Scan of the table, in parallel segments. Pages are handed
// on as they arrive; the first page that cannot be read (after the SDK's retries) fails the whole
// scan, so a scan that stopped half-way can never be mistaken for a complete one.
import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { merge } from './merge.js';
import { counted, type RetryObserver } from './clients.js';
import type { Item } from './table-source.js';

/**
 * Only the row's contract attributes, its change note among them (api/row-notes.ts), and the
 * readiness sync wrote (row-status/), so that a scan tells sync whether it is current: anything
 * else on the row is ignored, so it need not travel.
 */
export const ROW_PROJECTION = {
  ProjectionExpression:
    '#name, #spec, #customizations, #deleted, #state, #class, #cluster, #hosts, #changedBy, #changeReason, #rollbackHash, #landlord',
  ExpressionAttributeNames: {
    '#name': 'name',
    '#spec': 'spec',
    '#customizations': 'customizations',
    '#deleted': 'deleted',
    '#state': 'state',
    '#class': 'class',
    '#cluster': 'cluster',
    '#hosts': 'hosts',
    '#changedBy': 'changedBy',
    '#changeReason': 'changeReason',
    '#rollbackHash': 'rollbackHash',
    '#landlord': 'landlord',
  },
} as const;

export interface ScanOptions {
  client: DynamoDBClient;
  table: string;
  segments: number;
  observeRetries: RetryObserver;
}

export async function* scanTable(options: ScanOptions, signal: AbortSignal): AsyncGenerator<Item[]> {
  if (options.segments === 1) {
    yield* scanSegment(options, undefined, signal);
    return;
  }
  // One failed segment stops the others' requests at once instead of letting them run on.
  const local = new AbortController();
  const both = AbortSignal.any([signal, local.signal]);
  const segments = Array.from({ length: options.segments }, (_, segment) =>
    scanSegment(options, segment, both),
  );
  try {
    yield* merge(segments);
  } finally {
    local.abort();
  }
}

async function* scanSegment(
  options: ScanOptions,
  segment: number | undefined,
  signal: AbortSignal,
): AsyncGenerator<Item[]> {
  let startKey: Item | undefined;
  do {
    const command = new ScanCommand({
      TableName: options.table,
      ConsistentRead: true,
      ...ROW_PROJECTION,
      ...(segment === undefined ? {} : { Segment: segment, TotalSegments: options.segments }),
      ExclusiveStartKey: startKey,
    });
    const page = await counted('Scan', options.observeRetries, () =>
      options.client.send(command, { abortSignal: signal }),
    );
    startKey = page.LastEvaluatedKey;
    yield page.Items ?? [];
  } while (startKey !== undefined);
}
