// What a cache keeps of an object, which watch updates reach the handlers of a cache kept
// without status (only those that change something it keeps), and what a watch's ERROR event
// still tells client-node's ListWatch.
import type { KubernetesObject } from '@kubernetes/client-node';
import { ListWatch } from '@kubernetes/client-node/dist/cache.js';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { eventObject, heldOrLightened, lighten, sameBesidesStatus, sameBesidesVersion } from './informer.js';

setFlagsFromString('--allow-natives-syntax');
/** False once an object has become a hash table (what deleting a property in its middle does). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's natives syntax only parses in code compiled after the flag is set
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

const quota = (resourceVersion: string, pods = '3') => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'landlord-quota', namespace: 'acme', resourceVersion, labels: { a: 'b' } },
  spec: { hard: { pods } },
});

describe('sameBesidesVersion', () => {
  it('holds for a status write (only the resourceVersion moved once status is dropped)', () => {
    expect(sameBesidesVersion(quota('10'), quota('11'))).toBe(true);
  });

  it('fails for a change of the spec, labels or annotations', () => {
    expect(sameBesidesVersion(quota('10'), quota('11', '4'))).toBe(false);
    const relabelled = quota('11');
    relabelled.metadata.labels = { a: 'c' };
    expect(sameBesidesVersion(quota('10'), relabelled)).toBe(false);
  });
});

describe('sameBesidesStatus', () => {
  const deployment = (resourceVersion: string, ready: number, labels = { app: 'a' }) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'acme', resourceVersion, generation: 1, labels },
    spec: { replicas: 1 },
    status: { readyReplicas: ready },
  });

  it('holds for a status write', () => {
    expect(sameBesidesStatus(deployment('10', 0), deployment('11', 1))).toBe(true);
  });

  it('fails for a change of the spec or metadata made with it', () => {
    const respecified = { ...deployment('11', 1), spec: { replicas: 2 } };
    expect(sameBesidesStatus(deployment('10', 0), respecified)).toBe(false);
    expect(sameBesidesStatus(deployment('10', 0), deployment('11', 1, { app: 'b' }))).toBe(false);
  });
});

describe('lighten', () => {
  /** A Tenant as the API server sends it: managedFields in its metadata, status after spec. */
  const served = () =>
    JSON.parse(
      JSON.stringify({
        apiVersion: 'landlord.dev/v1alpha1',
        kind: 'Tenant',
        metadata: {
          name: 'acme',
          uid: 'u-1',
          resourceVersion: '7',
          labels: { 'landlord.dev/table': 'tenants' },
          managedFields: [{ manager: 'landlord-sync', fieldsV1: { 'f:spec': {} } }],
          annotations: { 'landlord.dev/row-hash': 'abc' },
        },
        spec: { deployment: { replicas: 1 } },
        status: { conditions: [{ type: 'Synced', status: 'True' }] },
      }),
    ) as { metadata: Record<string, unknown>; spec?: unknown; status?: unknown };

  it('keeps everything but managedFields, and what the cache does not read', () => {
    const { metadata: servedMetadata, spec, status, ...rest } = served();
    const metadata = Object.fromEntries(
      Object.entries(servedMetadata).filter(([key]) => key !== 'managedFields'),
    );
    expect(lighten(served())).toStrictEqual({ ...rest, metadata, spec, status });
    expect(lighten(served(), { dropSpec: true })).toStrictEqual({ ...rest, metadata, status });
    expect(lighten(served(), { dropStatus: true })).toStrictEqual({ ...rest, metadata, spec });
  });

  it('with keepUpdaters, names who wrote the object by update, without their fields; never a subresource writer or an applier', () => {
    const child = {
      kind: 'ConfigMap',
      metadata: {
        name: 'c',
        managedFields: [
          { manager: 'landlord-operator', operation: 'Update', apiVersion: 'v1', fieldsV1: { 'f:data': {} } },
          { manager: 'landlord-operator', operation: 'Apply', fieldsV1: { 'f:data': {} } },
          { manager: 'kube-controller-manager', operation: 'Update', subresource: 'status', fieldsV1: {} },
        ],
      },
    };
    expect(lighten(child, { keepUpdaters: true }).metadata).toStrictEqual({
      name: 'c',
      managedFields: [{ manager: 'landlord-operator', operation: 'Update' }],
    });
    const applied = {
      kind: 'ConfigMap',
      metadata: { name: 'c', managedFields: child.metadata.managedFields.slice(1) },
    };
    expect(lighten(applied, { keepUpdaters: true }).metadata).toStrictEqual({ name: 'c' });
    expect(lighten(child).metadata).toStrictEqual({ name: 'c' });
  });

  it("drops a Secret's values, and only those, with dropValues", () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', annotations: { 'landlord.dev/spec-hash': 'h' } },
      type: 'Opaque',
      data: { password: 'c2VjcmV0' },
      stringData: { more: 'secret' },
    };
    expect(lighten(secret, { dropValues: true })).toStrictEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: secret.metadata,
      type: 'Opaque',
    });
    expect(lighten(secret)).toStrictEqual(secret);
  });

  it('leaves no object a hash table (a deletion in the middle would)', () => {
    const lean = lighten(served(), { dropSpec: true });
    expect(hasFastProperties(lean)).toBe(true);
    expect(hasFastProperties(lean.metadata)).toBe(true);
    const deleted = served();
    delete deleted.metadata.managedFields;
    expect(hasFastProperties(deleted.metadata)).toBe(false);
  });
});

