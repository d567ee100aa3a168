// What `landlord history` and `landlord rollback` share: where revisions live (landlord's
// namespace: --namespace, else POD_NAMESPACE, else landlord-system), the output format, and the
// exit codes.
import { InvalidArgumentError, Option } from 'commander';
import { COMMON_SETTINGS } from '../runtime/component.js';
import { loadSettings } from '../runtime/config.js';

export const HISTORY_EXIT = { ok: 0, failed: 1 } as const;

export type Format = 'text' | 'json';

export const namespaceOption = (): Option =>
  new Option(
    '-n, --namespace <namespace>',
    "landlord's namespace, where sync keeps the revisions (default: POD_NAMESPACE, else landlord-system)",
  );

export const outputOption = (): Option =>
  new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text');

/** The namespace asked for, checked as POD_NAMESPACE is. */
export function historyNamespace(flag: string | undefined): string {
  const env = flag === undefined ? process.env : { ...process.env, POD_NAMESPACE: flag };
  return loadSettings<{ namespace: string }>({ namespace: COMMON_SETTINGS.namespace }, env).namespace;
}

/** A revision number: a positive integer. */
export function parseRevision(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidArgumentError('a revision number is a positive integer');
  return value;
}

/** One line on stderr, prefixed as every landlord error is. */
export function failed(command: string, err: unknown): number {
  process.stderr.write(`landlord: ${command}: ${err instanceof Error ? err.message : String(err)}\n`);
  return HISTORY_EXIT.failed;
}
