// SQL quoting for the names and passwords landlord puts into DDL, which neither PostgreSQL nor
// MariaDB lets a statement take as parameters. Every name is quoted, whatever it holds: tenant
// names are DNS labels today, but a class's template or a later rule must never turn a name into
// SQL. Pure; shared by the operator (which creates databases) and the purger (which drops them).
function checked(text: string): string {
  // No server accepts NUL in a name or a password, and a driver could cut the statement there.
  if (text.includes('\0')) throw new Error('a SQL name or literal may not hold a NUL character');
  return text;
}

/** A PostgreSQL identifier: in double quotes, each double quote doubled. */
export const pgIdent = (name: string): string => `"${checked(name).replaceAll('"', '""')}"`;

/** A PostgreSQL string literal (standard_conforming_strings, on since 9.1): each quote doubled. */
export const pgLiteral = (text: string): string => `'${checked(text).replaceAll("'", "''")}'`;

/** A MariaDB/MySQL identifier: in backquotes, each backquote doubled. */
export const myIdent = (name: string): string => `\`${checked(name).replaceAll('`', '``')}\``;

/** A MariaDB/MySQL string literal: backslashes and quotes escaped, as the default SQL mode reads them. */
export const myLiteral = (text: string): string =>
  `'${checked(text).replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/**
 * The database in a MariaDB/MySQL `GRANT … ON db.*`, where `_` and `%` are wildcards: escaped, so
 * a grant on `t_a` does not also reach `txa`.
 */
export const myGrantDatabase = (name: string): string => myIdent(name.replace(/[\\_%]/g, (c) => `\\${c}`));

/** An account `'user'@'%'`: MariaDB names a user with the hosts it may connect from (any). */
export const myAccount = (user: string): string => `${myLiteral(user)}@'%'`;
