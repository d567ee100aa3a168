// How a class's grants are written on its tenants' namespaces, in the format the admission policy
// on pods splits (config/admission/policies.yaml, landlord-tenant-pods).
import { describe, expect, it } from 'vitest';
import { resolvedClass } from '../../api/tenantclass.js';
import { podGrantAnnotations, POD_GRANT_ANNOTATIONS } from './pod-grants.js';

describe('podGrantAnnotations', () => {
  it('grants nothing, and writes nothing, for a class without a pool or PriorityClasses', () => {
    expect(podGrantAnnotations(resolvedClass('c', 1))).toEqual({});
  });

  it('writes the pool and the PriorityClasses sorted, comma-separated, each toleration in five fields', () => {
    const tenantClass = resolvedClass('c', 1, {
      nodePool: {
        nodeSelector: { zone: 'b', pool: 'tenants' },
        tolerations: [
          { key: 'pool', value: 'tenants', effect: 'NoSchedule' },
          { key: 'gpu', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
          { key: 'pool', value: 'tenants', effect: 'NoSchedule' },
        ],
      },
      limits: { allowedPriorityClasses: ['low', 'batch'] },
    });
    expect(podGrantAnnotations(tenantClass)).toEqual({
      [POD_GRANT_ANNOTATIONS.nodeSelector]: 'pool=tenants,zone=b',
      [POD_GRANT_ANNOTATIONS.tolerations]: 'gpu:Exists::NoExecute:60,pool:Equal:tenants:NoSchedule:',
      [POD_GRANT_ANNOTATIONS.priorityClasses]: 'batch,low',
    });
  });

  it('writes a key-less toleration as the pool grants it: an empty first field', () => {
    const tenantClass = resolvedClass('c', 1, { nodePool: { tolerations: [{ operator: 'Exists' }] } });
    expect(podGrantAnnotations(tenantClass)[POD_GRANT_ANNOTATIONS.tolerations]).toBe(':Exists:::');
  });

  it('leaves out what would break the format: no pod could carry it, and leaving it out grants less', () => {
    const tenantClass = resolvedClass('c', 1, {
      nodePool: {
        nodeSelector: { 'a,b': 'c', ok: 'x=y' },
        tolerations: [
          { key: 'a:b', operator: 'Exists' },
          { key: 'p', value: 'q,r' },
        ],
      },
      limits: { allowedPriorityClasses: ['x,y'] },
    });
    expect(podGrantAnnotations(tenantClass)).toEqual({});
  });
});
