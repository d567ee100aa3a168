// The watch cache every component relies on, against the real API server: a paginated list must
// load every object (a cache that silently holds only the first page makes sync rewrite, and the
// operator miss, everything beyond it), and watch events must keep it current.
import { afterAll, describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { KubeApi } from '../runtime/kube/api.js';
import { Informer } from '../runtime/kube/informer.js';
import { listAll } from '../runtime/kube/list.js';
import { createLogger } from '../runtime/logger.js';
import { waitUntil } from '../harness/wait.js';
import { clients, kubeConfig, uniqueName } from './support/env.js';

const { core } = clients();
const namespace = uniqueName('informer');
const label = uniqueName('cache');
let informer: Informer<KubernetesObject> | undefined;

afterAll(async () => {
  await informer?.stop();
  await core.deleteNamespace({ name: namespace });
});

describe('Informer', () => {
  it('loads every page of a list and follows changes', async () => {
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    for (let i = 0; i < 25; i++) {
      await core.createNamespacedConfigMap({
        namespace,
        body: { metadata: { name: `cm-${i}`, labels: { [label]: 'yes' } } },
      });
    }
    informer = new Informer(new KubeApi(kubeConfig()), {
      path: `/api/v1/namespaces/${namespace}/configmaps`,
      apiVersion: 'v1',
      kind: 'ConfigMap',
      labelSelector: label,
      logger: createLogger('e2e', 'error'),
      pageSize: 10,
    });
    await informer.start();
    expect(informer.list()).toHaveLength(25);
    expect(informer.get('cm-24', namespace)?.kind).toBe('ConfigMap');
    expect(informer.get('cm-0', namespace)?.metadata?.managedFields).toBeUndefined();
    await core.deleteNamespacedConfigMap({ name: 'cm-3', namespace });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'cm-new', labels: { [label]: 'yes' } } },
    });
    await waitUntil(
      'the cache to follow a delete and a create',
      () =>
        Promise.resolve(
          informer?.get('cm-new', namespace) !== undefined && informer.get('cm-3', namespace) === undefined,
        ),
      {
        timeoutMs: 10_000,
      },
    );
    expect(informer.list()).toHaveLength(25);
  });

  it('lists a page at a time, handing each object on before the next page is read', async () => {
    const api = new KubeApi(kubeConfig());
    let pagesRead = 0;
    const request = api.request.bind(api);
    api.request = (...args) => {
      pagesRead++;
      return request(...args);
    };
    const pageWhenKept: number[] = [];
    const list = await listAll(
      api,
      {
        path: `/api/v1/namespaces/${namespace}/configmaps`,
        apiVersion: 'v1',
        kind: 'ConfigMap',
        labelSelector: label,
        pageSize: 10,
      },
      (item) => {
        pageWhenKept.push(pagesRead);
        return { ...item, kept: true } as KubernetesObject;
      },
    );
    // 25 objects in pages of 10: each was kept while its own page was the last one read.
    const pageOf = (i: number): number => Math.floor(i / 10) + 1;
    expect(pageWhenKept).toEqual(Array.from({ length: 25 }, (_, i) => pageOf(i)));
    expect(list.items.every((item) => (item as { kept?: boolean }).kept === true)).toBe(true);
    expect(list.items.filter((item) => item.metadata?.managedFields !== undefined)).toEqual([]);
  });
});
