// Heap measurements for unit tests of memory layout: a full collection on demand, which Node gives
// only behind --expose-gc. Turning the flag on at run time and taking `gc` from a fresh context
// works without restarting the test worker with other flags.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');

/** A full collection. */
export const collect = runInNewContext('gc') as () => void;

/** Heap in use after a full collection (twice: the first may leave what finalizers freed). */
export function heapUsed(): number {
  collect();
  collect();
  return getHeapStatistics().used_heap_size;
}
