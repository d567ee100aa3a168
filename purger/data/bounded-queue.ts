// A queue of limited length between one producer and several consumers: the producer waits while
// it is full, so memory stays bounded whatever the amount of work behind it. Closing it wakes
// everyone: consumers drain what is left and then get `undefined`, the producer's puts fail.

export class BoundedQueue<T> {
  private readonly items: T[] = [];
  private readonly takers: ((item: T | undefined) => void)[] = [];
  private readonly putters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`queue capacity must be an integer ≥ 1, got ${capacity}`);
    }
  }

  get length(): number {
    return this.items.length;
  }

  /** Adds an item once there is room; false when the queue was closed (the item is dropped). */
  async put(item: T): Promise<boolean> {
    while (!this.closed && this.items.length >= this.capacity) {
      await new Promise<void>((resolve) => this.putters.push(resolve));
    }
    if (this.closed) return false;
    const taker = this.takers.shift();
    if (taker === undefined) this.items.push(item);
    else taker(item);
    return true;
  }

  /** The next item; `undefined` once the queue is closed and empty. */
  take(): Promise<T | undefined> {
    const item = this.items.shift();
    if (item !== undefined) {
      this.putters.shift()?.();
      return Promise.resolve(item);
    }
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.takers.push(resolve));
  }

  /** No more items will come; waiting consumers get `undefined`, waiting producers `false`. */
  close(): void {
    this.closed = true;
    for (const taker of this.takers.splice(0)) taker(undefined);
    for (const putter of this.putters.splice(0)) putter();
  }
}
