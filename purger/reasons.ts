// The Purged condition's reasons, the purger's Event reasons and what they say: part of landlord's
// API, since people and alerts match on them. Messages hold no counts that change while a purge
// runs (the counts are in status.purge), so progress never rewrites the condition.
// Named as every component's are: <OWNER>_REASON (its condition's reasons), _EVENT (its Event
// reasons), _MESSAGE (what they say) and _LOG (its log lines), the owner here the component
// (PURGER_), so one name means one thing (docs/architecture.md).

export const PURGER_REASON = {
  /** Purged=False: waiting out the purge delay; the message says when deleting starts. */
  scheduled: 'PurgeScheduled',
  /** Purged=False: deleting now. */
  purging: 'Purging',
  /** Purged=False: a data table could not be purged. */
  failed: 'PurgeFailed',
  /** Purged=False: the state left purged before the purge completed. */
  cancelled: 'PurgeCancelled',
  /** Purged=False: state purged, but the purger has no data tables configured: nothing is deleted. */
  noDataTables: 'NoDataTables',
  /** Purged=False: state purged, but sync did not make the Tenant (no landlord-sync marks, or marks sync did not write): nothing is deleted. */
  unmanaged: 'NotSyncedTenant',
  /** Purged=False: state purged, but sync made the Tenant from a table the purger is not configured for. */
  otherTable: 'OtherTenantTable',
  /** Purged=False: the delay has passed, but the hour's purge budget is spent: it starts in a later hour. */
  heldBack: 'PurgeHeldBack',
  /** Purged=True: the tenant's partition is empty in every data table. */
  purged: 'Purged',
} as const;

export const PURGER_EVENT = {
  scheduled: 'PurgeScheduled',
  started: 'PurgeStarted',
  completed: 'PurgeCompleted',
  failed: 'PurgeFailed',
  cancelled: 'PurgeCancelled',
  refused: 'PurgeRefused',
  heldBack: 'PurgeHeldBack',
} as const;

const list = (tables: readonly string[]): string => tables.join(', ');

export const PURGER_MESSAGE = {
  scheduled: (startsAt: string, tables: readonly string[]): string =>
    `state purged: the tenant's data in ${list(tables)} will be deleted from ${startsAt}; set the row's state back to active before then to cancel`,
  purging: (tables: readonly string[]): string =>
    `deleting the tenant's data in ${list(tables)} (progress in status.purge); setting the row's state back to active stops it`,
  failed: (table: string, error: string, retried: boolean): string =>
    `could not purge ${table}: ${error}${retried ? '; retried with backoff' : '; not retried until the Tenant or the purger changes'}`,
  cancelled: (from: string, deleted: number): string =>
    `the state left purged (${from}) before the purge completed; ${deleted} items had been deleted and the rest of the data stays`,
  noDataTables:
    'state purged, but the purger has no data tables configured (LANDLORD_PURGER_TABLES): no data is deleted',
  unmanaged:
    'state purged, but this Tenant was not made by landlord sync (no app.kubernetes.io/managed-by=landlord-sync label, or its source-table marks were not written by the field manager of landlord sync): the purger deletes only the data of Tenants sync made from its tenant tables; nothing is deleted',
  otherTable: (table: string | undefined, tenantTables: readonly string[]): string =>
    `state purged, but this Tenant was made from ${table === undefined ? 'another table' : `table ${table}`}, not from a tenant table the purger serves (LANDLORD_PURGER_TENANT_TABLES: ${tenantTables.length === 0 ? 'none' : list(tenantTables)}); nothing is deleted`,
  heldBack: (budget: number, from: string): string =>
    `the purge delay has passed, but ${budget} purges have already started in the last hour (LANDLORD_PURGER_BUDGET): this one waits, and starts from ${from} at the earliest`,
  purged: (finishedAt: string, tables: readonly string[]): string =>
    `the tenant's data in ${list(tables)} was deleted (finished ${finishedAt}); the Tenant stays as a record until its row is removed, and set back to active it starts empty`,
} as const;
