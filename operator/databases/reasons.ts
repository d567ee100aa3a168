// What the databases facet says where people look: the DatabasesReady condition's reasons, part
// of landlord's API (people and alerts match on them). Named by the rule every reasons.ts follows
// (<OWNER>_REASON, docs/architecture.md) and kept in the facet's folder: a facet is its folder.
import { SQL_REASON } from '../../runtime/sql/errors.js';

/**
 * DatabasesReady (operator/databases/): True when every database of the class has its Secret in the
 * tenant namespace, else False with the first problem's reason. The server's failures are the
 * runtime's SQL_REASON reasons (ServerUnreachable, AuthFailed, AdminSecretMissing, QuotaExceeded…).
 */
export const DATABASES_REASON = {
  ready: 'DatabasesReady',
  /** False: a Shared class names databases; there is no namespace of the tenant's own for the Secret. */
  notAllowed: 'DatabasesNotAllowed',
  /** False: the name template gives no name the engines accept. */
  invalidName: 'InvalidDatabaseName',
  /** False: archived or purged, a database not made yet is not made (one made before is kept). */
  notInState: 'DatabaseNotInState',
  ...SQL_REASON,
} as const;
