import type { KubernetesObject, V1ResourceQuota } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubeApi } from '../runtime/kube/api.js';
import { Applier, quotaWaitOf } from './apply.js';
import { APPLY_WAVES } from './facets/kinds.js';
import { CHILD_API_VERSION, childRef, type ChildKind } from './child-ref.js';
import { hashedChild, type DesiredChild } from './desired.js';

describe('APPLY_WAVES', () => {
  it('puts every kind in exactly one wave: the Namespace, then its fences, then the children', () => {
    const kinds = APPLY_WAVES.flat();
    expect([...kinds].sort()).toEqual(Object.keys(CHILD_API_VERSION).sort());
    expect(APPLY_WAVES[0]).toEqual(['Namespace']);
    expect(APPLY_WAVES.at(-1)).toEqual(['Deployment', 'ConfigMap']);
  });
});

describe('quotaWaitOf', () => {
  const child = (kind: ChildKind, name: string): DesiredChild => ({
    ref: childRef(kind, 'team-a', name),
    manifest: { apiVersion: CHILD_API_VERSION[kind], kind, metadata: { name, namespace: 'team-a' } },
    hash: 'h',
  });
  const quota = child('ResourceQuota', 'landlord-quota');
  const desired = [
    quota,
    child('LimitRange', 'landlord-limits'),
    child('Deployment', 'web'),
    child('ConfigMap', 'settings'),
  ];
  const quotaAs = (status: V1ResourceQuota['status']): V1ResourceQuota => ({
    ...quota.manifest,
    spec: { hard: { pods: '3', 'requests.cpu': '1' } },
    ...(status === undefined ? {} : { status }),
  });
  const fenced =
    (status: V1ResourceQuota['status']): ((index: number) => KubernetesObject | undefined) =>
    (index) =>
      [quotaAs(status), desired[1]!.manifest, undefined, undefined][index];
  const newTenant = (i: number): boolean => i >= 2;

  it("waits for a quota just made, whose status the quota controller has not written, before a new tenant's workload", () => {
    expect(quotaWaitOf(desired, fenced(undefined), newTenant)).toEqual({
      ref: quota.ref,
      resources: ['pods', 'requests.cpu'],
    });
  });

  it('does not wait once the quota enforces every limit it sets', () => {
    const enforced = { hard: { pods: '3', 'requests.cpu': '1' }, used: { pods: '0' } };
    expect(quotaWaitOf(desired, fenced(enforced), newTenant)).toBeUndefined();
  });

  it('does not wait when no workload child is to be written: a running tenant stays Ready', () => {
    expect(quotaWaitOf(desired, fenced({ hard: { pods: '3' } }), () => false)).toBeUndefined();
    // Archived: the namespace and its quota stay, no workload is desired.
    expect(quotaWaitOf(desired.slice(0, 2), fenced(undefined), () => true)).toBeUndefined();
  });

  it('waits for a limit the class adds when the workload changes too', () => {
    const drifted = (i: number): boolean => i === 2;
    expect(quotaWaitOf(desired, fenced({ hard: { pods: '3' } }), drifted)).toEqual({
      ref: quota.ref,
      resources: ['requests.cpu'],
    });
  });
});

describe('Applier waves', () => {
  const NS = 'pool-abc';
  const manifestOf = (kind: ChildKind, name: string): KubernetesObject => ({
    apiVersion: CHILD_API_VERSION[kind],
    kind,
    metadata: kind === 'Namespace' ? { name } : { name, namespace: NS },
    ...(kind === 'ResourceQuota' ? { spec: { hard: { pods: '10' } } } : {}),
  });
  const desired = (
    [
      ['Namespace', NS],
      ['ResourceQuota', 'landlord-quota'],
      ['ServiceAccount', 'landlord-tenant'],
      ['Deployment', 'app'],
      ['ConfigMap', 'settings'],
    ] as const
  ).map(([kind, name]) => hashedChild(manifestOf(kind, name), kind));
  /** What a just-claimed member holds: every child there, by uid, its quota enforced. */
  const held = (quotaStatus: V1ResourceQuota['status']): KubernetesObject[] =>
    desired.map((child) => ({
      ...manifestOf(child.ref.kind, child.ref.name),
      metadata: { ...manifestOf(child.ref.kind, child.ref.name).metadata, uid: `uid-${child.ref.name}` },
      ...(child.ref.kind === 'ResourceQuota' && quotaStatus !== undefined ? { status: quotaStatus } : {}),
    }));

  /**
   * An API that answers each write with what it was sent (a quota as enforced, unless told), one
   * event-loop turn later, and records the order.
   */
  function recordingApi(enforces = true): { api: KubeApi; log: string[] } {
    const log: string[] = [];
    const request = async ({ body }: { body: KubernetesObject }): Promise<KubernetesObject> => {
      log.push(`start ${body.kind}`);
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`end ${body.kind}`);
      const status = body.kind === 'ResourceQuota' && enforces ? { status: { hard: { pods: '10' } } } : {};
      return { ...body, metadata: { ...body.metadata, uid: `uid-${body.metadata?.name}` }, ...status };
    };
    return { api: { request } as unknown as KubeApi, log };
  }
  const noClaim = (): Promise<undefined> => Promise.resolve(undefined);

  it('applies the Namespace, then the fences, then the workload', async () => {
    const { api, log } = recordingApi();
    await new Applier(api).applyDrifted('t', desired, held({ hard: { pods: '10' } }), { claim: noClaim });
    expect(log.indexOf('end Namespace')).toBeLessThan(log.indexOf('start ResourceQuota'));
    expect(log.indexOf('end ResourceQuota')).toBeLessThan(log.indexOf('start Deployment'));
  });

  it('applies every child at once in a namespace fenced already, its quota enforced', async () => {
    const { api, log } = recordingApi();
    const applied = await new Applier(api).applyDrifted('t', desired, held({ hard: { pods: '10' } }), {
      claim: noClaim,
      together: true,
    });
    expect(log.slice(0, desired.length).every((entry) => entry.startsWith('start'))).toBe(true);
    expect(applied.quotaWait).toBeUndefined();
    expect(applied.changes.map((c) => c.ref.kind)).toEqual(desired.map((d) => d.ref.kind));
  });

  it('keeps the waves, and the workload waiting, when the quota there is not enforced yet', async () => {
    const { api, log } = recordingApi(false);
    const applied = await new Applier(api).applyDrifted('t', desired, held(undefined), {
      claim: noClaim,
      together: true,
    });
    expect(log.indexOf('end Namespace')).toBeLessThan(log.indexOf('start ResourceQuota'));
    expect(log.some((entry) => entry.includes('Deployment'))).toBe(false);
    expect(applied.quotaWait?.ref.kind).toBe('ResourceQuota');
  });
});
