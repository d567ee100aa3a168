import { describe, expect, it } from 'vitest';
import { isSubset, project } from './drift.js';

const container = { name: 'app', image: 'nginx:1', resources: { requests: { cpu: '0.5', memory: '1Gi' } } };
const deployment = {
  metadata: { name: 'a', labels: { x: '1' } },
  spec: { replicas: 1, template: { spec: { containers: [container] } } },
};

/** The same Deployment as the API server returns it: defaults added, quantities canonical. */
function stored(tweak: (d: typeof deployment & Record<string, unknown>) => void = () => undefined): unknown {
  const copy = structuredClone(deployment) as typeof deployment & Record<string, unknown>;
  copy.metadata = {
    ...copy.metadata,
    uid: 'u',
    labels: { ...copy.metadata.labels, extra: 'y' },
  } as typeof copy.metadata;
  copy.spec.template.spec.containers[0]!.resources.requests = { cpu: '500m', memory: '1Gi' };
  (copy.spec.template.spec.containers[0] as Record<string, unknown>).imagePullPolicy = 'IfNotPresent';
  copy.status = { replicas: 1 };
  tweak(copy);
  return copy;
}

describe('isSubset', () => {
  it('accepts the stored form of the desired object, with defaults and canonical quantities', () => {
    expect(isSubset(deployment, stored())).toBe(true);
  });

  type Stored = typeof deployment;
  it.each<[string, (d: Stored) => void]>([
    ['an edited image', (d) => (d.spec.template.spec.containers[0]!.image = 'evil:1')],
    ['changed replicas', (d) => (d.spec.replicas = 3)],
    ['a removed label', (d) => delete (d.metadata.labels as Partial<Stored['metadata']['labels']>).x],
    ['a changed quantity', (d) => (d.spec.template.spec.containers[0]!.resources.requests.cpu = '1')],
    ['a removed container', (d) => (d.spec.template.spec.containers = [])],
  ])('sees %s as drift', (_case, tweak) => {
    expect(isSubset(deployment, stored(tweak))).toBe(false);
  });

  it('treats empty lists and null as absent, and an empty map as no requirement', () => {
    expect(isSubset({ a: [], b: null, c: {} }, { c: { filled: 1 } })).toBe(true);
    expect(isSubset({ a: [] }, { a: ['x'] })).toBe(false);
  });
});

describe('project', () => {
  it('keeps the desired shape with the stored values', () => {
    expect(project(deployment, stored())).toEqual({
      ...deployment,
      spec: {
        ...deployment.spec,
        template: {
          spec: { containers: [{ ...container, resources: { requests: { cpu: '500m', memory: '1Gi' } } }] },
        },
      },
    });
  });
});
