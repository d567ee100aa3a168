import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('KeyedLock', () => {
  it('runs work on the same key one at a time, in arrival order', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = lock.withKeys(['a'], async () => {
      order.push('first start');
      await gate;
      order.push('first end');
    });
    const second = lock.withKeys(['a'], () => {
      order.push('second');
      return Promise.resolve();
    });
    await tick();
    expect(order).toEqual(['first start']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first start', 'first end', 'second']);
    expect(lock.size).toBe(0);
  });

  it('lets different keys run at once', async () => {
    const lock = new KeyedLock();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = lock.withKeys(['a'], () => gate);
    let ran = false;
    await lock.withKeys(['b'], () => {
      ran = true;
      return Promise.resolve();
    });
    expect(ran).toBe(true);
    release();
    await held;
  });

  it('takes overlapping key sets in a fixed order, so crossing holders do not deadlock', async () => {
    const lock = new KeyedLock();
    const work = (): Promise<void> => tick();
    await Promise.all([
      lock.withKeys(['x', 'y'], work),
      lock.withKeys(['y', 'x'], work),
      lock.withKeys(['y'], work),
    ]);
    expect(lock.size).toBe(0);
  });

  it('releases the keys when the work throws', async () => {
    const lock = new KeyedLock();
    await expect(lock.withKeys(['a'], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.withKeys(['a'], () => Promise.resolve('next'))).resolves.toBe('next');
  });
});
