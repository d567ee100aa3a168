// The TableSource over DynamoDB: checks the table at start-up (a missing table or refused
// credentials is one clear line), scans it, follows its stream when it has one that carries new
// images, reads single rows and writes the one attribute sync owns on them (its conditional
// UpdateItem of `landlord`, when LANDLORD_SYNC_ROW_STATUS is on). A stream that goes away is looked up again; without one, sync polls.
// In index mode it reads neither the whole table nor the stream: its "scan" queries the cluster
// index for this cluster's rows, and sync polls that.
import {
  DescribeTableCommand,
  GetItemCommand,
  UpdateItemCommand,
  type TableDescription,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { Logger } from '../../runtime/logger.js';
import { counted, createClients, endpointText, type DynamoClients, type RetryObserver } from './clients.js';
import {
  describeError,
  isConditionFailed,
  isCredentialsError,
  isCredentialsMissing,
  isRegionMissing,
  isTableNotFound,
} from './errors.js';
import { StartupError } from '../../runtime/startup-error.js';
import { queryCluster, type ClusterQuery } from './query.js';
import { ROW_PROJECTION, scanTable } from './scan.js';
import { StreamGoneError, StreamReader } from './streams.js';
import type { ChangeBatch, Item, TableSource } from './table-source.js';

export interface DynamoSourceOptions {
  table: string;
  endpoint: string | undefined;
  scanSegments: number;
  /** Index mode: poll this cluster's rows from the cluster index instead of scanning and streaming. */
  index?: Omit<ClusterQuery, 'table'>;
  observeRetries: RetryObserver;
  logger: Logger;
}

const MISSING_CREDENTIALS =
  'no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or ' +
  "give sync's ServiceAccount an IAM role (IRSA: AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE)";

/** View types whose records carry the row's new content; KEYS_ONLY and OLD_IMAGE would need a read per record. */
const USABLE_VIEWS = new Set(['NEW_IMAGE', 'NEW_AND_OLD_IMAGES']);

/** The stream to follow, when the table has one that sync can use. */
export function usableStream(table: TableDescription | undefined): string | undefined {
  const spec = table?.StreamSpecification;
  if (spec?.StreamEnabled !== true || !USABLE_VIEWS.has(spec.StreamViewType ?? '')) return undefined;
  return table?.LatestStreamArn;
}

/** Index mode's table lacks the index: a configuration to fix, not a failure to retry. */
class MissingIndexError extends Error {
  override name = 'MissingIndexError';
}

/** The table has the index, keyed by `cluster` (a GSI keyed otherwise would answer the Query wrongly). */
export function hasClusterIndex(table: TableDescription | undefined, name: string): boolean {
  const index = table?.GlobalSecondaryIndexes?.find((gsi) => gsi.IndexName === name);
  const hashKey = index?.KeySchema?.find((key) => key.KeyType === 'HASH');
  return hashKey?.AttributeName === 'cluster';
}

export class DynamoTableSource implements TableSource {
  private readonly clients: DynamoClients;
  private streamArn: string | undefined;
  private reader: StreamReader | undefined;
  /** The stream went away: look the table up again before reading changes. */
  private lost = false;

  constructor(private readonly options: DynamoSourceOptions) {
    this.clients = createClients(options.endpoint);
  }

  get streaming(): boolean {
    return this.streamArn !== undefined;
  }

  /** Start-up check: the table exists and these credentials may read it. Throws StartupError. */
  async check(signal?: AbortSignal): Promise<void> {
    try {
      await this.describe(signal);
    } catch (err) {
      throw await this.startupError(err);
    }
    this.options.logger.info('reading the table', { table: this.options.table, ...this.mode() });
  }

  private mode(): Record<string, string> {
    const { index } = this.options;
    if (index !== undefined) return { mode: 'index', index: index.index, cluster: index.cluster };
    if (this.streaming) return { mode: 'stream' };
    return { mode: 'poll', why: 'the table has no stream with new images (NEW_IMAGE or NEW_AND_OLD_IMAGES)' };
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.streamArn === undefined) return;
    const reader = new StreamReader({
      client: this.clients.streams,
      streamArn: this.streamArn,
      observeRetries: this.options.observeRetries,
      logger: this.options.logger,
    });
    await reader.start(signal);
    this.reader = reader;
  }

  scan(signal: AbortSignal): AsyncIterable<Item[]> {
    const { table, scanSegments: segments, observeRetries, index } = this.options;
    if (index !== undefined)
      return queryCluster(this.clients.db, { table, ...index }, observeRetries, signal);
    return scanTable({ client: this.clients.db, table, segments, observeRetries }, signal);
  }

  async *changes(signal: AbortSignal): AsyncGenerator<ChangeBatch> {
    if (this.lost) {
      // The new stream (if any) starts at LATEST now, and the scan asked for here covers the gap.
      await this.describe(signal);
      await this.start(signal);
      this.lost = false;
      yield { changes: [{ kind: 'rescan', reason: 'the table stream was replaced or disabled' }] };
    }
    if (this.reader === undefined) return;
    try {
      yield* this.reader.batches(signal);
    } catch (err) {
      if (!(err instanceof StreamGoneError)) throw err;
      this.options.logger.warn('the table stream is gone; looking it up again', { error: err.message });
      this.reader = undefined;
      this.lost = true;
    }
  }

  async read(name: string, signal: AbortSignal): Promise<Item | undefined> {
    const command = new GetItemCommand({
      TableName: this.options.table,
      Key: { name: { S: name } },
      ConsistentRead: true,
      ...ROW_PROJECTION,
    });
    const out = await counted('GetItem', this.options.observeRetries, () =>
      this.clients.db.send(command, { abortSignal: signal }),
    );
    return out.Item;
  }

  /**
   * A conditional UpdateItem of one row (sync's only write to its table, row-status/update.ts):
   * true when written, false when its condition found the row changed, which is no error.
   */
  async update(input: UpdateItemCommandInput, signal: AbortSignal): Promise<boolean> {
    const command = new UpdateItemCommand(input);
    try {
      await counted('UpdateItem', this.options.observeRetries, () =>
        this.clients.db.send(command, { abortSignal: signal }),
      );
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  close(): void {
    this.clients.db.destroy();
    this.clients.streams.destroy();
  }

  private async describe(signal: AbortSignal | undefined): Promise<void> {
    const command = new DescribeTableCommand({ TableName: this.options.table });
    const out = await counted('DescribeTable', this.options.observeRetries, () =>
      this.clients.db.send(command, signal === undefined ? {} : { abortSignal: signal }),
    );
    const { index } = this.options;
    // Index mode never reads the stream: that is its point (at most two readers per shard).
    this.streamArn = index === undefined ? usableStream(out.Table) : undefined;
    if (index !== undefined && !hasClusterIndex(out.Table, index.index))
      throw new MissingIndexError(
        `the table has no global secondary index ${JSON.stringify(index.index)} on cluster`,
      );
  }

  private async startupError(err: unknown): Promise<StartupError> {
    const table = `DYNAMODB_TABLE ${JSON.stringify(this.options.table)}`;
    if (isRegionMissing(err)) {
      return new StartupError(
        `${table}: no AWS region is configured; set AWS_REGION (or a region in the AWS config)`,
      );
    }
    const region = await this.region();
    const where = `in ${region} at ${endpointText(this.options.endpoint, region)}`;
    if (isTableNotFound(err)) return new StartupError(`${table}: table not found ${where}`);
    if (err instanceof MissingIndexError) return new StartupError(`${table}: ${err.message} ${where}`);
    if (isCredentialsMissing(err)) return new StartupError(`${table}: ${MISSING_CREDENTIALS}`);
    if (isCredentialsError(err)) {
      return new StartupError(`${table}: credentials refused ${where}: ${describeError(err)}`);
    }
    return new StartupError(`${table}: cannot describe the table ${where}: ${describeError(err)}`);
  }

  private async region(): Promise<string> {
    try {
      return await this.clients.db.config.region();
    } catch {
      return 'an unknown region';
    }
  }
}
