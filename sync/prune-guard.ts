// The mass-deletion guard. A table that reads as empty by mistake (a wrong table, a restore in
// progress, a bug) must not delete every tenant: rows gone from the table delete at most
// max(minimum, floor(fraction × Tenants)) Tenants per resync interval, whether a scan or the
// stream reported them gone. Rows marked `deleted: true` are explicit intent and never count.

export interface GuardLimits {
  /** Share of all managed Tenants one interval may delete (0..1). */
  fraction: number;
  /** Deletions always allowed, so that small tables can be managed at all. */
  minimum: number;
}

export function allowance(tenants: number, limits: GuardLimits): number {
  return Math.max(limits.minimum, Math.floor(limits.fraction * tenants));
}

/** The deletions left in the current resync interval. */
export class DeletionBudget {
  private left = 0;

  constructor(private readonly limits: GuardLimits) {}

  get remaining(): number {
    return this.left;
  }

  /** A new interval starts (after a complete scan), sized from the Tenants there are now. */
  reset(tenants: number): number {
    this.left = allowance(tenants, this.limits);
    return this.left;
  }

  /** Asks for `wanted` deletions; returns how many are granted. */
  take(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.left));
    this.left -= granted;
    return granted;
  }
}
