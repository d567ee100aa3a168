// Writes per tenant are compared once the cluster has stopped writing, not at the moment of
// convergence: the Events of the Deployment and ReplicaSet controllers and of the scheduler (and
// landlord's own) are posted in the background, so a count at convergence holds a share of them
// that grows with the run's length and makes the slower side look costlier per tenant.
import {
  delta,
  settledRequestCounts,
  type ApiServerAccess,
  type RequestBreakdown,
  type RequestCounts,
} from '../../harness/apiserver-requests.js';

export interface SettledRequests {
  /** From convergence until landlord's resources saw no write for 5 s. */
  seconds: number;
  /** False when writes were still moving when the wait gave up: a lower bound then. */
  settled: boolean;
  apiServer: RequestBreakdown;
}

/** The requests since `before`, counted once writes stop (at most ~10 ms per tenant, 60 s at least). */
export async function settledSince(
  access: ApiServerAccess,
  before: RequestCounts,
  n: number,
): Promise<SettledRequests> {
  const { counts, seconds, settled } = await settledRequestCounts(access, {
    timeoutMs: Math.max(60_000, n * 10),
  });
  return { seconds, settled, apiServer: delta(before, counts) };
}
