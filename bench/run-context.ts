// What every scenario gets from main: options, where to log, how long it may take.
import type { BenchOptions } from './args.js';

export interface RunContext {
  options: BenchOptions;
  /** The operator's LANDLORD_OPERATOR_CONCURRENCY (its default) and the baseline's client concurrency. */
  concurrency: number;
  /** Resync interval of sync and operator during the steady-state window, for N Tenants. */
  resyncSeconds: (n: number) => number;
  /** LANDLORD_SYNC_POLL_SECONDS for the polling edits. */
  pollSeconds: number;
  /** Component logs (and CPU profiles with --profile) of this run. */
  runDir: string;
  /** Progress lines for the person watching. */
  print: (line: string) => void;
  /** The control plane's own start-up chatter. */
  log: (line: string) => void;
  timeoutMs: (n: number) => number;
  loadAverage: () => number[];
}
