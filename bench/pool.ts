// Runs `count` tasks with at most `concurrency` in flight, like the operator's work queue does:
// the baseline must use the same client concurrency to be a fair limit.

export async function runPool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds since `start` (a performance.now() value), to one decimal. */
export const secondsSince = (start: number): number => Math.round((performance.now() - start) / 100) / 10;
