import { describe, expect, it } from 'vitest';
import { merge } from './merge.js';

async function* source(values: number[], failAfter?: number): AsyncGenerator<number> {
  for (const [index, value] of values.entries()) {
    if (index === failAfter) throw new Error(`source failed after ${index}`);
    await new Promise((resolve) => setImmediate(resolve));
    yield value;
  }
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('merge', () => {
  it('hands on every value of every source', async () => {
    const values = await collect(merge([source([1, 2, 3]), source([10, 20]), source([])]));
    expect(values.sort((a, b) => a - b)).toEqual([1, 2, 3, 10, 20]);
  });

  it('keeps each source’s own order', async () => {
    const values = await collect(merge([source([1, 2, 3]), source([10, 20, 30])]));
    expect(values.filter((v) => v < 10)).toEqual([1, 2, 3]);
    expect(values.filter((v) => v >= 10)).toEqual([10, 20, 30]);
  });

  it('fails as soon as one source fails, and stops the others', async () => {
    let stopped = false;
    async function* endless(): AsyncGenerator<number> {
      try {
        for (;;) {
          await new Promise((resolve) => setImmediate(resolve));
          yield 0;
        }
      } finally {
        stopped = true;
      }
    }
    await expect(collect(merge([endless(), source([1, 2, 3], 2)]))).rejects.toThrow('source failed after 2');
    expect(stopped).toBe(true);
  });
});
