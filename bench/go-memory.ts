// The control plane's Go processes (the API server above all) run with a soft memory limit,
// GOMEMLIMIT, of 55 % of the machine's memory unless the environment already sets one. Go lets its
// heap double between collections (GOGC=100): at 20,000 tenants with every feature on, the API
// server alone would pass what a 24 GB machine has, and the kernel would kill it mid-run. A soft
// limit only makes Go collect sooner once the heap nears it; below it nothing changes, so the runs
// that never reach it measure as before. The processes inherit the bench's environment.
import { totalmem } from 'node:os';

const SHARE_OF_MACHINE = 0.55;

/** Sets GOMEMLIMIT in `env` when unset; returns the value the control plane will run with. */
export function limitGoMemory(env: NodeJS.ProcessEnv = process.env, machineBytes = totalmem()): string {
  env.GOMEMLIMIT ??= `${Math.floor((machineBytes * SHARE_OF_MACHINE) / 2 ** 20)}MiB`;
  return env.GOMEMLIMIT;
}
