// Why a reconcile could not apply a Tenant, typed by what to do next: a stall is permanent for this
// generation (report it, do not retry: only a new spec can fix it); a retryable error is transient
// (report it and retry with backoff). Anything unexpected counts as retryable.
import type { AppliedFailureReason } from './reasons.js';

export class ReconcileError extends Error {
  constructor(
    readonly reason: AppliedFailureReason,
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = 'ReconcileError';
  }
}

export const stall = (reason: AppliedFailureReason, message: string): ReconcileError =>
  new ReconcileError(reason, message, false);

export const retryable = (reason: AppliedFailureReason, message: string): ReconcileError =>
  new ReconcileError(reason, message, true);
