// What went wrong talking to a database server, typed by what to do next, with the reason people
// and alerts match on. A driver's error is classified once here, and its message cleaned of any
// secret the statement carried, so nothing above ever logs or reports a password. Pure.

/** The reasons a database step fails, as DatabasesReady and the purger's condition say them. */
export const SQL_REASON = {
  /** The server's admin Secret is not in landlord's namespace. */
  adminSecretMissing: 'AdminSecretMissing',
  /** The admin Secret lacks host, port, user or password, or holds one that cannot be right. */
  adminSecretInvalid: 'AdminSecretInvalid',
  /** No connection: refused, timed out, name not found, reset. */
  serverUnreachable: 'ServerUnreachable',
  /** The server refused the admin Secret's user or password. */
  authFailed: 'AuthFailed',
  /** The admin user may not do this (CREATEROLE, CREATEDB, GRANT OPTION, DROP). */
  permissionDenied: 'PermissionDenied',
  /** The server is out of connections, disk or another limit. */
  quotaExceeded: 'QuotaExceeded',
  /** Anything else the server said. */
  serverError: 'ServerError',
} as const;
export type SqlFailure = (typeof SQL_REASON)[keyof typeof SQL_REASON];

/**
 * Failures that retrying soon cannot fix, because a person must change a Secret or a grant: not
 * retried with backoff (the periodic resync looks again), so a wrong password does not hammer the
 * server with failed logins.
 */
const NEEDS_A_PERSON: ReadonlySet<SqlFailure> = new Set([
  SQL_REASON.adminSecretMissing,
  SQL_REASON.adminSecretInvalid,
  SQL_REASON.authFailed,
  SQL_REASON.permissionDenied,
]);

export class SqlError extends Error {
  readonly retry: boolean;

  constructor(
    readonly failure: SqlFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SqlError';
    this.retry = !NEEDS_A_PERSON.has(failure);
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
]);

/** PostgreSQL SQLSTATEs and MariaDB error codes, by what they mean to landlord. */
const SERVER_CODES: Record<string, SqlFailure> = {
  '28P01': SQL_REASON.authFailed,
  '28000': SQL_REASON.authFailed,
  '42501': SQL_REASON.permissionDenied,
  '53300': SQL_REASON.quotaExceeded,
  '53100': SQL_REASON.quotaExceeded,
  '53200': SQL_REASON.quotaExceeded,
  '54000': SQL_REASON.quotaExceeded,
  '57P03': SQL_REASON.serverUnreachable,
  ER_ACCESS_DENIED_ERROR: SQL_REASON.authFailed,
  ER_DBACCESS_DENIED_ERROR: SQL_REASON.permissionDenied,
  ER_SPECIFIC_ACCESS_DENIED_ERROR: SQL_REASON.permissionDenied,
  ER_TABLEACCESS_DENIED_ERROR: SQL_REASON.permissionDenied,
  ER_PASSWORD_NOT_ALLOWED: SQL_REASON.permissionDenied,
  ER_CON_COUNT_ERROR: SQL_REASON.quotaExceeded,
  ER_TOO_MANY_USER_CONNECTIONS: SQL_REASON.quotaExceeded,
  ER_USER_LIMIT_REACHED: SQL_REASON.quotaExceeded,
  ER_DISK_FULL: SQL_REASON.quotaExceeded,
};

/** `secrets`: the passwords the failed step held; each is blanked out of the message. */
export function classify(err: unknown, secrets: readonly string[] = []): SqlError {
  if (err instanceof SqlError) return err;
  const code = codeOf(err);
  const failure = NETWORK_CODES.has(code)
    ? SQL_REASON.serverUnreachable
    : (SERVER_CODES[code] ?? timeoutOr(err, SQL_REASON.serverError));
  return new SqlError(failure, scrub(messageOf(err, code), secrets));
}

function codeOf(err: unknown): string {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
}

function messageOf(err: unknown, code: string): string {
  const text = err instanceof Error ? err.message : String(err);
  const said = text === '' ? code : text;
  return code === '' || said.includes(code) ? said : `${said} (${code})`;
}

function timeoutOr(err: unknown, otherwise: SqlFailure): SqlFailure {
  const text = err instanceof Error ? err.message : '';
  return /timeout|timed out|terminated unexpectedly/i.test(text) ? SQL_REASON.serverUnreachable : otherwise;
}

function scrub(message: string, secrets: readonly string[]): string {
  return secrets.reduce((m, s) => (s === '' ? m : m.split(s).join('[redacted]')), message);
}
