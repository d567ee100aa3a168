// Mutual exclusion by key within one process: work on a key waits for earlier work on the same key.
// Several keys are always taken in sorted order, so two holders of overlapping sets cannot deadlock.

export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async withKeys<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      for (const key of [...new Set(keys)].sort()) releases.push(await this.acquire(key));
      return await work();
    } finally {
      releases.reverse().forEach((release) => release());
    }
  }

  /** Number of keys currently held or waited for (for tests). */
  get size(): number {
    return this.tails.size;
  }

  private async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => done);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      // The last holder cleans up, so the map only holds keys in use.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
