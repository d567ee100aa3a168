// The purges running in this process, each with the AbortController that stops it. Watch events
// reach a running purge only through here: the work queue holds a running key's next reconcile
// until the current one returns, so a state change must abort the purge for that reconcile to end.

/** Why a running purge was stopped; the reconcile that ran it reports accordingly. */
export const STOP = {
  /** The state left purged: report Cancelled. */
  cancelled: 'cancelled',
  /** The Tenant is going away: nothing to report. */
  deleted: 'deleted',
  /** This replica is shutting down: leave the purge Running, for the next leader to resume. */
  shutdown: 'shutdown',
} as const;
export type StopReason = (typeof STOP)[keyof typeof STOP];

export class RunningPurges {
  private readonly running = new Map<string, AbortController>();

  begin(name: string): AbortSignal {
    const controller = new AbortController();
    this.running.set(name, controller);
    return controller.signal;
  }

  end(name: string): void {
    this.running.delete(name);
  }

  has(name: string): boolean {
    return this.running.has(name);
  }

  stop(name: string, reason: StopReason): void {
    this.running.get(name)?.abort(reason);
  }

  stopAll(reason: StopReason): void {
    for (const controller of this.running.values()) controller.abort(reason);
  }

  get size(): number {
    return this.running.size;
  }
}

/** Why the signal was aborted; a foreign reason counts as a shutdown (resume later, report nothing final). */
export function stopReason(signal: AbortSignal): StopReason {
  const reason: unknown = signal.reason;
  return reason === STOP.cancelled || reason === STOP.deleted ? reason : STOP.shutdown;
}