describe('heldOrLightened', () => {
  const served = (resourceVersion: string) => ({
    ...quota(resourceVersion),
    metadata: { ...quota(resourceVersion).metadata, managedFields: [{ manager: 'm' }] },
  });

  it('takes the copy the process holds at the event’s version as it is', () => {
    // Marked, so that lightening the event again (which shares equal parts) could not return it.
    const held = { ...lighten(served('10')), marked: true };
    expect(heldOrLightened(served('10'), { known: () => held })).toBe(held);
  });

  it('lightens the event’s object when the held copy is of another version, or nothing is held', () => {
    const held = lighten(served('10'));
    for (const known of [() => held, () => undefined]) {
      const kept = heldOrLightened(served('11'), { known });
      expect(kept).not.toBe(held);
      expect(kept.metadata).toEqual(quota('11').metadata);
    }
  });

  it('never for a metadata-only cache, whose copies hold less than a write returns', () => {
    const known = vi.fn(() => lighten(served('10')));
    heldOrLightened(served('10'), { known, metadataOnly: true });
    expect(known).not.toHaveBeenCalled();
  });
});

describe('heldOrLightened with stubOf', () => {
  const annotated = (owned: boolean) => ({
    ...quota('12'),
    metadata: {
      ...quota('12').metadata,
      annotations: { big: 'x'.repeat(1000) },
      managedFields: [{ manager: 'landlord', operation: 'Update' }],
      ...(owned ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Owner', name: 'o', uid: 'u' }] } : {}),
    },
  });
  const stubOf = (o: { metadata?: { ownerReferences?: unknown[]; name?: string } }) =>
    o.metadata?.ownerReferences === undefined
      ? {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: o.metadata?.name, managedFields: [{ manager: 'landlord', operation: 'Update' }] },
        }
      : undefined;

  it('keeps the stub of an object stubOf does not call the component’s own, its updaters named', () => {
    expect(heldOrLightened(annotated(false), { stubOf })).toStrictEqual({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'landlord-quota', managedFields: [{ manager: 'landlord', operation: 'Update' }] },
    });
  });

  it('lightens an object of its own as the other options say', () => {
    const kept = heldOrLightened(annotated(true), { stubOf, dropStatus: true });
    expect(kept.metadata.annotations).toEqual({ big: 'x'.repeat(1000) });
    expect(kept.metadata).not.toHaveProperty('managedFields');
  });
});

describe('eventObject', () => {
  /** What the API server sends when a watch resumes from a compacted resourceVersion. */
  const gone = () => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'too old resource version: 361 (412)',
    reason: 'Expired',
    code: 410,
  });
  const deployment = (resourceVersion: string): KubernetesObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'acme', resourceVersion },
  });
  /** A cache that stubs every object: the Status of an ERROR event would be stubbed too. */
  const options = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    dropStatus: true,
    stubOf: (o: KubernetesObject) => {
      const { name, resourceVersion } = o.metadata ?? {};
      return {
        apiVersion: o.apiVersion,
        kind: o.kind,
        metadata: { ...(name && { name }), ...(resourceVersion && { resourceVersion }) },
      };
    },
  };

  /** client-node's ListWatch, its watch handler run by hand; never started. */
  function listWatch(): { handle: (phase: string, obj: KubernetesObject) => void; version: () => string } {
    const never = () => Promise.reject(new Error('not started'));
    const lw = new ListWatch<KubernetesObject>(
      '/apis/apps/v1/deployments',
      { watch: never } as never,
      never,
      false,
    );
    const internals = lw as unknown as { watchHandler: (phase: string, obj: unknown) => void };
    return {
      handle: (phase, obj) => internals.watchHandler(phase, eventObject(phase, obj, options)),
      version: () => lw.latestResourceVersion(),
    };
  }

  it('hands on a 410 Gone as sent, so ListWatch lists again rather than watch from the expired version', () => {
    expect(eventObject('ERROR', gone(), options)).toStrictEqual(gone());
    const lw = listWatch();
    lw.handle('ADDED', deployment('361'));
    expect(lw.version()).toBe('361');
    lw.handle('ERROR', gone());
    expect(lw.version()).toBe('');
  });

  it('shapes the objects of other events, and leaves a bookmark as it came', () => {
    const shaped = { ...deployment('7'), spec: { replicas: 1 } };
    expect(eventObject('MODIFIED', shaped, options)).toStrictEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', resourceVersion: '7' },
    });
    const bookmark = deployment('9');
    expect(eventObject('BOOKMARK', bookmark, options)).toBe(bookmark);
  });
});
