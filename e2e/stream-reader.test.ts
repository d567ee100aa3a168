// sync's stream reader against moto's DynamoDB Streams: every change written while it reads reaches
// it, and a shard is read at most 4 times a second even while changes keep coming (DynamoDB allows
// 5 GetRecords a second per shard; a reader that reads again at once whenever the last read found
// records would exceed it under a steady write rate).
import { DescribeTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { createTenantTable } from '../harness/tenant-table.js';
import { waitUntil } from '../harness/wait.js';
import { StreamReader } from '../sync/dynamo/streams.js';
import { memoryLogger } from '../testing/sync.js';
import { dynamoClient, streamsClient } from './support/dynamo.js';
import { uniqueName } from './support/env.js';

const ROWS = 60;

describe('stream reader (moto)', () => {
  const abort = new AbortController();
  afterEach(() => abort.abort());

  it('takes in every change and reads a shard no more than 4 times a second', async () => {
    const dynamo = dynamoClient();
    const table = uniqueName('stream-pace');
    await createTenantTable(dynamo, table);
    const described = await dynamo.send(new DescribeTableCommand({ TableName: table }));
    const client = streamsClient();
    const reads: number[] = [];
    client.middlewareStack.add(
      (next, context) => (args) => {
        if (context.commandName === 'GetRecordsCommand') reads.push(performance.now());
        return next(args);
      },
      { step: 'initialize', name: 'countGetRecords' },
    );
    const reader = new StreamReader({
      client,
      streamArn: described.Table!.LatestStreamArn!,
      observeRetries: () => {},
      logger: memoryLogger().logger,
    });
    await reader.start(abort.signal);
    const seen = new Set<string>();
    const reading = (async () => {
      for await (const batch of reader.batches(abort.signal)) {
        for (const change of batch.changes) if (change.kind === 'upsert') seen.add(change.item.name?.S ?? '');
      }
    })().catch((err: unknown) => {
      if (!abort.signal.aborted) throw err;
    });

    // A row every 20 ms, so nearly every read finds records.
    for (let i = 0; i < ROWS; i++) {
      await dynamo.send(new PutItemCommand({ TableName: table, Item: { name: { S: `row-${i}` } } }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await waitUntil('every row read from the stream', () => Promise.resolve(seen.size === ROWS), {
      timeoutMs: 30_000,
    });
    abort.abort();
    await reading;

    // Rounds start at least 250 ms apart, whatever the machine's pace. A read is timed as the SDK
    // takes it, a little after its round starts, so a gap may look shorter by that delay; a reader
    // that reads again at once when records came would show gaps of a round trip, a few ms.
    expect(reads.length).toBeGreaterThan(2);
    for (let i = 1; i < reads.length; i++) expect(reads[i]! - reads[i - 1]!).toBeGreaterThanOrEqual(200);
  });
});
