// Handing a create's fields to the writer's Apply entry (runtime/kube/field-ownership.ts) against the
// real API server. A write between its read and its patch makes the API server answer 422, the code
// of a refused object: sync once took that for a refusal of the row's spec, recorded it on the
// Tenant, and never sent the row's edit again (seen in CI as a Tenant stuck on its first image).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { ApiError, CONTENT_TYPE, KubeApi, isConflict, type ApiRequest } from '../runtime/kube/api.js';
import { handOverCreatedFields, ownsByUpdate } from '../runtime/kube/field-ownership.js';
import { clients, kubeConfig, uniqueName } from './support/env.js';

const { core } = clients();
const namespace = uniqueName('handover');
const MANAGER = 'landlord-handover-test';
const api = new KubeApi(kubeConfig());

/** The real API, with someone else's write landing right after each read of the object. */
class WriteAfterRead extends KubeApi {
  override async request<T>(req: ApiRequest): Promise<T> {
    const answer = await super.request<T>(req);
    if (req.method === 'GET') {
      await api.request({
        method: 'PATCH',
        path: req.path,
        contentType: CONTENT_TYPE.merge,
        body: { metadata: { labels: { touched: String(Date.now()) } } },
      });
    }
    return answer;
  }
}

const path = (): string => `/api/v1/namespaces/${namespace}/configmaps/handed`;

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  await core.createNamespacedConfigMap({
    namespace,
    fieldManager: MANAGER,
    body: { metadata: { name: 'handed' }, data: { key: 'value' } },
  });
});

afterAll(async () => {
  await core.deleteNamespace({ name: namespace });
});

describe('handOverCreatedFields', () => {
  it('answers a write between its read and its patch with a conflict, not a refusal', async () => {
    const live = await core.readNamespacedConfigMap({ name: 'handed', namespace });
    const racing = new WriteAfterRead(kubeConfig());
    const err = await handOverCreatedFields(racing, path(), MANAGER, live.metadata?.uid).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(isConflict(err)).toBe(true);
    const after = await api.request<KubernetesObject>({ method: 'GET', path: path() });
    expect(ownsByUpdate(after, MANAGER)).toBe(true);
  });

  it('hands the fields over when nothing writes meanwhile', async () => {
    const live = await core.readNamespacedConfigMap({ name: 'handed', namespace });
    await handOverCreatedFields(api, path(), MANAGER, live.metadata?.uid);
    const after = await api.request<KubernetesObject>({ method: 'GET', path: path() });
    expect(ownsByUpdate(after, MANAGER)).toBe(false);
    const entries = after.metadata?.managedFields ?? [];
    expect(entries.some((e) => e.manager === MANAGER && e.operation === 'Apply')).toBe(true);
  });
});
