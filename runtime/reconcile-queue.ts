// The work queue every component runs its reconciles on, with the metrics every reconcile
// reports (result, duration, queue depth, in flight), so no two components count apart.
import type { Logger } from './logger.js';
import type { Metrics, ReconcileResult } from './metrics.js';
import { WorkQueue, type Outcome, type WorkQueueOptions } from './work-queue.js';

/** The result label a reconcile's outcome is counted under. */
function reconcileResult(outcome: Outcome): ReconcileResult {
  if (outcome.kind === 'retry') return 'error';
  if (outcome.kind === 'stop') return 'refused';
  return outcome.kind === 'requeueAfter' ? 'requeue' : 'success';
}

export interface ReconcileQueueContext {
  metrics: Metrics;
  logger: Logger;
}

export function reconcileQueue(
  reconcile: (name: string) => Promise<Outcome>,
  options: WorkQueueOptions,
  { metrics, logger }: ReconcileQueueContext,
): WorkQueue {
  const queue: WorkQueue = new WorkQueue(reconcile, options, {
    onOutcome: (name, outcome, ms) => {
      metrics.reconcileTotal.inc({ result: reconcileResult(outcome) });
      metrics.reconcileDuration.observe(ms / 1000);
      metrics.queueDepth.set(queue.length);
      metrics.queueInFlight.set(queue.inFlight);
      if (outcome.kind === 'retry')
        logger.debug('reconcile will be retried', { tenant: name, error: outcome.error });
    },
    onHandlerError: (name, error) => logger.error('reconcile failed', { tenant: name, error }),
  });
  return queue;
}
