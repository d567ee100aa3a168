import { describe, expect, it } from 'vitest';
import { specDiff, summarize } from './changes.js';

type Spec = Parameters<typeof summarize>[1];

/** A tenant's spec as sync applies it: one Deployment, some ConfigMaps. */
function spec(
  image: string,
  tweak: { replicas?: number; configMaps?: string[]; state?: Spec['state'] } = {},
): Spec {
  return {
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        ...(tweak.replicas === undefined ? {} : { replicas: tweak.replicas }),
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image }] } },
      },
    },
    configMaps: (tweak.configMaps ?? []).map((name) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name },
    })),
    state: tweak.state ?? 'active',
  };
}

describe('summarize', () => {
  it.each<[string, Spec | undefined, Spec, string]>([
    ['an image', spec('nginx:1.27'), spec('nginx:1.28'), 'image nginx:1.27 → nginx:1.28'],
    ['a ConfigMap added', spec('nginx:1.27'), spec('nginx:1.27', { configMaps: ['a'] }), 'configMaps +1'],
    [
      'ConfigMaps removed and changed',
      spec('nginx:1.27', { configMaps: ['a', 'b'] }),
      {
        ...spec('nginx:1.27'),
        configMaps: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: 'v' } }],
      },
      'configMaps -1 ~1',
    ],
    [
      'replicas, none written being 1',
      spec('nginx:1.27'),
      spec('nginx:1.27', { replicas: 3 }),
      'replicas 1 → 3',
    ],
    ['the state', spec('nginx:1.27'), spec('nginx:1.27', { state: 'suspended' }), 'state active → suspended'],
    [
      'several things at once',
      spec('nginx:1.27'),
      spec('nginx:1.28', { replicas: 2, configMaps: ['a'] }),
      'image nginx:1.27 → nginx:1.28, replicas 1 → 2, configMaps +1',
    ],
    ['nothing', spec('nginx:1.27'), spec('nginx:1.27'), 'no change'],
    ['the first revision kept', undefined, spec('nginx:1.27'), 'first revision kept: image nginx:1.27'],
  ])('names %s', (_case, before, after, summary) => {
    expect(summarize(before, after)).toBe(summary);
  });

  it('counts the fields it has no words for', () => {
    const after = spec('nginx:1.27');
    after.deployment!.metadata!.labels = { team: 'a' };
    expect(summarize(spec('nginx:1.27'), after)).toBe('deployment 1 other field');
  });

  it('names the container when there are several', () => {
    const two = (image: string): Spec => {
      const s = spec(image);
      s.deployment!.spec!.template.spec!.containers.push({ name: 'side', image: 'busybox' });
      return s;
    };
    expect(summarize(two('a'), two('b'))).toBe('image app a → b');
  });

  it('counts the Deployments of a row of several by name: added, removed, changed', () => {
    const several = (...images: string[]): Spec => {
      const { deployment, ...rest } = spec('unused');
      const deployments = images.map((image, i) => {
        const d = structuredClone(deployment!);
        d.metadata!.name = `svc-${i}`;
        d.spec!.template.spec!.containers[0]!.image = image;
        return d;
      });
      return { ...rest, deployments };
    };
    expect(summarize(several('a', 'b'), several('a', 'c', 'd'))).toBe('deployments +1 ~1');
    expect(summarize(spec('a'), several('a', 'b'))).toBe('deployments +2 -1');
    expect(specDiff(several('a'), several('b'))).toContain(
      'deployments[0].spec.template.spec.containers[0].image: "a" → "b"',
    );
  });
});

describe('specDiff', () => {
  it('lists every field a revision changed, by path', () => {
    expect(specDiff(spec('nginx:1.27'), spec('nginx:1.28', { replicas: 3 }))).toEqual([
      'deployment.spec.replicas: added 3',
      'deployment.spec.template.spec.containers[0].image: "nginx:1.27" → "nginx:1.28"',
    ]);
  });

  it('shows the whole content as added against no revision', () => {
    expect(specDiff(undefined, spec('nginx:1.27'))).toEqual([expect.stringMatching(/^: added /)]);
  });
});
