// Test doubles for sync's unit tests: Tenants as sync leaves them, a logger and a queue that keep
// what they were given. The informer cache a test fills by hand is in fake-informer.ts.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../runtime/logger.js';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { ownedAnnotations, ownedLabels, type TableIdentity } from '../sync/identity.js';
import { desiredStatus, type Verdict } from '../sync/status.js';

/**
 * Tenant "a" exactly as sync leaves it: its labels, the row hash `annotatedHash`, and the status
 * sync writes for `verdict` at `now`.
 */
export function syncedTenant(
  identity: TableIdentity,
  verdict: Verdict,
  annotatedHash: string,
  now: Date,
): Tenant {
  const tenant: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: {
      name: 'a',
      uid: 'u1',
      resourceVersion: '1',
      generation: 1,
      labels: ownedLabels(identity),
      annotations: ownedAnnotations(identity, annotatedHash),
    },
  };
  tenant.status = desiredStatus(verdict, tenant, identity.table, now);
  return tenant;
}

/** A logger that keeps its lines as objects. */
export function memoryLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    objectMode: true,
    write(chunk: unknown, _encoding, done): void {
      const info = chunk as Record<symbol, string>;
      lines.push(JSON.parse(info[Symbol.for('message')] ?? '{}') as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('sync', 'debug', { stream }), lines };
}

/** The two work-queue calls the trigger makes, kept in order. */
export function recordingQueue(): {
  queue: { add: (name: string) => void; forget: (name: string) => void };
  added: string[];
  forgotten: string[];
} {
  const added: string[] = [];
  const forgotten: string[] = [];
  return {
    queue: { add: (name) => void added.push(name), forget: (name) => void forgotten.push(name) },
    added,
    forgotten,
  };
}
