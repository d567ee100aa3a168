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

interface Write {
  method: string;
  body: { reason?: string; count?: number };
}

/** Records each Event's reason (and the whole write) as it starts; every write waits until released. */
function heldApi() {
  const started: string[] = [];
  const writes: Write[] = [];
  const held: (() => void)[] = [];
  const api = {
    request: (req: Write) => {
      started.push(req.body.reason ?? '?');
      writes.push(req);
      return new Promise<unknown>((resolve) => held.push(() => resolve({})));
    },
  } as unknown as KubeApi;
  const releaseAll = async (): Promise<void> => {
    while (held.length > 0) {
      held.splice(0).forEach((release) => release());
      await settle();
    }
  };
  return { api, started, writes, releaseAll };
}

const tenant = (i: number) => ({
  apiVersion: 'landlord.dev/v1alpha1',
  kind: 'Tenant',
  metadata: { name: `t-${i}`, uid: `uid-${i}` },
});

describe('EventRecorder', () => {
  it('keeps room for Warnings when Normal Events fill the backlog', () => {
    const at = (type: EventType, backlog: number): boolean => admits(type, backlog);
    expect([at('Normal', 19_999), at('Normal', 20_000)]).toEqual([true, false]);
    expect([at('Warning', 20_000), at('Warning', 20_999), at('Warning', 21_000)]).toEqual([
      true,
      true,
      false,
    ]);
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

  it('folds repeats that wait for a turn into one write with their count', async () => {
    const { api, writes, releaseAll } = heldApi();
    const recorder = new EventRecorder(api, 'landlord-operator', logger);
    for (let i = 0; i < 4; i++) recorder.record(tenant(i), 'Normal', 'Created', `Created ${i}`);
    for (let i = 0; i < 3; i++) recorder.record(tenant(9), 'Warning', 'PolicyViolation', 'refused');
    await releaseAll();
    const refusals = writes.filter((w) => w.body.reason === 'PolicyViolation');
    expect(refusals.map((w) => [w.method, w.body.count])).toEqual([['POST', 3]]);
  });

  it("writes a repeat recorded during its Event's write after it, as a bump of the count", async () => {
    const { api, writes, releaseAll } = heldApi();
    const recorder = new EventRecorder(api, 'landlord-operator', logger);
    recorder.record(tenant(1), 'Warning', 'PolicyViolation', 'refused');
    await settle();
    recorder.record(tenant(1), 'Warning', 'PolicyViolation', 'refused');
    recorder.record(tenant(1), 'Warning', 'PolicyViolation', 'refused');
    await settle();
    // The repeats wait for the first write: two at once would make two Events.
    expect(writes.map((w) => w.method)).toEqual(['POST']);
    await releaseAll();
    expect(writes.map((w) => [w.method, w.body.count])).toEqual([
      ['POST', 1],
      ['PATCH', 3],
    ]);
  });

  it('takes a repeat of a waiting Event even when the backlog is full', async () => {
    const { api, writes, releaseAll } = heldApi();
    const recorder = new EventRecorder(api, 'landlord-operator', logger);
    for (let i = 0; i < 20_000; i++) recorder.record(tenant(i), 'Normal', 'Created', 'Created');
    recorder.record(tenant(20_000), 'Normal', 'Created', 'Created');
    recorder.record(tenant(19_999), 'Normal', 'Created', 'Created');
    await releaseAll();
    expect(writes).toHaveLength(20_000);
    expect(writes.at(-1)?.body.count).toBe(2);
  });

  it('bumps a repeat of an Event repeated lately, after thousands of others were written', async () => {
    const { api, writes, releaseAll } = heldApi();
    const recorder = new EventRecorder(api, 'landlord-operator', logger);
    const refusal = (i: number) => recorder.record(tenant(i), 'Warning', 'PolicyViolation', 'refused');
    refusal(1);
    refusal(2);
    await releaseAll();
    refusal(1);
    await releaseAll();
    // 4,095 more Events written: tenant 1's refusal was repeated after tenant 2's, so tenant 2's
    // is the one forgotten (a repeat starts a new Event) and tenant 1's still bumps its count.
    for (let i = 0; i < 4_095; i++) recorder.record(tenant(100 + i), 'Normal', 'Created', 'Created');
    await releaseAll();
    writes.length = 0;
    refusal(1);
    refusal(2);
    await releaseAll();
    expect(writes.map((w) => [w.method, w.body.count])).toEqual([
      ['PATCH', 3],
      ['POST', 1],
    ]);
  });
});
