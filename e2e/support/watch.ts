// Raw watches, to see what a client resuming from an old resourceVersion is told: the events it
// missed, or 410 Gone (the version was compacted, or the API server's watch cache starts later).
import { Watch } from '@kubernetes/client-node';
import { waitUntil } from '../../harness/wait.js';
import { kubeConfig } from './env.js';
import { KubeApi } from '../../runtime/kube/api.js';

export type WatchAnswer = 'gone' | 'events' | 'quiet' | `error ${string}`;

/** The resourceVersion of a list of the collection: a point every later watch can start from. */
export async function listResourceVersion(path: string): Promise<string> {
  const api = new KubeApi(kubeConfig());
  const list = await api.request<{ metadata?: { resourceVersion?: string } }>({
    method: 'GET',
    path,
    query: { limit: 1 },
  });
  return list.metadata?.resourceVersion ?? '';
}

/** Opens a watch from `resourceVersion` and reports its first answer (or quiet after `ms`). */
export function watchFrom(path: string, resourceVersion: string, ms = 5_000): Promise<WatchAnswer> {
  return new Promise((resolve) => {
    let controller: AbortController | undefined;
    const finish = (answer: WatchAnswer): void => {
      clearTimeout(timer);
      controller?.abort();
      resolve(answer);
    };
    const timer = setTimeout(() => finish('quiet'), ms);
    const onEvent = (phase: string, obj: { code?: number }): void =>
      finish(
        phase === 'ERROR' && obj.code === 410 ? 'gone' : phase === 'ERROR' ? `error ${obj.code}` : 'events',
      );
    const onDone = (err: unknown): void => {
      const status = (err as { statusCode?: number } | null)?.statusCode;
      if (err !== null && err !== undefined)
        finish(status === 410 ? 'gone' : `error ${status ?? (err as Error).message}`);
    };
    void new Watch(kubeConfig())
      .watch(path, { resourceVersion, allowWatchBookmarks: false }, onEvent, onDone)
      .then((c) => (controller = c));
  });
}

/**
 * watchFrom, asked again while the API server answers 429: right after a restart its watch cache
 * is still initializing, and every client is told to come back, as the operator is.
 */
export function watchFromWhenServed(path: string, resourceVersion: string): Promise<WatchAnswer> {
  return waitUntil(
    'the watch cache to serve watches',
    async () => {
      const answer = await watchFrom(path, resourceVersion);
      return answer === 'error 429' ? undefined : answer;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}

export interface WatchedEvent {
  phase: string;
  object: { metadata?: { resourceVersion?: string }; status?: unknown };
}

/**
 * Records every event of a collection from now on, in the order the API server sent them, until
 * `stop`. Started from a list's resourceVersion, so nothing written after it resolves is missed.
 */
export async function recordWatch(path: string): Promise<{ events: WatchedEvent[]; stop(): void }> {
  const events: WatchedEvent[] = [];
  const resourceVersion = await listResourceVersion(path);
  const controller = await new Watch(kubeConfig()).watch(
    path,
    { resourceVersion, allowWatchBookmarks: false },
    (phase: string, object: WatchedEvent['object']) => events.push({ phase, object }),
    () => undefined,
  );
  return { events, stop: () => controller.abort() };
}
