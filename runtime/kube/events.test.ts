// The recorder's own queueing: which Events it keeps when thousands wait, and which it writes
// first. The API server here is a stand-in that holds each write until the test lets it go; what
// Events look like on a real API server is e2e/events.test.ts.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import type { KubeApi } from './api.js';
import { admits, EventRecorder, type EventType } from './events.js';

const logger = createLogger('test', 'error', { stream: new Writable({ write: (_c, _e, cb) => cb() }) });
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Records each Event's reason as its write starts; every write waits until released. */
function heldApi() {
  const started: string[] = [];
  const held: (() => void)[] = [];
  const api = {
    request: (req: { body?: { reason?: string } }) => {
      started.push(req.body?.reason ?? '?');
      return new Promise<unknown>((resolve) => held.push(() => resolve({})));
    },
  } as unknown as KubeApi;
  const releaseAll = async (): Promise<void> => {
    while (held.length > 0) {
      held.splice(0).forEach((release) => release());
      await settle();
    }
  };
  return { api, started, releaseAll };
}

const tenant = (i: number) => ({
  apiVersion: 'landlord.dev/v1alpha1',
  kind: 'Tenant',
  metadata: { name: `t-${i}`, uid: `uid-${i}` },
});

describe('EventRecorder', () => {
  it('keeps room for Warnings when Normal Events fill the backlog', () => {
    const at = (type: EventType, backlog: number): boolean => admits(type, backlog);
    expect([at('Normal', 4_999), at('Normal', 5_000)]).toEqual([true, false]);
    expect([at('Warning', 5_000), at('Warning', 5_999), at('Warning', 6_000)]).toEqual([true, true, false]);
  });

  it('writes a waiting Warning before the Normal Events queued ahead of it', async () => {
    const { api, started, releaseAll } = heldApi();
    const recorder = new EventRecorder(api, 'landlord-operator', logger);
    for (let i = 0; i < 10; i++) recorder.record(tenant(i), 'Normal', 'Created', `Created ${i}`);
    recorder.record(tenant(99), 'Warning', 'PolicyViolation', 'refused');
    await settle();
    // Four writes run at once; the Warning takes the first free turn.
    expect(started).toEqual(['Created', 'Created', 'Created', 'Created']);
    await releaseAll();
    expect(started[4]).toBe('PolicyViolation');
    expect(started).toHaveLength(11);
  });
});
