// What sync reads the table through: a full scan, the changes since, and a single row. Kept this
// small so that the sync logic does not know DynamoDB; dynamo-source.ts is the implementation.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** One row as DynamoDB returns it: attribute name → typed value. */
export type Item = Record<string, AttributeValue>;

export type Change =
  /** The row was written; `item` is its new content (a stream record's NewImage). */
  | { kind: 'upsert'; item: Item }
  /** The row was deleted from the table. */
  | { kind: 'remove'; name: string }
  /** The change feed lost its place (an expired or trimmed position): only a full scan is sure again. */
  | { kind: 'rescan'; reason: string };

export interface ChangeBatch {
  changes: Change[];
  /** When the newest change in the batch was made, for the lag metric. */
  newestAt?: Date;
}

export interface TableSource {
  /** Whether changes() follows a stream; without one, sync polls by scanning. */
  readonly streaming: boolean;
  /**
   * Pins the change feed's position (LATEST) so that the scan that follows misses nothing: a change
   * made during the scan shows up in both, and reading it twice is harmless.
   */
  start(signal: AbortSignal): Promise<void>;
  /** Every row, a page at a time; throws when any page cannot be read, so an incomplete scan never looks complete. */
  scan(signal: AbortSignal): AsyncIterable<Item[]>;
  /** Changes since the position start() pinned, until the signal aborts; empty without a stream. */
  changes(signal: AbortSignal): AsyncIterable<ChangeBatch>;
  /** The row named `name` (strongly consistent), or undefined when it does not exist. */
  read(name: string, signal: AbortSignal): Promise<Item | undefined>;
  close(): void;
}
