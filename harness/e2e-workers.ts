// How many e2e files run at once. Each runs against a control plane of its own (every file's
// operator watches every Tenant of its cluster, so two files cannot share one), and the files
// mostly wait on the API server and on timers, so a 2-core machine runs three well.
const DEFAULT_WORKERS = 3;
const MAX_WORKERS = 8;

export function e2eWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LANDLORD_E2E_WORKERS;
  if (raw === undefined || raw === '') return DEFAULT_WORKERS;
  const workers = Number(raw);
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    throw new Error(`LANDLORD_E2E_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, not "${raw}"`);
  }
  return workers;
}
