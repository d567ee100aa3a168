// Which stream shards to read, and from where. DynamoDB splits and closes shards over time: a
// child's records follow its parent's, so a child is read only once its parent has been read to
// its end (or the parent is no longer listed, its records trimmed). A closed shard is read until
// GetRecords stops handing out a next iterator; its children then take over.

type StartPosition = 'LATEST' | 'TRIM_HORIZON';

/** A shard as DescribeStream lists it. */
export interface ListedShard {
  id: string;
  parentId?: string;
}

export interface ShardState {
  readonly id: string;
  readonly parentId?: string;
  /** Where reading starts when there is no sequence number to continue after. */
  start: StartPosition;
  iterator?: string;
  /** The last record read: a renewed iterator continues right after it. */
  lastSequence?: string;
  /** Read to its end: closed, and GetRecords returned no next iterator. */
  finished: boolean;
}

export type Position = { type: StartPosition } | { type: 'AFTER_SEQUENCE_NUMBER'; sequence: string };

export class ShardTracker {
  private readonly shards = new Map<string, ShardState>();

  get size(): number {
    return this.shards.size;
  }

  get(id: string): ShardState | undefined {
    return this.shards.get(id);
  }

  /**
   * Merges a complete listing. At the first listing (`initial`), shards that are open start at
   * LATEST and closed ones count as read: everything before now is the initial scan's job. Shards
   * that appear later are new, and are read from their start. Returns the ids of shards that
   * vanished before they were read to their end: their unread records are lost.
   */
  update(listed: readonly (ListedShard & { closed: boolean })[], initial: boolean): string[] {
    const ids = new Set(listed.map((shard) => shard.id));
    const lost: string[] = [];
    for (const [id, state] of this.shards) {
      if (ids.has(id)) continue;
      this.shards.delete(id);
      if (!state.finished) lost.push(id);
    }
    for (const shard of listed) {
      if (this.shards.has(shard.id)) continue;
      this.shards.set(shard.id, {
        id: shard.id,
        ...(shard.parentId === undefined ? {} : { parentId: shard.parentId }),
        start: initial ? 'LATEST' : 'TRIM_HORIZON',
        finished: initial && shard.closed,
      });
    }
    return lost;
  }

  /** Shards to read now, parents before children, in a stable order. */
  readable(): ShardState[] {
    return [...this.shards.values()]
      .filter((shard) => !shard.finished && this.parentDone(shard))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private parentDone(shard: ShardState): boolean {
    if (shard.parentId === undefined) return true;
    const parent = this.shards.get(shard.parentId);
    return parent === undefined || parent.finished;
  }

  /** Where a new iterator for the shard must start. */
  position(id: string): Position {
    const shard = this.require(id);
    return shard.lastSequence === undefined
      ? { type: shard.start }
      : { type: 'AFTER_SEQUENCE_NUMBER', sequence: shard.lastSequence };
  }

  setIterator(id: string, iterator: string): void {
    this.require(id).iterator = iterator;
  }

  /** After a GetRecords: the next iterator (none: the shard is closed and read to its end). */
  advance(id: string, next: string | undefined, lastSequence: string | undefined): void {
    const shard = this.require(id);
    if (lastSequence !== undefined) shard.lastSequence = lastSequence;
    if (next === undefined) {
      delete shard.iterator;
      shard.finished = true;
    } else {
      shard.iterator = next;
    }
  }

  /**
   * The iterator expired. Returns true when the place it held cannot be found again: nothing was
   * read yet from a shard that started at LATEST, so a new LATEST skips whatever came in between,
   * and only a full scan (which the caller then runs) covers it.
   */
  expire(id: string): boolean {
    const shard = this.require(id);
    delete shard.iterator;
    return shard.lastSequence === undefined && shard.start === 'LATEST';
  }

  /**
   * The position fell off the stream's 24-hour retention: records were lost. Continue from now
   * (the caller rescans, which covers what was lost) rather than from the oldest record kept,
   * which would replay hours of outdated row contents.
   */
  lose(id: string): void {
    const shard = this.require(id);
    delete shard.iterator;
    delete shard.lastSequence;
    shard.start = 'LATEST';
  }

  private require(id: string): ShardState {
    const shard = this.shards.get(id);
    if (shard === undefined) throw new Error(`unknown stream shard ${id}`);
    return shard;
  }
}
