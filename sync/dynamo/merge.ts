// Several async sequences read at once, their values handed on in the order they arrive. Each
// source has at most one value in flight, so a slow consumer holds every source back: memory
// stays at one page per source whatever the table's size.

type Settled<T> = { index: number; result: IteratorResult<T> } | { index: number; error: unknown };

export async function* merge<T>(sources: readonly AsyncIterable<T>[]): AsyncGenerator<T> {
  const iterators = sources.map((source) => source[Symbol.asyncIterator]());
  const inFlight = new Map<number, Promise<Settled<T>>>();
  const pull = (index: number): void => {
    // Settled, never rejected: a source that fails while another is being consumed must not
    // surface as an unhandled rejection.
    const next = iterators[index]!.next().then(
      (result): Settled<T> => ({ index, result }),
      (error: unknown): Settled<T> => ({ index, error }),
    );
    inFlight.set(index, next);
  };
  iterators.forEach((_, index) => pull(index));
  try {
    while (inFlight.size > 0) {
      const settled = await Promise.race(inFlight.values());
      inFlight.delete(settled.index);
      if ('error' in settled) throw settled.error;
      if (settled.result.done === true) continue;
      pull(settled.index);
      yield settled.result.value;
    }
  } finally {
    // Sources still running are stopped; their callers abort their requests through a signal.
    const stopping = [...inFlight.keys()].map((index) => iterators[index]!.return?.() ?? Promise.resolve());
    await Promise.allSettled(stopping);
  }
}
