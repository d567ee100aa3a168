// The Event recorder against the real API server: repeats fold into one Event with a count, an
// Event recorded while kube-apiserver is down is written once it is back, and a repeat of an Event
// that has since expired starts a new one instead of being lost.
import type { CoreV1Event, V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeApi } from '../runtime/kube/api.js';
import { EventRecorder, type InvolvedObject } from '../runtime/kube/events.js';
import { createLogger } from '../runtime/logger.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { faults, waitControlPlaneSettled } from './support/faults.js';

const { kc, core } = clients();
const ns = uniqueName('events');
const api = new KubeApi(kc);
const logger = createLogger('events-test', 'error');

async function involvedConfigMap(): Promise<InvolvedObject> {
  const cm: V1ConfigMap = await core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: uniqueName('subject') } },
  });
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: cm.metadata! };
}

async function eventsAbout(object: InvolvedObject): Promise<CoreV1Event[]> {
  const list = await core.listNamespacedEvent({
    namespace: ns,
    fieldSelector: `involvedObject.uid=${object.metadata.uid}`,
  });
  return list.items;
}

async function waitForEvents(object: InvolvedObject, what: string, ok: (e: CoreV1Event[]) => boolean) {
  return waitUntil(
    what,
    async () => {
      const events = await eventsAbout(object);
      return ok(events) ? events : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}

const apiAnswers = async (): Promise<boolean> =>
  core.listNamespace({ limit: 1 }).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: ns } } });
});

afterAll(async () => {
  await waitUntil('the API server to answer', apiAnswers, { timeoutMs: 60_000 });
  await core.deleteNamespace({ name: ns });
  await api.close();
  await waitControlPlaneSettled();
});

describe('EventRecorder', () => {
  it('folds repeats of one Event into one object with a count', async () => {
    const recorder = new EventRecorder(api, 'events-test', logger);
    const subject = await involvedConfigMap();
    for (let i = 0; i < 3; i++) recorder.record(subject, 'Normal', 'Tested', 'the same message');
    recorder.record(subject, 'Warning', 'Tested', 'another message');
    await recorder.flush();
    const events = await eventsAbout(subject);
    const byMessage = new Map(events.map((e) => [e.message, e]));
    expect(events).toHaveLength(2);
    expect(byMessage.get('the same message')).toMatchObject({ type: 'Normal', reason: 'Tested', count: 3 });
    expect(byMessage.get('another message')).toMatchObject({ type: 'Warning', count: 1 });
  });

  it('writes an Event recorded while kube-apiserver is down once it is back', async () => {
    const recorder = new EventRecorder(api, 'events-test', logger);
    const subject = await involvedConfigMap();
    const restarted = faults.restartApiServer(4_000);
    await waitUntil('the API server to be down', async () => !(await apiAnswers()), { timeoutMs: 30_000 });
    recorder.record(subject, 'Warning', 'WhileDown', 'recorded during an API server restart');
    await restarted;
    const events = await waitForEvents(subject, 'the Event', (e) => e.length > 0);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ reason: 'WhileDown', count: 1 });
    await recorder.flush();
  });

  it('starts a new Event when the one a repeat would fold into has expired', async () => {
    const recorder = new EventRecorder(api, 'events-test', logger);
    const subject = await involvedConfigMap();
    recorder.record(subject, 'Normal', 'Repeated', 'seen twice');
    const [first] = await waitForEvents(subject, 'the first Event', (e) => e.length === 1);
    // What the API server's Event TTL does to an old Event.
    await core.deleteNamespacedEvent({ namespace: ns, name: first!.metadata.name! });
    recorder.record(subject, 'Normal', 'Repeated', 'seen twice');
    await recorder.flush();
    const events = await eventsAbout(subject);
    expect(events).toHaveLength(1);
    expect(events[0]!.metadata.name).not.toBe(first!.metadata.name);
    expect(events[0]).toMatchObject({ reason: 'Repeated', count: 1 });
  });
});
